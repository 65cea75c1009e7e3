#include "core/reference/elementwise.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/hlo/comparison.h"
#include "core/reference/element_types.h"

namespace phal::reference {
namespace {

using Complex = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------
// Loops. Each reads operands through their traits, applies `fn` to the
// computed values and stores through the result's traits. A null stride
// operand (`broadcast` true) is a scalar read for every element.

template <typename In, typename Out, typename Fn>
Status MapUnary(const Literal& operand, Literal* result, Fn fn) {
  const auto* in = operand.data_as<typename In::Storage>();
  auto* out = result->data_as<typename Out::Storage>();
  const int64_t count = result->ElementCount();
  for (int64_t i = 0; i < count; ++i) {
    out[i] = Out::Store(fn(In::Load(in[i])));
  }
  return OkStatus();
}

template <typename In, typename Out, typename Fn>
Status MapBinary(const Literal& lhs, const Literal& rhs, Literal* result,
                 Fn fn) {
  const auto* a = lhs.data_as<typename In::Storage>();
  const auto* b = rhs.data_as<typename In::Storage>();
  auto* out = result->data_as<typename Out::Storage>();
  const int64_t count = result->ElementCount();
  for (int64_t i = 0; i < count; ++i) {
    out[i] = Out::Store(fn(In::Load(a[i]), In::Load(b[i])));
  }
  return OkStatus();
}

// ---------------------------------------------------------------------------
// Real floating-point semantics (values in double).

// IEEE 754-2019 maximum/minimum: NaN propagates and -0 < +0.
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

double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

template <typename T>
Status FloatUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return map([](double x) { return std::fabs(x); });
    case HloOpcode::kCbrt:
      return map([](double x) { return std::cbrt(x); });
    case HloOpcode::kCeil:
      return map([](double x) { return std::ceil(x); });
    case HloOpcode::kCos:
      return map([](double x) { return std::cos(x); });
    case HloOpcode::kErf:
      return map([](double x) { return std::erf(x); });
    case HloOpcode::kExp:
      return map([](double x) { return std::exp(x); });
    case HloOpcode::kExpm1:
      return map([](double x) { return std::expm1(x); });
    case HloOpcode::kFloor:
      return map([](double x) { return std::floor(x); });
    case HloOpcode::kImag:
      return map([](double) { return 0.0; });
    case HloOpcode::kIsFinite:
      return MapUnary<T, PredTraits>(in, out,
                                     [](double x) { return std::isfinite(x); });
    case HloOpcode::kLog:
      return map([](double x) { return std::log(x); });
    case HloOpcode::kLog1p:
      return map([](double x) { return std::log1p(x); });
    case HloOpcode::kLogistic:
      return map(Logistic);
    case HloOpcode::kNegate:
      return map([](double x) { return -x; });
    case HloOpcode::kReal:
      return map([](double x) { return x; });
    case HloOpcode::kRoundNearestAfz:
      return map([](double x) { return std::round(x); });
    case HloOpcode::kRoundNearestEven:
      return map([](double x) { return std::nearbyint(x); });
    case HloOpcode::kRsqrt:
      return map([](double x) { return 1.0 / std::sqrt(x); });
    case HloOpcode::kSign:
      return map(FloatSign);
    case HloOpcode::kSin:
      return map([](double x) { return std::sin(x); });
    case HloOpcode::kSqrt:
      return map([](double x) { return std::sqrt(x); });
    case HloOpcode::kTan:
      return map([](double x) { return std::tan(x); });
    case HloOpcode::kTanh:
      return map([](double x) { return std::tanh(x); });
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

template <typename T>
Status FloatBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                   Literal* out) {
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map([](double x, double y) { return x + y; });
    case HloOpcode::kSubtract:
      return map([](double x, double y) { return x - y; });
    case HloOpcode::kMultiply:
      return map([](double x, double y) { return x * y; });
    case HloOpcode::kDivide:
      return map([](double x, double y) { return x / y; });
    case HloOpcode::kRemainder:
      return map([](double x, double y) { return std::fmod(x, y); });
    case HloOpcode::kMaximum:
      return map(FloatMaximum);
    case HloOpcode::kMinimum:
      return map(FloatMinimum);
    case HloOpcode::kPower:
      return map([](double x, double y) { return std::pow(x, y); });
    case HloOpcode::kAtan2:
      return map([](double y, double x) { return std::atan2(y, x); });
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
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

template <typename T>
Status ComplexUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  using Part = typename T::Part;
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return MapUnary<T, Part>(in, out, [](Complex z) { return std::abs(z); });
    case HloOpcode::kReal:
      return MapUnary<T, Part>(in, out, [](Complex z) { return z.real(); });
    case HloOpcode::kImag:
      return MapUnary<T, Part>(in, out, [](Complex z) { return z.imag(); });
    case HloOpcode::kNegate:
      return map([](Complex z) { return -z; });
    case HloOpcode::kExp:
      return map([](Complex z) { return std::exp(z); });
    case HloOpcode::kExpm1:
      return map(ComplexExpm1);
    case HloOpcode::kLog:
      return map([](Complex z) { return std::log(z); });
    case HloOpcode::kLog1p:
      return map(ComplexLog1p);
    case HloOpcode::kLogistic:
      return map([](Complex z) { return 1.0 / (1.0 + std::exp(-z)); });
    case HloOpcode::kSqrt:
      return map([](Complex z) { return std::sqrt(z); });
    case HloOpcode::kRsqrt:
      return map([](Complex z) { return 1.0 / std::sqrt(z); });
    case HloOpcode::kCbrt:
      return map([](Complex z) { return std::pow(z, 1.0 / 3); });
    case HloOpcode::kSin:
      return map([](Complex z) { return std::sin(z); });
    case HloOpcode::kCos:
      return map([](Complex z) { return std::cos(z); });
    case HloOpcode::kTan:
      return map([](Complex z) { return std::tan(z); });
    case HloOpcode::kTanh:
      return map([](Complex z) { return std::tanh(z); });
    case HloOpcode::kSign:
      return map(ComplexSign);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

template <typename T>
Status ComplexBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                     Literal* out) {
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map([](Complex x, Complex y) { return x + y; });
    case HloOpcode::kSubtract:
      return map([](Complex x, Complex y) { return x - y; });
    case HloOpcode::kMultiply:
      return map([](Complex x, Complex y) { return x * y; });
    case HloOpcode::kDivide:
      return map([](Complex x, Complex y) { return x / y; });
    case HloOpcode::kPower:
      return map([](Complex x, Complex y) { return std::pow(x, y); });
    case HloOpcode::kAtan2:
      return map(ComplexAtan2);
    case HloOpcode::kMaximum:
      return map(
          [](Complex x, Complex y) { return LexicographicLess(x, y) ? y : x; });
    case HloOpcode::kMinimum:
      return map(
          [](Complex x, Complex y) { return LexicographicLess(y, x) ? y : x; });
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
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
      // |y| in unsigned arithmetic: negating the most negative value of
      // I (or of int64_t) overflows a signed type.
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

template <typename T>
Status IntegerUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  using I = typename T::Value;
  using U = std::make_unsigned_t<I>;
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return map(IntegerAbs<I>);
    case HloOpcode::kNegate:
      return map([](I x) { return Wrap<I>(0 - Widen(x)); });
    case HloOpcode::kNot:
      return map([](I x) { return static_cast<I>(~x); });
    case HloOpcode::kPopulationCount:
      return map([](I x) { return static_cast<I>(std::popcount(U(x))); });
    case HloOpcode::kClz:
      return map([](I x) { return static_cast<I>(std::countl_zero(U(x))); });
    case HloOpcode::kSign:
      return map(IntegerSign<I>);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

template <typename T>
Status IntegerBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                     Literal* out) {
  using I = typename T::Value;
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map([](I x, I y) { return Wrap<I>(Widen(x) + Widen(y)); });
    case HloOpcode::kSubtract:
      return map([](I x, I y) { return Wrap<I>(Widen(x) - Widen(y)); });
    case HloOpcode::kMultiply:
      return map([](I x, I y) { return Wrap<I>(Widen(x) * Widen(y)); });
    case HloOpcode::kDivide:
      return map(IntegerDivide<I>);
    case HloOpcode::kRemainder:
      return map(IntegerRemainder<I>);
    case HloOpcode::kMaximum:
      return map([](I x, I y) { return x > y ? x : y; });
    case HloOpcode::kMinimum:
      return map([](I x, I y) { return x < y ? x : y; });
    case HloOpcode::kPower:
      return map(IntegerPower<I>);
    case HloOpcode::kAnd:
      return map([](I x, I y) { return static_cast<I>(x & y); });
    case HloOpcode::kOr:
      return map([](I x, I y) { return static_cast<I>(x | y); });
    case HloOpcode::kXor:
      return map([](I x, I y) { return static_cast<I>(x ^ y); });
    case HloOpcode::kShiftLeft:
      return map(ShiftLeft<I>);
    case HloOpcode::kShiftRightLogical:
      return map(ShiftRightLogical<I>);
    case HloOpcode::kShiftRightArithmetic:
      return map(ShiftRightArithmetic<I>);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

// pred is the one-bit unsigned integer: max is or, min is and.
Status PredUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  if (opcode != HloOpcode::kNot) {
    return UnsupportedElementType(HloOpcodeName(opcode),
                                  PHAL_ELEMENT_TYPE_PRED);
  }
  return MapUnary<PredTraits, PredTraits>(in, out, [](bool x) { return !x; });
}

Status PredBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                  Literal* out) {
  auto map = [&](auto fn) {
    return MapBinary<PredTraits, PredTraits>(a, b, out, fn);
  };
  switch (opcode) {
    case HloOpcode::kAnd:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
      return map([](bool x, bool y) { return x && y; });
    case HloOpcode::kOr:
    case HloOpcode::kMaximum:
    case HloOpcode::kAdd:
      return map([](bool x, bool y) { return x || y; });
    case HloOpcode::kXor:
    case HloOpcode::kSubtract:
      return map([](bool x, bool y) { return x != y; });
    default:
      return UnsupportedElementType(HloOpcodeName(opcode),
                                    PHAL_ELEMENT_TYPE_PRED);
  }
}

