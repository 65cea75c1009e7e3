#include "sdk/kir_interpreter/scalar_ops.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "sdk/kir_interpreter/convert.h"
#include "sdk/kir_interpreter/element_traits.h"
#include "sdk/kir_interpreter/kir_ops.h"

namespace phal::kir_interpreter {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------
// Loops. Each loads operands through their traits, applies kFn to the
// computed values and stores through the result's traits.

template <typename T>
const typename T::Storage* Operand(const ScalarOpArgs& args, int index) {
  return reinterpret_cast<const typename T::Storage*>(args.operands[index]);
}

template <typename T>
typename T::Storage* Result(const ScalarOpArgs& args) {
  return reinterpret_cast<typename T::Storage*>(args.result);
}

template <typename In, typename Out, auto kFn>
void MapUnary(const ScalarOpArgs& args) {
  const auto* x = Operand<In>(args, 0);
  auto* out = Result<Out>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Out::Store(kFn(In::Load(x[i])));
  }
}

template <typename In, typename Out, auto kFn>
void MapBinary(const ScalarOpArgs& args) {
  const auto* x = Operand<In>(args, 0);
  const auto* y = Operand<In>(args, 1);
  auto* out = Result<Out>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Out::Store(kFn(In::Load(x[i]), In::Load(y[i])));
  }
}

// ---------------------------------------------------------------------------
// Real floating-point semantics (values in double).

// IEEE 754-2019 maximum and minimum: NaN propagates (as the canonical quiet
// NaN) and -0 < +0.
double FloatMaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double FloatMinimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double FloatSign(double x) {
  if (std::isnan(x) || x == 0.0) return x;
  return x > 0.0 ? 1.0 : -1.0;
}

double FloatAbs(double x) { return std::fabs(x); }
double FloatCbrt(double x) { return std::cbrt(x); }
double FloatCeil(double x) { return std::ceil(x); }
double FloatCos(double x) { return std::cos(x); }
double FloatErf(double x) { return std::erf(x); }
double FloatExp(double x) { return std::exp(x); }
double FloatExpm1(double x) { return std::expm1(x); }
double FloatFloor(double x) { return std::floor(x); }
double FloatImag(double) { return 0.0; }
bool FloatIsFinite(double x) { return std::isfinite(x); }
double FloatLog(double x) { return std::log(x); }
double FloatLog1p(double x) { return std::log1p(x); }
double FloatLogistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double FloatNegate(double x) { return -x; }
double FloatReal(double x) { return x; }
double FloatRoundAfz(double x) { return std::round(x); }
double FloatRoundEven(double x) { return std::nearbyint(x); }
double FloatRsqrt(double x) { return 1.0 / std::sqrt(x); }
double FloatSin(double x) { return std::sin(x); }
double FloatSqrt(double x) { return std::sqrt(x); }
double FloatTan(double x) { return std::tan(x); }
double FloatTanh(double x) { return std::tanh(x); }

double FloatAdd(double x, double y) { return x + y; }
double FloatSubtract(double x, double y) { return x - y; }
double FloatMultiply(double x, double y) { return x * y; }
double FloatDivide(double x, double y) { return x / y; }
double FloatRemainder(double x, double y) { return std::fmod(x, y); }
double FloatPower(double x, double y) { return std::pow(x, y); }
double FloatAtan2(double y, double x) { return std::atan2(y, x); }
Complex MakeComplex(double re, double im) { return Complex(re, im); }

