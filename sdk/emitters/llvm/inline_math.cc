#include "sdk/emitters/llvm/inline_math.h"

#include <initializer_list>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace phal::llvm_emitter {
namespace {

// Straight-line f32 arithmetic for the functions below: twice the lanes
// of f64, and f32 divisions.
class F32Math {
 public:
  explicit F32Math(llvm::IRBuilder<>& builder)
      : b_(builder), f32_(builder.getFloatTy()), i32_(builder.getInt32Ty()) {}

  llvm::Value* Constant(float value) {
    return llvm::ConstantFP::get(f32_, value);
  }
  llvm::Value* MulAdd(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {f32_}, {a, b, c});
  }
  llvm::Value* Clamp(llvm::Value* value, float low, float high) {
    llvm::Value* limited = b_.CreateSelect(
        b_.CreateFCmpOGT(value, Constant(high)), Constant(high), value);
    return b_.CreateSelect(b_.CreateFCmpOLT(limited, Constant(low)),
                           Constant(low), limited);
  }
  // Horner's rule: c[0] + y (c[1] + y (c[2] + ...)), in f32.
  llvm::Value* Polynomial(llvm::Value* y, std::initializer_list<double> c) {
    const std::vector<double> coefficients(c);
    llvm::Value* p = Constant(static_cast<float>(coefficients.back()));
    for (std::size_t i = coefficients.size() - 1; i-- > 0;) {
      p = MulAdd(p, y, Constant(static_cast<float>(coefficients[i])));
    }
    return p;
  }

  // e^y for any y but NaN (whose lanes give an unspecified value; callers
  // select the NaN result themselves). y is clamped to [-104, 89], beyond
  // which e^y rounds to 0 or overflows either way; k = round(y / ln 2),
  // r = y - k ln 2 with ln 2 in two parts (k times the first, of 9 bits, is
  // exact), e^r by its Taylor polynomial of degree 7 (|r| <= ln 2 / 2: the
  // remainder is below 2^-27), times 2^k as two powers of two that are
  // normal floats, so that results down to the subnormals round once.
  llvm::Value* Exp(llvm::Value* y) {
    y = b_.CreateSelect(b_.CreateFCmpUNO(y, y), Constant(0.0f), y);
    y = Clamp(y, -104.0f, 89.0f);
    // 1.5 * 2^23: adding it rounds to an integer held in the low bits.
    llvm::Value* shifter = Constant(12582912.0f);
    llvm::Value* shifted = MulAdd(y, Constant(1.44269504f), shifter);
    llvm::Value* k = b_.CreateFSub(shifted, shifter);
    llvm::Value* minus_k = b_.CreateFNeg(k);
    llvm::Value* r = MulAdd(minus_k, Constant(0.693359375f), y);
    r = MulAdd(minus_k, Constant(-2.12194440e-4f), r);
    llvm::Value* p = Polynomial(r, {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24,
                                    1.0 / 120, 1.0 / 720, 1.0 / 5040});
    llvm::Value* integer = b_.CreateSub(b_.CreateBitCast(shifted, i32_),
                                        b_.CreateBitCast(shifter, i32_));
    llvm::Value* half = b_.CreateAShr(integer, 1);
    llvm::Value* rest = b_.CreateSub(integer, half);
    return b_.CreateFMul(b_.CreateFMul(p, PowerOfTwo(half)), PowerOfTwo(rest));
  }

  // The float 2^k for -126 <= k <= 127.
  llvm::Value* PowerOfTwo(llvm::Value* k) {
    llvm::Value* bits =
        b_.CreateShl(b_.CreateAdd(k, llvm::ConstantInt::get(i32_, 127)), 23);
    return b_.CreateBitCast(bits, f32_);
  }

  // `result`, or the input quieted where it is NaN.
  llvm::Value* WithNaN(llvm::Value* x, llvm::Value* result) {
    return b_.CreateSelect(b_.CreateFCmpUNO(x, x), b_.CreateFAdd(x, x), result);
  }

  llvm::IRBuilder<>& b_;
  llvm::Type* f32_;
  llvm::Type* i32_;
};

}  // namespace

llvm::Value* EmitExpF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F32Math m(builder);
  return m.WithNaN(x, m.Exp(x));
}