Status EvaluateUnary(const HloInstruction& instruction, const Literal& in,
                     Literal* out) {
  const HloOpcode opcode = instruction.opcode();
  return DispatchElementType(in.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsFloat<T>) return FloatUnary<T>(opcode, in, out);
    if constexpr (kIsComplex<T>) return ComplexUnary<T>(opcode, in, out);
    if constexpr (kIsInteger<T>) return IntegerUnary<T>(opcode, in, out);
    if constexpr (kIsPred<T>) return PredUnary(opcode, in, out);
  });
}

// ---------------------------------------------------------------------------
// Compare.

bool Holds(ComparisonDirection direction, int order) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return order == 0;
    case ComparisonDirection::kNe:
      return order != 0;
    case ComparisonDirection::kLt:
      return order < 0;
    case ComparisonDirection::kLe:
      return order <= 0;
    case ComparisonDirection::kGt:
      return order > 0;
    case ComparisonDirection::kGe:
      return order >= 0;
  }
  return false;
}

template <typename V>
int ThreeWay(V a, V b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// IEEE comparison: every relation with a NaN is false except NE.
bool FloatHolds(ComparisonDirection direction, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return direction == ComparisonDirection::kNe;
  }
  return Holds(direction, ThreeWay(a, b));
}

// The totalOrder key: the bits as a signed integer, with the magnitude bits
// of negative values flipped so that -NaN < -inf < ... < -0 < +0 < ... < NaN.
template <typename Bits, typename Storage>
Bits TotalOrderKey(Storage value) {
  Bits bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits < 0 ? static_cast<Bits>(bits ^ std::numeric_limits<Bits>::max())
                  : bits;
}