template <typename T>
ScalarOp FloatUnaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, T, FloatAbs>;
    case PHAL_KIR_OP_CBRT:
      return &MapUnary<T, T, FloatCbrt>;
    case PHAL_KIR_OP_CEIL:
      return &MapUnary<T, T, FloatCeil>;
    case PHAL_KIR_OP_COS:
      return &MapUnary<T, T, FloatCos>;
    case PHAL_KIR_OP_ERF:
      return &MapUnary<T, T, FloatErf>;
    case PHAL_KIR_OP_EXP:
      return &MapUnary<T, T, FloatExp>;
    case PHAL_KIR_OP_EXPM1:
      return &MapUnary<T, T, FloatExpm1>;
    case PHAL_KIR_OP_FLOOR:
      return &MapUnary<T, T, FloatFloor>;
    case PHAL_KIR_OP_IMAG:
      return &MapUnary<T, T, FloatImag>;
    case PHAL_KIR_OP_IS_FINITE:
      return &MapUnary<T, PredTraits, FloatIsFinite>;
    case PHAL_KIR_OP_LOG:
      return &MapUnary<T, T, FloatLog>;
    case PHAL_KIR_OP_LOG1P:
      return &MapUnary<T, T, FloatLog1p>;
    case PHAL_KIR_OP_LOGISTIC:
      return &MapUnary<T, T, FloatLogistic>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, FloatNegate>;
    case PHAL_KIR_OP_REAL:
      return &MapUnary<T, T, FloatReal>;
    case PHAL_KIR_OP_ROUND_NEAREST_AFZ:
      return &MapUnary<T, T, FloatRoundAfz>;
    case PHAL_KIR_OP_ROUND_NEAREST_EVEN:
      return &MapUnary<T, T, FloatRoundEven>;
    case PHAL_KIR_OP_RSQRT:
      return &MapUnary<T, T, FloatRsqrt>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, FloatSign>;
    case PHAL_KIR_OP_SIN:
      return &MapUnary<T, T, FloatSin>;
    case PHAL_KIR_OP_SQRT:
      return &MapUnary<T, T, FloatSqrt>;
    case PHAL_KIR_OP_TAN:
      return &MapUnary<T, T, FloatTan>;
    case PHAL_KIR_OP_TANH:
      return &MapUnary<T, T, FloatTanh>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp FloatBinaryOp(uint32_t op, ElementType result) {
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, FloatAdd>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, FloatSubtract>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, FloatMultiply>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, FloatDivide>;
    case PHAL_KIR_OP_REMAINDER:
      return &MapBinary<T, T, FloatRemainder>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, FloatMaximum>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, FloatMinimum>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, FloatPower>;
    case PHAL_KIR_OP_ATAN2:
      return &MapBinary<T, T, FloatAtan2>;
    case PHAL_KIR_OP_COMPLEX:
      return result == PHAL_ELEMENT_TYPE_C128
                 ? &MapBinary<T, C128Traits, MakeComplex>
                 : &MapBinary<T, C64Traits, MakeComplex>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Complex semantics (values in std::complex<double>).

// exp(z) - 1 without cancellation for small |z|:
// re = expm1(x) cos(y) - 2 sin^2(y / 2), im = exp(x) sin(y).
Complex ComplexExpm1(Complex z) {
  const double half_sin = std::sin(z.imag() / 2);
  return {std::expm1(z.real()) * std::cos(z.imag()) - 2 * half_sin * half_sin,
          std::exp(z.real()) * std::sin(z.imag())};
}

// log(1 + z) without cancellation for small |z|:
// re = log1p(x (2 + x) + y^2) / 2, im = atan2(y, 1 + x).
Complex ComplexLog1p(Complex z) {
  const double x = z.real(), y = z.imag();
  return {0.5 * std::log1p(x * (2 + x) + y * y), std::atan2(y, 1 + x)};
}

// atan2 of complex numbers as the StableHLO interpreter defines it:
// -i * log((x + i y) / sqrt(x^2 + y^2)).
Complex ComplexAtan2(Complex y, Complex x) {
  const Complex i(0, 1);
  return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
}

// The specification's order for complex maximum and minimum: by real part,
// then by imaginary part.
bool LexicographicLess(Complex x, Complex y) {
  if (x.real() != y.real()) return x.real() < y.real();
  return x.imag() < y.imag();
}

Complex ComplexSign(Complex z) {
  if (std::isnan(z.real()) || std::isnan(z.imag())) return {kNaN, kNaN};
  const double magnitude = std::abs(z);
  return magnitude == 0 ? Complex(0, 0) : z / magnitude;
}

double ComplexAbs(Complex z) { return std::abs(z); }
double ComplexReal(Complex z) { return z.real(); }
double ComplexImag(Complex z) { return z.imag(); }
Complex ComplexNegate(Complex z) { return -z; }
Complex ComplexExp(Complex z) { return std::exp(z); }
Complex ComplexLog(Complex z) { return std::log(z); }
Complex ComplexLogistic(Complex z) { return 1.0 / (1.0 + std::exp(-z)); }
Complex ComplexSqrt(Complex z) { return std::sqrt(z); }
Complex ComplexRsqrt(Complex z) { return 1.0 / std::sqrt(z); }
Complex ComplexCbrt(Complex z) { return std::pow(z, 1.0 / 3); }
Complex ComplexSin(Complex z) { return std::sin(z); }
Complex ComplexCos(Complex z) { return std::cos(z); }
Complex ComplexTan(Complex z) { return std::tan(z); }
Complex ComplexTanh(Complex z) { return std::tanh(z); }

Complex ComplexAdd(Complex x, Complex y) { return x + y; }
Complex ComplexSubtract(Complex x, Complex y) { return x - y; }
Complex ComplexMultiply(Complex x, Complex y) { return x * y; }
Complex ComplexDivide(Complex x, Complex y) { return x / y; }
Complex ComplexPower(Complex x, Complex y) { return std::pow(x, y); }
Complex ComplexMaximum(Complex x, Complex y) {
  return LexicographicLess(x, y) ? y : x;
}
Complex ComplexMinimum(Complex x, Complex y) {
  return LexicographicLess(y, x) ? y : x;
}

template <typename T>
ScalarOp ComplexUnaryOp(uint32_t op) {
  using Part = typename T::Part;
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, Part, ComplexAbs>;
    case PHAL_KIR_OP_REAL:
      return &MapUnary<T, Part, ComplexReal>;
    case PHAL_KIR_OP_IMAG:
      return &MapUnary<T, Part, ComplexImag>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, ComplexNegate>;
    case PHAL_KIR_OP_EXP:
      return &MapUnary<T, T, ComplexExp>;
    case PHAL_KIR_OP_EXPM1:
      return &MapUnary<T, T, ComplexExpm1>;
    case PHAL_KIR_OP_LOG:
      return &MapUnary<T, T, ComplexLog>;
    case PHAL_KIR_OP_LOG1P:
      return &MapUnary<T, T, ComplexLog1p>;
    case PHAL_KIR_OP_LOGISTIC:
      return &MapUnary<T, T, ComplexLogistic>;
    case PHAL_KIR_OP_SQRT:
      return &MapUnary<T, T, ComplexSqrt>;
    case PHAL_KIR_OP_RSQRT:
      return &MapUnary<T, T, ComplexRsqrt>;
    case PHAL_KIR_OP_CBRT:
      return &MapUnary<T, T, ComplexCbrt>;
    case PHAL_KIR_OP_SIN:
      return &MapUnary<T, T, ComplexSin>;
    case PHAL_KIR_OP_COS:
      return &MapUnary<T, T, ComplexCos>;
    case PHAL_KIR_OP_TAN:
      return &MapUnary<T, T, ComplexTan>;
    case PHAL_KIR_OP_TANH:
      return &MapUnary<T, T, ComplexTanh>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, ComplexSign>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp ComplexBinaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, ComplexAdd>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, ComplexSubtract>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, ComplexMultiply>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, ComplexDivide>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, ComplexPower>;
    case PHAL_KIR_OP_ATAN2:
      return &MapBinary<T, T, ComplexAtan2>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, ComplexMaximum>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, ComplexMinimum>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Integer semantics. Arithmetic wraps modulo 2^bits: it is done in uint64_t
// and truncated, which avoids signed overflow and the promotion of narrow
// unsigned operands to int.

template <typename I>
I Wrap(uint64_t value) {
  return static_cast<I>(value);
}

template <typename I>
uint64_t Widen(I value) {
  return static_cast<uint64_t>(value);
}

template <typename I>
constexpr int kBits = static_cast<int>(sizeof(I) * 8);

template <typename I>
I IntegerAdd(I x, I y) {
  return Wrap<I>(Widen(x) + Widen(y));
}
template <typename I>
I IntegerSubtract(I x, I y) {
  return Wrap<I>(Widen(x) - Widen(y));
}
template <typename I>
I IntegerMultiply(I x, I y) {
  return Wrap<I>(Widen(x) * Widen(y));
}
template <typename I>
I IntegerMaximum(I x, I y) {
  return x > y ? x : y;
}
template <typename I>
I IntegerMinimum(I x, I y) {
  return x < y ? x : y;
}
template <typename I>
I IntegerAnd(I x, I y) {
  return static_cast<I>(x & y);
}
template <typename I>
I IntegerOr(I x, I y) {
  return static_cast<I>(x | y);
}
template <typename I>
I IntegerXor(I x, I y) {
  return static_cast<I>(x ^ y);
}

// XLA's choices where C++ is undefined: x / 0 = -1 (all ones), and for
// signed types INT_MIN / -1 = INT_MIN.
template <typename I>
I IntegerDivide(I x, I y) {
  if (y == 0) return static_cast<I>(-1);
  if constexpr (std::is_signed_v<I>) {
    if (x == std::numeric_limits<I>::min() && y == -1) return x;
  }
  return static_cast<I>(x / y);
}

// XLA's choices: x % 0 = x, and INT_MIN % -1 = 0. The sign follows x.
template <typename I>
I IntegerRemainder(I x, I y) {
  if (y == 0) return x;
  if constexpr (std::is_signed_v<I>) {
    if (x == std::numeric_limits<I>::min() && y == -1) return 0;
  }
  return static_cast<I>(x % y);
}

// StableHLO: a negative exponent gives 0 unless |x| == 1, when it is
// x^|y|. Square-and-multiply with wraparound otherwise.
template <typename I>
I IntegerPower(I x, I y) {
  uint64_t exponent = Widen(y);
  if constexpr (std::is_signed_v<I>) {
    if (y < 0) {
      if (x != 1 && x != -1) return 0;
      // |y| in unsigned arithmetic: negating the most negative value
      // overflows a signed type.
      exponent = uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(y));
    }
  }
  uint64_t base = Widen(x), result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return Wrap<I>(result);
}

// The shift amount is read as unsigned; amounts >= the bit width shift
// everything out (sign fill for arithmetic right shifts).
template <typename I>
bool ShiftOutOfRange(I amount) {
  return static_cast<std::make_unsigned_t<I>>(amount) >=
         static_cast<unsigned>(kBits<I>);
}

template <typename I>
I ShiftLeft(I x, I amount) {
  if (ShiftOutOfRange(amount)) return 0;
  return Wrap<I>(Widen(x) << static_cast<int>(amount));
}

template <typename I>
I ShiftRightLogical(I x, I amount) {
  using U = std::make_unsigned_t<I>;
  if (ShiftOutOfRange(amount)) return 0;
  return static_cast<I>(static_cast<U>(x) >> static_cast<int>(amount));
}

template <typename I>
I ShiftRightArithmetic(I x, I amount) {
  using S = std::make_signed_t<I>;
  const S value = static_cast<S>(x);
  if (ShiftOutOfRange(amount)) return static_cast<I>(value < 0 ? -1 : 0);
  return static_cast<I>(value >> static_cast<int>(amount));
}

template <typename I>
I IntegerSign(I x) {
  if constexpr (std::is_signed_v<I>) {
    if (x < 0) return -1;
  }
  return x == 0 ? 0 : 1;
}

template <typename I>
I IntegerAbs(I x) {
  if constexpr (std::is_signed_v<I>) {
    if (x < 0) return Wrap<I>(0 - Widen(x));
  }
  return x;
}

template <typename I>
I IntegerNegate(I x) {
  return Wrap<I>(0 - Widen(x));
}
template <typename I>
I IntegerNot(I x) {
  return static_cast<I>(~x);
}
template <typename I>
I PopulationCount(I x) {
  return static_cast<I>(std::popcount(static_cast<std::make_unsigned_t<I>>(x)));
}
template <typename I>
I CountLeadingZeros(I x) {
  return static_cast<I>(
      std::countl_zero(static_cast<std::make_unsigned_t<I>>(x)));
}

template <typename T>
ScalarOp IntegerUnaryOp(uint32_t op) {
  using I = typename T::Value;
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, T, IntegerAbs<I>>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, IntegerNegate<I>>;
    case PHAL_KIR_OP_NOT:
      return &MapUnary<T, T, IntegerNot<I>>;
    case PHAL_KIR_OP_POPCNT:
      return &MapUnary<T, T, PopulationCount<I>>;
    case PHAL_KIR_OP_CLZ:
      return &MapUnary<T, T, CountLeadingZeros<I>>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, IntegerSign<I>>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp IntegerBinaryOp(uint32_t op) {
  using I = typename T::Value;
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, IntegerAdd<I>>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, IntegerSubtract<I>>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, IntegerMultiply<I>>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, IntegerDivide<I>>;
    case PHAL_KIR_OP_REMAINDER:
      return &MapBinary<T, T, IntegerRemainder<I>>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, IntegerMaximum<I>>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, IntegerMinimum<I>>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, IntegerPower<I>>;
    case PHAL_KIR_OP_AND:
      return &MapBinary<T, T, IntegerAnd<I>>;
    case PHAL_KIR_OP_OR:
      return &MapBinary<T, T, IntegerOr<I>>;
    case PHAL_KIR_OP_XOR:
      return &MapBinary<T, T, IntegerXor<I>>;
    case PHAL_KIR_OP_SHIFT_LEFT:
      return &MapBinary<T, T, ShiftLeft<I>>;
    case PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL:
      return &MapBinary<T, T, ShiftRightLogical<I>>;
    case PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC:
      return &MapBinary<T, T, ShiftRightArithmetic<I>>;
    default:
      return nullptr;
  }
}

// pred is the one-bit unsigned integer: max is or, min is and, add is or
// and subtract is xor.
bool PredNot(bool x) { return !x; }
bool PredAnd(bool x, bool y) { return x && y; }
bool PredOr(bool x, bool y) { return x || y; }
bool PredXor(bool x, bool y) { return x != y; }

ScalarOp PredUnaryOp(uint32_t op) {
  return op == PHAL_KIR_OP_NOT ? &MapUnary<PredTraits, PredTraits, PredNot>
                               : nullptr;
}

ScalarOp PredBinaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_AND:
    case PHAL_KIR_OP_MINIMUM:
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<PredTraits, PredTraits, PredAnd>;
    case PHAL_KIR_OP_OR:
    case PHAL_KIR_OP_MAXIMUM:
    case PHAL_KIR_OP_ADD:
      return &MapBinary<PredTraits, PredTraits, PredOr>;
    case PHAL_KIR_OP_XOR:
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<PredTraits, PredTraits, PredXor>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Compare. Each ordering maps a stored element to a key whose built-in
// comparison is the ordering: the double value for IEEE comparison (where
// every relation with a NaN is false except NE, as C++ has it), a signed
// integer for totalOrder, the bits read as signed or unsigned for integers.

template <uint32_t kDirection, typename K>
bool Holds(K a, K b) {
  if constexpr (kDirection == PHAL_KIR_COMPARE_EQ) return a == b;
  if constexpr (kDirection == PHAL_KIR_COMPARE_NE) return a != b;
  if constexpr (kDirection == PHAL_KIR_COMPARE_LT) return a < b;
  if constexpr (kDirection == PHAL_KIR_COMPARE_LE) return a <= b;
  if constexpr (kDirection == PHAL_KIR_COMPARE_GT) return a > b;
  if constexpr (kDirection == PHAL_KIR_COMPARE_GE) return a >= b;
}

template <typename T>
typename T::Value ValueKey(typename T::Storage s) {
  return T::Load(s);
}

// The totalOrder key: the bits as a signed integer, with the magnitude bits
// of negative values flipped so that -NaN < -inf < ... < -0 < +0 < ... < NaN.
template <typename T>
typename T::Bits TotalOrderKey(typename T::Storage s) {
  using Bits = typename T::Bits;
  Bits bits;
  std::memcpy(&bits, &s, sizeof(bits));
  return bits < 0 ? static_cast<Bits>(bits ^ std::numeric_limits<Bits>::max())
                  : bits;
}

template <typename T>
std::make_signed_t<typename T::Storage> SignedKey(typename T::Storage s) {
  return static_cast<std::make_signed_t<typename T::Storage>>(s);
}

template <typename T>
std::make_unsigned_t<typename T::Storage> UnsignedKey(typename T::Storage s) {
  return static_cast<std::make_unsigned_t<typename T::Storage>>(s);
}

template <typename T, auto kKey, uint32_t kDirection>
void CompareLoop(const ScalarOpArgs& args) {
  const auto* x = Operand<T>(args, 0);
  const auto* y = Operand<T>(args, 1);
  uint8_t* out = args.result;
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Holds<kDirection>(kKey(x[i]), kKey(y[i])) ? 1 : 0;
  }
}