llvm::Value* EmitTanhF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F32Math m(builder);
  llvm::Value* magnitude =
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // 1 - 2 / (e^2|x| + 1): from |x| = 0.625 on the quotient is below 0.45
  // and the result above 0.55, so the quotient's rounding errors cost
  // about one ulp of the result. Above |x| = 10 the result is 1.
  llvm::Value* e = m.Exp(
      builder.CreateFMul(m.Clamp(magnitude, 0.0f, 10.0f), m.Constant(2.0f)));
  llvm::Value* large = builder.CreateFSub(
      m.Constant(1.0f),
      builder.CreateFDiv(m.Constant(2.0f),
                         builder.CreateFAdd(e, m.Constant(1.0f))));
  large = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, large, x);
  // Below 0.625, x + x^3 P(x^2) with P of degree 4 fitted to tanh's
  // relative error (below 2^-27.7 over the interval).
  llvm::Value* x2 = builder.CreateFMul(x, x);
  llvm::Value* p = m.Polynomial(
      x2, {-0.33333281941853743, 0.1333144219474933, -0.05373971484583905,
           0.020639086568293427, -0.0057049863275827175});
  llvm::Value* small = m.MulAdd(builder.CreateFMul(x, x2), p, x);
  llvm::Value* is_small = builder.CreateFCmpOLT(magnitude, m.Constant(0.625f));
  return m.WithNaN(x, builder.CreateSelect(is_small, small, large));
}

llvm::Value* EmitLogisticF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F32Math m(builder);
  // With t = e^-|x| (at most 1, so its rounding errors shrink in 1 + t):
  // 1 / (1 + t) for x >= 0 and t / (1 + t) below, which keeps the
  // subnormal results of x below -87.
  llvm::Value* t = m.Exp(builder.CreateFNeg(
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x)));
  llvm::Value* numerator = builder.CreateSelect(
      builder.CreateFCmpOGE(x, m.Constant(0.0f)), m.Constant(1.0f), t);
  llvm::Value* result =
      builder.CreateFDiv(numerator, builder.CreateFAdd(m.Constant(1.0f), t));
  return m.WithNaN(x, result);
}

llvm::Value* EmitErfF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F32Math m(builder);
  llvm::Value* magnitude =
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // Below |x| = 1: x P(x^2), P of degree 6 fitted to erf(x)/x (relative
  // error below 2^-29.6), as x + x (P(x^2) - 1): the correction is at most
  // 0.13 x, so its rounding shrinks, and the sum rounds once.
  llvm::Value* square = builder.CreateFMul(x, x);
  llvm::Value* small =
      m.MulAdd(x,
               m.Polynomial(square, {0.1283791657300113, -0.37612625833262653,
                                     0.11283585219518992, -0.026853814330345845,
                                     0.00518833162948067, -0.000801022486192627,
                                     7.853956666086148e-05}),
               x);
  // From 1 on: 1 - e^-x^2 R(1/|x|), R of degree 10 fitted to
  // erfc(x) e^x^2 (relative error below 2^-28.7), with x^2 = h + l split
  // exactly (e^-l = 1 - l to f32's precision), so that the rounding of x^2
  // does not reach e^-x^2. erfc is at most 0.16 there, and its error
  // shrinks in 1 - erfc. From 4 on erf rounds to 1.
  llvm::Value* a = m.Clamp(magnitude, 1.0f, 4.0f);
  llvm::Value* h = builder.CreateFMul(a, a);
  llvm::Value* l =
      builder.CreateIntrinsic(llvm::Intrinsic::fma, {builder.getFloatTy()},
                              {a, a, builder.CreateFNeg(h)});
  llvm::Value* gaussian = builder.CreateFMul(
      m.Exp(builder.CreateFNeg(h)), builder.CreateFSub(m.Constant(1.0f), l));
  llvm::Value* r = m.Polynomial(
      builder.CreateFDiv(m.Constant(1.0f), a),
      {2.990338196984882e-05, 0.5636389510605568, 0.003730847985647058,
       -0.2888605209742641, -0.05721937524421564, 0.8731045617835596,
       -1.4849618636395652, 1.3852516396886485, -0.7859778691885899,
       0.25559299532249513, -0.03674569495292437});
  llvm::Value* large =
      builder.CreateFSub(m.Constant(1.0f), builder.CreateFMul(gaussian, r));
  large =
      builder.CreateSelect(builder.CreateFCmpOGE(magnitude, m.Constant(4.0f)),
                           m.Constant(1.0f), large);
  large = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, large, x);
  llvm::Value* is_small = builder.CreateFCmpOLT(magnitude, m.Constant(1.0f));
  return m.WithNaN(x, builder.CreateSelect(is_small, small, large));
}

}  // namespace phal::llvm_emitter