template <typename T>
Status CompareTyped(ComparisonDirection direction, ComparisonType type,
                    const Literal& a, const Literal& b, Literal* out) {
  auto map = [&](auto fn) { return MapBinary<T, PredTraits>(a, b, out, fn); };
  using V = typename T::Value;
  if constexpr (kIsFloat<T>) {
    if (type == ComparisonType::kTotalOrder) {
      using Bits = typename T::Bits;
      const auto* x = a.data_as<typename T::Storage>();
      const auto* y = b.data_as<typename T::Storage>();
      auto* result = out->data_as<uint8_t>();
      for (int64_t i = 0; i < out->ElementCount(); ++i) {
        result[i] = Holds(direction, ThreeWay(TotalOrderKey<Bits>(x[i]),
                                              TotalOrderKey<Bits>(y[i])));
      }
      return OkStatus();
    }
    return map([direction](double x, double y) {
      return FloatHolds(direction, x, y);
    });
  } else if constexpr (kIsComplex<T>) {
    // Lexicographic on (real, imaginary); NaN parts compare as unordered.
    return map([direction](Complex x, Complex y) {
      if (x.real() != y.real() || std::isnan(x.real()) ||
          std::isnan(y.real())) {
        return FloatHolds(direction, x.real(), y.real());
      }
      return FloatHolds(direction, x.imag(), y.imag());
    });
  } else {
    if (type == ComparisonType::kSigned || type == ComparisonType::kUnsigned) {
      using Signed =
          std::make_signed_t<std::conditional_t<kIsPred<T>, uint8_t, V>>;
      using Unsigned = std::make_unsigned_t<Signed>;
      const bool is_signed = type == ComparisonType::kSigned && !kIsPred<T>;
      return map([direction, is_signed](V x, V y) {
        return is_signed ? Holds(direction, ThreeWay(static_cast<Signed>(x),
                                                     static_cast<Signed>(y)))
                         : Holds(direction, ThreeWay(static_cast<Unsigned>(x),
                                                     static_cast<Unsigned>(y)));
      });
    }
    return map(
        [direction](V x, V y) { return Holds(direction, ThreeWay(x, y)); });
  }
}