// Lexicographic on (real, imaginary); NaN parts compare as unordered.
template <uint32_t kDirection>
bool ComplexHolds(Complex x, Complex y) {
  if (x.real() != y.real() || std::isnan(x.real()) || std::isnan(y.real())) {
    return Holds<kDirection>(x.real(), y.real());
  }
  return Holds<kDirection>(x.imag(), y.imag());
}

template <typename T, uint32_t kDirection>
void ComplexCompareLoop(const ScalarOpArgs& args) {
  const auto* x = Operand<T>(args, 0);
  const auto* y = Operand<T>(args, 1);
  uint8_t* out = args.result;
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = ComplexHolds<kDirection>(T::Load(x[i]), T::Load(y[i])) ? 1 : 0;
  }
}

template <typename T, auto kKey>
ScalarOp CompareWithKey(uint32_t direction) {
  switch (direction) {
    case PHAL_KIR_COMPARE_EQ:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_EQ>;
    case PHAL_KIR_COMPARE_NE:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_NE>;
    case PHAL_KIR_COMPARE_LT:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_LT>;
    case PHAL_KIR_COMPARE_LE:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_LE>;
    case PHAL_KIR_COMPARE_GT:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_GT>;
    case PHAL_KIR_COMPARE_GE:
      return &CompareLoop<T, kKey, PHAL_KIR_COMPARE_GE>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp ComplexCompare(uint32_t direction) {
  switch (direction) {
    case PHAL_KIR_COMPARE_EQ:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_EQ>;
    case PHAL_KIR_COMPARE_NE:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_NE>;
    case PHAL_KIR_COMPARE_LT:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_LT>;
    case PHAL_KIR_COMPARE_LE:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_LE>;
    case PHAL_KIR_COMPARE_GT:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_GT>;
    case PHAL_KIR_COMPARE_GE:
      return &ComplexCompareLoop<T, PHAL_KIR_COMPARE_GE>;
    default:
      return nullptr;
  }
}

// The ordering the comparison type selects for each element type: floats
// compare by totalOrder or as IEEE values (any other type), complex values
// lexicographically whatever the type, integers by their bits read as
// signed or unsigned (or in their own signedness for FLOAT and TOTALORDER),
// pred as false < true.
template <typename T>
ScalarOp CompareOp(uint32_t direction, uint32_t ordering) {
  if constexpr (kIsFloat<T>) {
    return ordering == PHAL_KIR_COMPARISON_TOTALORDER
               ? CompareWithKey<T, TotalOrderKey<T>>(direction)
               : CompareWithKey<T, ValueKey<T>>(direction);
  } else if constexpr (kIsComplex<T>) {
    return ComplexCompare<T>(direction);
  } else if constexpr (kIsPred<T>) {
    return CompareWithKey<T, ValueKey<T>>(direction);
  } else {
    if (ordering == PHAL_KIR_COMPARISON_SIGNED) {
      return CompareWithKey<T, SignedKey<T>>(direction);
    }
    if (ordering == PHAL_KIR_COMPARISON_UNSIGNED) {
      return CompareWithKey<T, UnsignedKey<T>>(direction);
    }
    return CompareWithKey<T, ValueKey<T>>(direction);
  }
}

// ---------------------------------------------------------------------------
// Select, clamp and bitcast-convert.

template <std::size_t kSize>
struct ElementBytes {
  uint8_t bytes[kSize];
};

template <std::size_t kSize>
void SelectLoop(const ScalarOpArgs& args) {
  using E = ElementBytes<kSize>;
  const uint8_t* predicate = args.operands[0];
  const auto* on_true = reinterpret_cast<const E*>(args.operands[1]);
  const auto* on_false = reinterpret_cast<const E*>(args.operands[2]);
  auto* out = reinterpret_cast<E*>(args.result);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = predicate[i] != 0 ? on_true[i] : on_false[i];
  }
}

ScalarOp SelectOp(std::size_t element_size) {
  switch (element_size) {
    case 1:
      return &SelectLoop<1>;
    case 2:
      return &SelectLoop<2>;
    case 4:
      return &SelectLoop<4>;
    case 8:
      return &SelectLoop<8>;
    case 16:
      return &SelectLoop<16>;
    default:
      return nullptr;
  }
}

template <typename T>
typename T::Value ClampValue(typename T::Value low, typename T::Value x,
                             typename T::Value high) {
  if constexpr (kIsFloat<T>) {
    return FloatMinimum(FloatMaximum(x, low), high);
  } else {
    const auto raised = x < low ? low : x;
    return high < raised ? high : raised;
  }
}

template <typename T>
void ClampLoop(const ScalarOpArgs& args) {
  const auto* low = Operand<T>(args, 0);
  const auto* x = Operand<T>(args, 1);
  const auto* high = Operand<T>(args, 2);
  auto* out = Result<T>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = T::Store(
        ClampValue<T>(T::Load(low[i]), T::Load(x[i]), T::Load(high[i])));
  }
}

