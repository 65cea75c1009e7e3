#include "sdk/emitters/llvm/inline_math.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace phal::llvm_emitter {
namespace {

// log2(e), and ln 2 split so that k * kLn2High is exact for |k| < 2^11.
constexpr double kLog2E = 1.4426950408889634;
constexpr double kLn2High = 6.93147180369123816490e-01;
constexpr double kLn2Low = 1.90821492927058770002e-10;
// 1.5 * 2^52: adding it rounds a double of magnitude below 2^51 to an
// integer held in the low mantissa bits.
constexpr double kRoundingShifter = 6755399441055744.0;

class F64Math {
 public:
  explicit F64Math(llvm::IRBuilder<>& builder)
      : b_(builder), f64_(builder.getDoubleTy()) {}

  llvm::Value* Constant(double value) {
    return llvm::ConstantFP::get(f64_, value);
  }
  // a * b + c, fused where the target has a fused multiply-add.
  llvm::Value* MulAdd(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {f64_}, {a, b, c});
  }
  // `value` limited to [low, high]; NaN passes through.
  llvm::Value* Clamp(llvm::Value* value, double low, double high) {
    llvm::Value* limited = b_.CreateSelect(
        b_.CreateFCmpOGT(value, Constant(high)), Constant(high), value);
    return b_.CreateSelect(b_.CreateFCmpOLT(limited, Constant(low)),
                           Constant(low), limited);
  }

  // e^y for y in [-1000, 1000] (a NaN y gives an unspecified value; callers
  // select the NaN result themselves).
  llvm::Value* Exp(llvm::Value* y) {
    // A NaN lane is computed as 0 so that no lane builds poison.
    y = b_.CreateSelect(b_.CreateFCmpUNO(y, y), Constant(0.0), y);
    llvm::Value* shifted = b_.CreateFAdd(b_.CreateFMul(y, Constant(kLog2E)),
                                         Constant(kRoundingShifter));
    llvm::Value* k = b_.CreateFSub(shifted, Constant(kRoundingShifter));
    llvm::Value* minus_k = b_.CreateFNeg(k);
    llvm::Value* r = MulAdd(minus_k, Constant(kLn2High), y);
    r = MulAdd(minus_k, Constant(kLn2Low), r);
    // sum r^n / n! for n = 0..12: the remainder is below 2^-52 relative.
    double coefficient = 1.0;
    double coefficients[13];
    for (int n = 0; n <= 12; ++n) {
      if (n > 0) coefficient /= n;
      coefficients[n] = coefficient;
    }
    llvm::Value* p = Constant(coefficients[12]);
    for (int n = 11; n >= 0; --n) p = MulAdd(p, r, Constant(coefficients[n]));
    // 2^k: k sits in the low mantissa bits of `shifted`; shifted into the
    // exponent field and biased, it is the double 2^k for |k| < 1023.
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::Value* bits = b_.CreateShl(b_.CreateBitCast(shifted, i64), 52);
    bits =
        b_.CreateAdd(bits, llvm::ConstantInt::get(i64, uint64_t{1023} << 52));
    return b_.CreateFMul(p, b_.CreateBitCast(bits, f64_));
  }

  // The f64 result rounded to f32, or the input quieted where it is NaN.
  llvm::Value* ToF32(llvm::Value* x, llvm::Value* result) {
    llvm::Value* nan = b_.CreateFCmpUNO(x, x);
    return b_.CreateSelect(nan, b_.CreateFAdd(x, x),
                           b_.CreateFPTrunc(result, b_.getFloatTy()));
  }

  llvm::IRBuilder<>& b_;
  llvm::Type* f64_;
};

}  // namespace

llvm::Value* EmitExpF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F64Math m(builder);
  llvm::Value* wide = builder.CreateFPExt(x, m.f64_);
  // e^-120 and e^100 are beyond f32's range either way: the clamp keeps 2^k
  // a normal double and the rounding to f32 makes 0 or infinity.
  return m.ToF32(x, m.Exp(m.Clamp(wide, -120.0, 100.0)));
}

llvm::Value* EmitTanhF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F64Math m(builder);
  llvm::Value* wide = builder.CreateFPExt(x, m.f64_);
  llvm::Value* magnitude =
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, wide);
  // Above |x| = 20, 1 - tanh is below 2^-57: the result is 1.
  llvm::Value* e =
      m.Exp(m.Clamp(builder.CreateFMul(magnitude, m.Constant(2.0)), 0.0, 40.0));
  llvm::Value* large = builder.CreateFSub(
      m.Constant(1.0),
      builder.CreateFDiv(m.Constant(2.0),
                         builder.CreateFAdd(e, m.Constant(1.0))));
  large = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, large, wide);
  // x - x^3/3 + 2x^5/15 - 17x^7/315 + 62x^9/2835: the next term is below
  // 2^-56 of the result for |x| < 2^-5.
  llvm::Value* x2 = builder.CreateFMul(wide, wide);
  llvm::Value* p = m.Constant(62.0 / 2835.0);
  p = m.MulAdd(p, x2, m.Constant(-17.0 / 315.0));
  p = m.MulAdd(p, x2, m.Constant(2.0 / 15.0));
  p = m.MulAdd(p, x2, m.Constant(-1.0 / 3.0));
  llvm::Value* small = m.MulAdd(builder.CreateFMul(wide, x2), p, wide);
  llvm::Value* is_small = builder.CreateFCmpOLT(magnitude, m.Constant(0.03125));
  return m.ToF32(x, builder.CreateSelect(is_small, small, large));
}

llvm::Value* EmitErfF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F64Math m(builder);
  llvm::Value* wide = builder.CreateFPExt(x, m.f64_);
  llvm::Value* magnitude =
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, wide);
  // erf(|x|) = |x| sum_n c_n x^2n with c_n = 2/sqrt(pi) (-1)^n / (n! (2n+1)),
  // 70 terms, for |x| < 4; from 4 on erf rounds to 1 in f32.
  llvm::Value* limited = m.Clamp(magnitude, 0.0, 4.0);
  llvm::Value* square = builder.CreateFMul(limited, limited);
  constexpr int kTerms = 70;
  double coefficients[kTerms];
  double factorial = 1.0;
  for (int n = 0; n < kTerms; ++n) {
    if (n > 0) factorial *= n;
    coefficients[n] =
        1.1283791670955126 * ((n % 2) ? -1.0 : 1.0) / (factorial * (2 * n + 1));
  }
  llvm::Value* p = m.Constant(coefficients[kTerms - 1]);
  for (int n = kTerms - 2; n >= 0; --n) {
    p = m.MulAdd(p, square, m.Constant(coefficients[n]));
  }
  llvm::Value* result =
      builder.CreateSelect(builder.CreateFCmpOGE(magnitude, m.Constant(4.0)),
                           m.Constant(1.0), builder.CreateFMul(limited, p));
  result =
      builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, result, wide);
  return m.ToF32(x, result);
}

llvm::Value* EmitLogisticF32(llvm::IRBuilder<>& builder, llvm::Value* x) {
  F64Math m(builder);
  llvm::Value* wide = builder.CreateFPExt(x, m.f64_);
  // Beyond |x| = 120 the result is 0 or 1 in f32 either way.
  llvm::Value* e = m.Exp(m.Clamp(builder.CreateFNeg(wide), -120.0, 120.0));
  return m.ToF32(x, builder.CreateFDiv(m.Constant(1.0),
                                       builder.CreateFAdd(m.Constant(1.0), e)));
}

}  // namespace phal::llvm_emitter