Status EvaluateCompare(const HloInstruction& instruction, const Literal& a,
                       const Literal& b, Literal* out) {
  return DispatchElementType(a.element_type(), [&](auto traits) {
    return CompareTyped<decltype(traits)>(instruction.comparison_direction(),
                                          instruction.EffectiveComparisonType(),
                                          a, b, out);
  });
}

Status EvaluateBinary(const HloInstruction& instruction, const Literal& a,
                      const Literal& b, Literal* out) {
  const HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::kCompare) {
    return EvaluateCompare(instruction, a, b, out);
  }
  return DispatchElementType(a.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsFloat<T>) {
      if (opcode == HloOpcode::kComplex) {
        return out->element_type() == PHAL_ELEMENT_TYPE_C64
                   ? MapBinary<T, C64Traits>(
                         a, b, out,
                         [](double re, double im) { return Complex(re, im); })
                   : MapBinary<T, C128Traits>(
                         a, b, out,
                         [](double re, double im) { return Complex(re, im); });
      }
      return FloatBinary<T>(opcode, a, b, out);
    }
    if constexpr (kIsComplex<T>) return ComplexBinary<T>(opcode, a, b, out);
    if constexpr (kIsInteger<T>) return IntegerBinary<T>(opcode, a, b, out);
    if constexpr (kIsPred<T>) return PredBinary(opcode, a, b, out);
  });
}

// ---------------------------------------------------------------------------
// Select and clamp, whose predicate or bounds may be scalars.

Status EvaluateSelect(const Literal& predicate, const Literal& on_true,
                      const Literal& on_false, Literal* out) {
  const std::size_t size = ElementTypeByteSize(out->element_type());
  const int64_t count = out->ElementCount();
  const bool scalar_predicate = predicate.shape().rank() == 0;
  const uint8_t* choice = predicate.data();
  for (int64_t i = 0; i < count; ++i) {
    const bool take_true = choice[scalar_predicate ? 0 : i] != 0;
    const uint8_t* source = (take_true ? on_true : on_false).data();
    std::memcpy(out->data() + i * static_cast<int64_t>(size),
                source + i * static_cast<int64_t>(size), size);
  }
  return OkStatus();
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

Status EvaluateClamp(const Literal& low, const Literal& operand,
                     const Literal& high, Literal* out) {
  return DispatchElementType(out->element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsComplex<T>) {
      return UnsupportedElementType("clamp", T::kElementType);
    } else {
      const auto* lo = low.data_as<typename T::Storage>();
      const auto* x = operand.data_as<typename T::Storage>();
      const auto* hi = high.data_as<typename T::Storage>();
      const int64_t lo_step = low.shape().rank() == 0 ? 0 : 1;
      const int64_t hi_step = high.shape().rank() == 0 ? 0 : 1;
      auto* result = out->data_as<typename T::Storage>();
      for (int64_t i = 0; i < out->ElementCount(); ++i) {
        result[i] = T::Store(ClampValue<T>(
            T::Load(lo[i * lo_step]), T::Load(x[i]), T::Load(hi[i * hi_step])));
      }
      return OkStatus();
    }
  });
}

// ---------------------------------------------------------------------------
// Convert.

// An integer as a double rounded to odd at 53 bits: converting that double
// to a narrower float rounds exactly as converting the integer directly
// would (round-to-odd at p + 2 or more bits cannot cause double rounding).
template <typename I>
double IntegerToDoubleRoundedToOdd(I value) {
  const bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value)
                                : static_cast<uint64_t>(value);
  const int excess = 64 - std::countl_zero(magnitude) - 53;
  if (excess <= 0) {
    const double exact = static_cast<double>(magnitude);
    return negative ? -exact : exact;
  }
  const bool sticky = (magnitude & ((uint64_t{1} << excess) - 1)) != 0;
  magnitude = (magnitude >> excess) | (sticky ? 1 : 0);
  const double rounded = std::ldexp(static_cast<double>(magnitude), excess);
  return negative ? -rounded : rounded;
}