// Reinterprets elements of one width: a byte copy.
void BitcastLoop(const ScalarOpArgs& args) {
  const std::size_t size = ElementTypeByteSize(args.node->type);
  std::memcpy(args.result, args.operands[0],
              static_cast<std::size_t>(args.count) * size);
}

// ---------------------------------------------------------------------------
// Convert.

ScalarOp ConvertOp(ElementType from, ElementType to) {
  return DispatchElementType(from, [&](auto from_traits) {
    return DispatchElementType(to, [&](auto to_traits) -> ScalarOp {
      using From = decltype(from_traits);
      using To = decltype(to_traits);
      return &MapUnary<From, To, ConvertValue<From, To>>;
    });
  });
}

// ---------------------------------------------------------------------------
// Reduce-precision, as XLA does it on the bits of the operand's type:
// round the mantissa to nearest even, then values whose exponent does not
// fit become infinities (overflow) or signed zeros (underflow, so results
// that would be subnormal in the reduced format flush to zero). NaN stays
// NaN, except with no mantissa bits where it becomes +infinity.

template <typename Storage, typename Uint>
Storage ReducePrecisionBits(Storage input, int total_bits, int mantissa_bits,
                            int target_exponent_bits, int target_mantissa_bits,
                            bool is_nan) {
  const int exponent_bits = total_bits - 1 - mantissa_bits;
  Uint bits;
  std::memcpy(&bits, &input, sizeof(bits));
  if (target_mantissa_bits < mantissa_bits) {
    const int dropped = mantissa_bits - target_mantissa_bits;
    const Uint last_kept_bit = Uint{1} << dropped;
    const Uint base_bias = (last_kept_bit >> 1) - 1;
    const Uint bias =
        static_cast<Uint>(((bits & last_kept_bit) >> dropped) + base_bias);
    bits = static_cast<Uint>((bits + bias) & ~(last_kept_bit - 1));
  }
  const Uint sign = bits & (Uint{1} << (total_bits - 1));
  const Uint exponent_mask =
      static_cast<Uint>(((Uint{1} << exponent_bits) - 1) << mantissa_bits);
  if (target_exponent_bits < exponent_bits) {
    const Uint bias = (Uint{1} << (exponent_bits - 1)) - 1;
    const Uint target_bias = (Uint{1} << (target_exponent_bits - 1)) - 1;
    const Uint exponent = bits & exponent_mask;
    if (exponent > ((bias + target_bias) << mantissa_bits)) {
      bits = sign | exponent_mask;
    } else if (exponent <= ((bias - target_bias) << mantissa_bits)) {
      bits = sign;
    }
  }
  if (is_nan) {
    if (target_mantissa_bits > 0) return input;
    bits = exponent_mask;
  }
  Storage output;
  std::memcpy(&output, &bits, sizeof(bits));
  return output;
}

// The attributes as the reference reads them (as int).
int ExponentBits(const phal_kir_node_t& node) {
  return static_cast<int>(node.attributes[0]);
}
int MantissaBits(const phal_kir_node_t& node) {
  return static_cast<int>(node.attributes[1]);
}

template <typename T>
void ReducePrecisionLoop(const ScalarOpArgs& args) {
  using Storage = typename T::Storage;
  using Uint = std::make_unsigned_t<typename T::Bits>;
  constexpr int kTotalBits = static_cast<int>(sizeof(Storage) * 8);
  const int exponent_bits = ExponentBits(*args.node);
  const int mantissa_bits = MantissaBits(*args.node);
  const auto* x = Operand<T>(args, 0);
  auto* out = Result<T>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = ReducePrecisionBits<Storage, Uint>(
        x[i], kTotalBits, T::kMantissaBits, exponent_bits, mantissa_bits,
        std::isnan(T::Load(x[i])));
  }
}

// ---------------------------------------------------------------------------
// Type rules and selection.

// The element type `op` produces from operands of type `operand`.
ElementType ResultTypeOf(uint32_t op, ElementType operand) {
  switch (op) {
    case PHAL_KIR_OP_COMPARE:
    case PHAL_KIR_OP_IS_FINITE:
      return PHAL_ELEMENT_TYPE_PRED;
    case PHAL_KIR_OP_ABS:
    case PHAL_KIR_OP_REAL:
    case PHAL_KIR_OP_IMAG:
      return ComplexComponentType(operand);
    case PHAL_KIR_OP_COMPLEX:
      return operand == PHAL_ELEMENT_TYPE_F64 ? PHAL_ELEMENT_TYPE_C128
                                              : PHAL_ELEMENT_TYPE_C64;
    default:
      return operand;
  }
}