// The value of integer `x` in To's computation type, rounded once to To.
template <typename To, typename I>
double IntegerToFloat(I x) {
  if constexpr (std::is_same_v<To, Float64Traits> ||
                std::is_same_v<To, C128Traits>) {
    return static_cast<double>(x);
  } else if constexpr (std::is_same_v<To, Float32Traits> ||
                       std::is_same_v<To, C64Traits>) {
    return static_cast<float>(x);
  } else {
    return IntegerToDoubleRoundedToOdd(x);
  }
}

// Float to integer as XLA converts: truncation toward zero, saturating at
// the type's bounds, NaN to 0.
template <typename I>
I FloatToInteger(double x) {
  if (std::isnan(x)) return 0;
  constexpr I kMin = std::numeric_limits<I>::min();
  constexpr I kMax = std::numeric_limits<I>::max();
  // Both bounds are powers of two (or zero) as doubles, hence exact.
  if (x <= static_cast<double>(kMin)) return kMin;
  if (x >= static_cast<double>(kMax)) return kMax;
  return static_cast<I>(x);
}

template <typename From, typename To>
typename To::Value ConvertValue(typename From::Value x) {
  using V = typename To::Value;
  if constexpr (kIsPred<To>) {
    if constexpr (kIsComplex<From>) {
      return x != Complex(0, 0);
    } else {
      return x != 0;
    }
  } else if constexpr (kIsPred<From>) {
    return static_cast<V>(x ? 1 : 0);
  } else if constexpr (kIsComplex<From>) {
    if constexpr (kIsComplex<To>) {
      return x;
    } else {
      return ConvertValue<typename From::Part, To>(x.real());
    }
  } else if constexpr (kIsFloat<From>) {
    if constexpr (kIsInteger<To>) {
      return FloatToInteger<V>(x);
    } else {
      return V(x);
    }
  } else if constexpr (kIsInteger<To>) {
    return static_cast<V>(x);
  } else {
    return V(IntegerToFloat<To>(x));
  }
}

Status EvaluateConvert(const Literal& in, Literal* out) {
  return DispatchElementType(in.element_type(), [&](auto from) {
    return DispatchElementType(out->element_type(), [&](auto to) {
      using From = decltype(from);
      using To = decltype(to);
      return MapUnary<From, To>(in, out, ConvertValue<From, To>);
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

Status EvaluateReducePrecision(const HloInstruction& instruction,
                               const Literal& in, Literal* out) {
  const int exponent_bits = static_cast<int>(instruction.exponent_bits());
  const int mantissa_bits = static_cast<int>(instruction.mantissa_bits());
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return InvalidArgument(
        "reduce-precision needs exponent_bits >= 1 and "
        "mantissa_bits >= 0");
  }
  return DispatchElementType(in.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (!kIsFloat<T>) {
      return UnsupportedElementType("reduce-precision", T::kElementType);
    } else {
      using Storage = typename T::Storage;
      using Uint = std::make_unsigned_t<typename T::Bits>;
      constexpr int kTotalBits = static_cast<int>(sizeof(Storage) * 8);
      const Storage* x = in.data_as<Storage>();
      Storage* result = out->data_as<Storage>();
      for (int64_t i = 0; i < out->ElementCount(); ++i) {
        result[i] = ReducePrecisionBits<Storage, Uint>(
            x[i], kTotalBits, T::kMantissaBits, exponent_bits, mantissa_bits,
            std::isnan(T::Load(x[i])));
      }
      return OkStatus();
    }
  });
}

// Bitcast-convert reinterprets the row-major bytes: with equal widths
// element by element, otherwise the narrower side has one more (minor)
// dimension holding the pieces of a wider element in memory order. pred
// counts as one byte, as the verifier's shape rules have it. Copy is the
// same byte copy between equal types.
Status EvaluateBitcastConvert(const Literal& in, Literal* out) {
  if (in.byte_size() != out->byte_size()) {
    return InvalidArgument("bitcast-convert from " + in.shape().ToString() +
                           " to " + out->shape().ToString() +
                           " changes the size in bytes");
  }
  if (in.byte_size() > 0) std::memcpy(out->data(), in.data(), in.byte_size());
  return OkStatus();
}

// The element type `opcode` produces from operands of type `operand`.
ElementType ResultTypeOf(HloOpcode opcode, ElementType operand) {
  switch (opcode) {
    case HloOpcode::kCompare:
    case HloOpcode::kIsFinite:
      return PHAL_ELEMENT_TYPE_PRED;
    case HloOpcode::kAbs:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
      return ComplexComponentType(operand);
    case HloOpcode::kComplex:
      return operand == PHAL_ELEMENT_TYPE_F64 ? PHAL_ELEMENT_TYPE_C128
                                              : PHAL_ELEMENT_TYPE_C64;
    default:
      return operand;
  }
}

// Checks what the typed loops rely on: operands of the result's element
// count (or scalars where they broadcast) and the element types the op
// relates. Malformed instructions get an error instead of a wild read.
Status CheckOperands(const HloInstruction& instruction,
                     std::span<const Literal* const> operands,
                     const Literal& result) {
  const HloOpcode opcode = instruction.opcode();
  const bool converts =
      opcode == HloOpcode::kConvert || opcode == HloOpcode::kBitcastConvert;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Literal& operand = *operands[i];
    const bool may_broadcast = (opcode == HloOpcode::kSelect && i == 0) ||
                               (opcode == HloOpcode::kClamp && i != 1);
    if (operand.IsTuple() ||
        (!converts && operand.ElementCount() != result.ElementCount() &&
         !(may_broadcast && operand.shape().rank() == 0))) {
      return InvalidArgument(
          "operand " + std::to_string(i) + " " + operand.shape().ToString() +
          " does not fit the result " + result.shape().ToString());
    }
  }
  if (converts) return OkStatus();
  const bool is_select = opcode == HloOpcode::kSelect;
  const Literal& typed = *operands[is_select ? 1 : 0];
  for (std::size_t i = is_select ? 1 : 0; i < operands.size(); ++i) {
    if (operands[i]->element_type() != typed.element_type()) {
      return InvalidArgument("operands of different element types " +
                             operands[i]->shape().ToString() + " and " +
                             typed.shape().ToString());
    }
  }
  if (is_select && operands[0]->element_type() != PHAL_ELEMENT_TYPE_PRED) {
    return InvalidArgument("the select predicate must be pred");
  }
  const ElementType expected = ResultTypeOf(opcode, typed.element_type());
  if (result.element_type() != expected) {
    return InvalidArgument(std::string("the result element type must be ") +
                           ElementTypeName(expected) + ", not " +
                           ElementTypeName(result.element_type()));
  }
  return OkStatus();
}

}  // namespace

Status EvaluateElementwise(const HloInstruction& instruction,
                           std::span<const Literal* const> operands,
                           Literal* result) {
  const HloOpcode opcode = instruction.opcode();
  const std::size_t expected =
      IsElementwiseUnary(opcode)                                      ? 1
      : IsElementwiseBinary(opcode)                                   ? 2
      : (opcode == HloOpcode::kSelect || opcode == HloOpcode::kClamp) ? 3
                                                                      : 1;
  if (operands.size() != expected) {
    return InvalidArgument(instruction.name() + ": " +
                           std::string(HloOpcodeName(opcode)) + " takes " +
                           std::to_string(expected) + " operands, got " +
                           std::to_string(operands.size()));
  }
  PHAL_RETURN_IF_ERROR(CheckOperands(instruction, operands, *result));
  if (opcode == HloOpcode::kCopy) {
    return EvaluateBitcastConvert(*operands[0], result);
  }
  if (IsElementwiseUnary(opcode)) {
    return EvaluateUnary(instruction, *operands[0], result);
  }
  if (IsElementwiseBinary(opcode)) {
    return EvaluateBinary(instruction, *operands[0], *operands[1], result);
  }
  switch (opcode) {
    case HloOpcode::kSelect:
      return EvaluateSelect(*operands[0], *operands[1], *operands[2], result);
    case HloOpcode::kClamp:
      return EvaluateClamp(*operands[0], *operands[1], *operands[2], result);
    case HloOpcode::kConvert:
      return EvaluateConvert(*operands[0], result);
    case HloOpcode::kBitcastConvert:
      return EvaluateBitcastConvert(*operands[0], result);
    case HloOpcode::kReducePrecision:
      return EvaluateReducePrecision(instruction, *operands[0], result);
    default:
      return InvalidArgument(instruction.name() + ": " +
                             std::string(HloOpcodeName(opcode)) +
                             " is not an elementwise op");
  }
}

}  // namespace phal::reference