std::string TypeName(ElementType type) { return ElementTypeName(type); }

Status CheckTypes(const phal_kir_node_t& node, uint32_t op,
                  std::span<const ElementType> operand_types) {
  const ElementType result = node.type;
  if (op == PHAL_KIR_OP_CONVERT) return OkStatus();
  if (op == PHAL_KIR_OP_BITCAST_CONVERT) {
    if (ElementTypeByteSize(operand_types[0]) != ElementTypeByteSize(result)) {
      return InvalidArgument("bitcast_convert from " +
                             TypeName(operand_types[0]) + " to " +
                             TypeName(result) + " changes the width");
    }
    return OkStatus();
  }
  const bool is_select = op == PHAL_KIR_OP_SELECT;
  if (is_select && operand_types[0] != PHAL_ELEMENT_TYPE_PRED) {
    return InvalidArgument("the select predicate is " +
                           TypeName(operand_types[0]) + ", not pred");
  }
  const std::size_t first = is_select ? 1 : 0;
  const ElementType typed = operand_types[first];
  for (std::size_t i = first + 1; i < operand_types.size(); ++i) {
    if (operand_types[i] != typed) {
      return InvalidArgument("operands of different element types " +
                             TypeName(typed) + " and " +
                             TypeName(operand_types[i]));
    }
  }
  const ElementType expected = ResultTypeOf(op, typed);
  if (result != expected) {
    return InvalidArgument("the result element type must be " +
                           TypeName(expected) + ", not " + TypeName(result));
  }
  if (op == PHAL_KIR_OP_COMPARE) {
    if (node.attributes[0] < PHAL_KIR_COMPARE_EQ ||
        node.attributes[0] > PHAL_KIR_COMPARE_GE) {
      return InvalidArgument("comparison direction " +
                             std::to_string(node.attributes[0]) +
                             " is none of EQ NE LT LE GT GE");
    }
    if (node.attributes[1] < PHAL_KIR_COMPARISON_FLOAT ||
        node.attributes[1] > PHAL_KIR_COMPARISON_UNSIGNED) {
      return InvalidArgument("comparison type " +
                             std::to_string(node.attributes[1]) +
                             " is none of float totalorder signed unsigned");
    }
  }
  if (op == PHAL_KIR_OP_REDUCE_PRECISION &&
      (ExponentBits(node) < 1 || MantissaBits(node) < 0)) {
    return InvalidArgument(
        "reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0, "
        "got e" +
        std::to_string(node.attributes[0]) + " m" +
        std::to_string(node.attributes[1]));
  }
  return OkStatus();
}

// The loop for `op` on operands whose (value) element type is `type`, or
// nullptr when the op is not defined for it.
ScalarOp TypedOp(const phal_kir_node_t& node, uint32_t op, ElementType type) {
  return DispatchElementType(type, [&](auto traits) -> ScalarOp {
    using T = decltype(traits);
    switch (op) {
      case PHAL_KIR_OP_SELECT:
        return SelectOp(sizeof(typename T::Storage));
      case PHAL_KIR_OP_COMPARE:
        return CompareOp<T>(static_cast<uint32_t>(node.attributes[0]),
                            static_cast<uint32_t>(node.attributes[1]));
      case PHAL_KIR_OP_CLAMP:
        if constexpr (kIsComplex<T>) {
          return nullptr;
        } else {
          return &ClampLoop<T>;
        }
      case PHAL_KIR_OP_REDUCE_PRECISION:
        if constexpr (kIsFloat<T>) {
          return &ReducePrecisionLoop<T>;
        } else {
          return nullptr;
        }
      default:
        break;
    }
    const bool unary = KirOpArity(op) == 1;
    if constexpr (kIsFloat<T>) {
      return unary ? FloatUnaryOp<T>(op) : FloatBinaryOp<T>(op, node.type);
    } else if constexpr (kIsComplex<T>) {
      return unary ? ComplexUnaryOp<T>(op) : ComplexBinaryOp<T>(op);
    } else if constexpr (kIsInteger<T>) {
      return unary ? IntegerUnaryOp<T>(op) : IntegerBinaryOp<T>(op);
    } else {
      return unary ? PredUnaryOp(op) : PredBinaryOp(op);
    }
  });
}

}  // namespace

StatusOr<ScalarOp> SelectScalarOp(const phal_kir_node_t& node,
                                  std::span<const ElementType> operand_types) {
  const uint32_t op = RawEnum(node.op);
  const int arity = KirOpArity(op);
  if (arity < 1 || operand_types.size() != static_cast<std::size_t>(arity)) {
    return InvalidArgument(std::string(KirOpName(op)) + " is not a scalar op");
  }
  PHAL_RETURN_IF_ERROR(CheckTypes(node, op, operand_types));
  if (op == PHAL_KIR_OP_CONVERT) {
    return ConvertOp(operand_types[0], node.type);
  }
  if (op == PHAL_KIR_OP_BITCAST_CONVERT) return &BitcastLoop;
  // The element type the op computes in: select's values, not its predicate.
  const ElementType type = operand_types[op == PHAL_KIR_OP_SELECT ? 1 : 0];
  const ScalarOp scalar_op = TypedOp(node, op, type);
  if (scalar_op == nullptr) {
    return Unimplemented(std::string(KirOpName(op)) +
                         " is not defined for element type " +
                         ElementTypeName(type));
  }
  return scalar_op;
}

}  // namespace phal::kir_interpreter
