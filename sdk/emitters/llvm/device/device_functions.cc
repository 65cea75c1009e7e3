// The GPU device library: every function an emitted kernel may call
// (device_functions.h), in freestanding C++ that clang compiles to LLVM
// bitcode for NVPTX and AMDGPU, and that the host compiler compiles for the
// grid emulator. The transcendental functions are the GLSL math library's
// text (sdk/emitters/source/glsl_math.glsl), so a GPU kernel computes what
// a shader of the GLSL dialect computes; the complex functions use the GLSL
// dialect's formulas (sdk/emitters/source/complex_helpers.cc) over them.
// f32 functions evaluate in f64 and round once, as the host library does.
//
// Compiled with -ffp-contract=off: the library's `precise` is empty here,
// and a fused multiply-add would change its exact products.
#include "sdk/emitters/llvm/device/device_functions.h"

#include "sdk/emitters/llvm/device/glsl_device_shim.h"

namespace phal::device_math {
namespace {

// The library also has functions no entry point calls (atan); they are
// internal and dropped.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "sdk/emitters/source/glsl_math.glsl"
#pragma GCC diagnostic pop

double Logistic(double x) { return 1.0 / (1.0 + phal_m_exp_f64(-x)); }
double Rsqrt(double x) { return 1.0 / phal_m_sqrt_f64(x); }

// Sixteen-bit floats, rounded as sdk/base/float16.cc rounds them (to
// nearest even in one step from f64; NaN keeps its sign and top payload
// bits, quieted), so kernels and the host runtime agree bit for bit.
struct NarrowFormat {
  int exponent_bits;
  int mantissa_bits;
};
constexpr NarrowFormat kHalf{5, 10};
constexpr NarrowFormat kBFloat16{8, 7};

uint16_t RoundToNarrow(double value, NarrowFormat format) {
  const uint64_t bits = doubleBitsToUint64(value);
  const uint16_t sign = uint16_t((bits >> 63) << 15);
  const int biased_exponent = int((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  const int m = format.mantissa_bits;
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const int max_exponent_field = (1 << format.exponent_bits) - 1;
  const uint16_t infinity = uint16_t(max_exponent_field << m);
  if (biased_exponent == 0x7FF) {
    if (mantissa == 0) return sign | infinity;
    return sign | infinity | uint16_t(1 << (m - 1)) |
           uint16_t(mantissa >> (52 - m));
  }
  // f64 subnormals lie far below half the least subnormal of either format.
  if (biased_exponent == 0) return sign;
  const int exponent = biased_exponent - 1023;
  if (exponent + bias >= max_exponent_field) return sign | infinity;
  const uint64_t significand = (uint64_t{1} << 52) | mantissa;
  const int min_normal_exponent = 1 - bias;
  const bool normal = exponent >= min_normal_exponent;
  int shift = 52 - m;
  if (!normal) shift += min_normal_exponent - exponent;
  // From a shift of 54 on, the significand is below half a unit.
  if (shift > 54) return sign;
  uint64_t rounded = significand >> shift;
  const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (rounded & 1) != 0)) {
    ++rounded;
  }
  // The implicit bit of a normal `rounded` adds one to the exponent field,
  // as does a carry out of the mantissa (up to infinity).
  if (normal) rounded += uint64_t(exponent + bias - 1) << m;
  if (rounded >= infinity) return sign | infinity;
  return sign | uint16_t(rounded);
}

float BitsToFloat(uint32_t bits) { return __builtin_bit_cast(float, bits); }

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = uint32_t(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0x1F)
    return BitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  if (exponent != 0) {
    return BitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return BitsToFloat(sign);
  // A subnormal half is a normal float: move its leading one to the
  // implicit position.
  uint32_t float_exponent = 113;
  while ((mantissa & 0x400) == 0) {
    mantissa <<= 1;
    --float_exponent;
  }
  return BitsToFloat(sign | (float_exponent << 23) |
                     ((mantissa & 0x3FF) << 13));
}

float BFloat16ToFloat(uint16_t bits) {
  return BitsToFloat(uint32_t(bits) << 16);
}

// XLA's reduce-precision on the bits of a float with `mantissa_bits` stored
// mantissa bits in `total_bits`, as runtime_functions.cc does it.
template <typename Bits>
Bits ReducePrecisionBits(Bits bits, int total_bits, int mantissa_bits,
                         int target_exponent_bits, int target_mantissa_bits) {
  const int exponent_bits = total_bits - 1 - mantissa_bits;
  const Bits sign_mask = Bits(Bits{1} << (total_bits - 1));
  const Bits exponent_mask =
      Bits(((Bits{1} << exponent_bits) - 1) << mantissa_bits);
  const Bits mantissa_mask = Bits((Bits{1} << mantissa_bits) - 1);
  const bool is_nan =
      (bits & exponent_mask) == exponent_mask && (bits & mantissa_mask) != 0;
  Bits result = bits;
  if (target_mantissa_bits < mantissa_bits) {
    // Round to nearest even at the last kept bit, then clear the rest.
    const int dropped = mantissa_bits - target_mantissa_bits;
    const Bits last_kept_bit = Bits(Bits{1} << dropped);
    const Bits bias = Bits(((result & last_kept_bit) >> dropped) +
                           ((last_kept_bit >> 1) - 1));
    result = Bits((result + bias) & ~Bits(last_kept_bit - 1));
  }
  const Bits sign = bits & sign_mask;
  if (target_exponent_bits < exponent_bits) {
    const Bits bias = Bits((Bits{1} << (exponent_bits - 1)) - 1);
    const Bits target_bias = Bits((Bits{1} << (target_exponent_bits - 1)) - 1);
    const Bits exponent = result & exponent_mask;
    if (exponent > Bits((bias + target_bias) << mantissa_bits)) {
      result = sign | exponent_mask;
    } else if (exponent <= Bits((bias - target_bias) << mantissa_bits)) {
      result = sign;
    }
  }
  // A NaN stays a NaN; with no mantissa bit left it becomes the infinity's
  // pattern with the sign, as the host does.
  if (is_nan)
    return target_mantissa_bits > 0 ? bits : Bits(sign | exponent_mask);
  return result;
}

uint64_t PowerUnsigned(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

// x - n y for the integer n == trunc(x / y), exactly, by long division of
// the significands one bit per exponent step: x and y are integer multiples
// of the least subnormal, so the remainder is representable.
template <typename Float, typename Bits, int kMantissaBits>
Float ExactFmod(Float x, Float y) {
  constexpr int kTotalBits = int(sizeof(Bits)) * 8;
  constexpr Bits kSign = Bits(Bits{1} << (kTotalBits - 1));
  constexpr Bits kImplicit = Bits(Bits{1} << kMantissaBits);
  constexpr Bits kInfinity = Bits((kSign - 1) & ~(kImplicit - 1));
  const Bits bx = __builtin_bit_cast(Bits, x);
  const Bits ax = bx & Bits(kSign - 1);
  const Bits ay = __builtin_bit_cast(Bits, y) & Bits(kSign - 1);
  if (ax >= kInfinity || ay > kInfinity || ay == 0) {
    return __builtin_bit_cast(Float, Bits(kInfinity | (kImplicit >> 1)));
  }
  if (ax < ay) return x;
  const Bits sign = bx & kSign;
  if (ax == ay) return __builtin_bit_cast(Float, sign);
  int ex = int(ax >> kMantissaBits);
  int ey = int(ay >> kMantissaBits);
  Bits mx = ax & Bits(kImplicit - 1);
  Bits my = ay & Bits(kImplicit - 1);
  // Normalized significands in [2^M, 2^(M+1)); a subnormal's exponent
  // field reads as 1 and drops below it while its leading one moves up.
  if (ex == 0) {
    ex = 1;
    while (mx < kImplicit) {
      mx = Bits(mx << 1);
      --ex;
    }
  } else {
    mx |= kImplicit;
  }
  if (ey == 0) {
    ey = 1;
    while (my < kImplicit) {
      my = Bits(my << 1);
      --ey;
    }
  } else {
    my |= kImplicit;
  }
  // mx < 2 my throughout, so the shifted mx fits.
  for (; ex > ey; --ex) {
    if (mx >= my) mx -= my;
    mx = Bits(mx << 1);
  }
  if (mx >= my) mx -= my;
  if (mx == 0) return __builtin_bit_cast(Float, sign);
  while (mx < kImplicit) {
    mx = Bits(mx << 1);
    --ey;
  }
  if (ey >= 1) {
    return __builtin_bit_cast(Float, Bits(sign | (Bits(ey) << kMantissaBits) |
                                          (mx & Bits(kImplicit - 1))));
  }
  return __builtin_bit_cast(Float, Bits(sign | (mx >> (1 - ey))));
}

// Complex functions in f64, each the GLSL dialect's formula
// (complex_helpers.cc) with $T == double, so GPU and Vulkan kernels agree.
struct Complex {
  double x;
  double y;
};

Complex operator+(Complex a, Complex b) { return {a.x + b.x, a.y + b.y}; }
Complex operator-(Complex a) { return {-a.x, -a.y}; }

bool IsFinite(double x) { return !isnan(x) && !isinf(x); }
double CopySign(double magnitude, double sign) {
  return __builtin_copysign(magnitude, sign);
}

Complex Multiply(Complex a, Complex b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

// With C99 Annex G's recovery of infinities, as glibc's cpow multiplies.
Complex MultiplyRecoveringInfinities(Complex u, Complex v) {
  double a = u.x, b = u.y, c = v.x, d = v.y;
  const double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  double x = ac - bd, y = ad + bc;
  if (!isnan(x) || !isnan(y)) return {x, y};
  bool again = false;
  if (isinf(a) || isinf(b)) {
    a = CopySign(isinf(a) ? 1.0 : 0.0, a);
    b = CopySign(isinf(b) ? 1.0 : 0.0, b);
    if (isnan(c)) c = CopySign(0.0, c);
    if (isnan(d)) d = CopySign(0.0, d);
    again = true;
  }
  if (isinf(c) || isinf(d)) {
    c = CopySign(isinf(c) ? 1.0 : 0.0, c);
    d = CopySign(isinf(d) ? 1.0 : 0.0, d);
    if (isnan(a)) a = CopySign(0.0, a);
    if (isnan(b)) b = CopySign(0.0, b);
    again = true;
  }
  if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
    if (isnan(a)) a = CopySign(0.0, a);
    if (isnan(b)) b = CopySign(0.0, b);
    if (isnan(c)) c = CopySign(0.0, c);
    if (isnan(d)) d = CopySign(0.0, d);
    again = true;
  }
  if (again) {
    x = phal_m_inf_f64() * (a * c - b * d);
    y = phal_m_inf_f64() * (a * d + b * c);
  }
  return {x, y};
}

// Smith's algorithm, with C99 Annex G's recovery of infinities.
Complex Divide(Complex a, Complex b) {
  double x, y;
  if (abs(b.x) >= abs(b.y)) {
    const double r = b.y / b.x, d = b.x + b.y * r;
    x = (a.x + a.y * r) / d;
    y = (a.y - a.x * r) / d;
    if (b.y == 0) {
      x = a.x / b.x;
      y = a.y / b.x;
    }
  } else {
    const double r = b.x / b.y, d = b.y + b.x * r;
    x = (a.x * r + a.y) / d;
    y = (a.y * r - a.x) / d;
  }
  if (!isnan(x) || !isnan(y)) return {x, y};
  const double inf = phal_m_inf_f64();
  if (b.x == 0 && b.y == 0 && (!isnan(a.x) || !isnan(a.y))) {
    return {CopySign(inf, b.x) * a.x, CopySign(inf, b.x) * a.y};
  }
  if ((isinf(a.x) || isinf(a.y)) && IsFinite(b.x) && IsFinite(b.y)) {
    const double ax = CopySign(isinf(a.x) ? 1 : 0, a.x);
    const double ay = CopySign(isinf(a.y) ? 1 : 0, a.y);
    return {inf * (ax * b.x + ay * b.y), inf * (ay * b.x - ax * b.y)};
  }
  if ((isinf(b.x) || isinf(b.y)) && IsFinite(a.x) && IsFinite(a.y)) {
    const double bx = CopySign(isinf(b.x) ? 1 : 0, b.x);
    const double by = CopySign(isinf(b.y) ? 1 : 0, b.y);
    return {0 * (a.x * bx + a.y * by), 0 * (a.y * bx - a.x * by)};
  }
  return {x, y};
}

// exp(-inf + i y) is 0 whatever y is (C99 Annex G); near the overflow
// threshold exp(x - 1) e keeps exp(x) from overflowing early.
Complex Exp(Complex a) {
  if (isinf(a.x) && a.x < 0 && !IsFinite(a.y)) return {0, CopySign(0, a.y)};
  if (a.y == 0) return {phal_m_exp_f64(a.x), a.y};
  const double e = a.x > 700 ? phal_m_exp_f64(a.x - 1) * 2.718281828459045
                             : phal_m_exp_f64(a.x);
  return {e * phal_m_cos_f64(a.y), e * phal_m_sin_f64(a.y)};
}

// expm1(x) cos(y) - 2 sin^2(y/2): no cancellation near zero.
Complex Expm1(Complex a) {
  if (a.y == 0) return {phal_m_expm1_f64(a.x), a.y};
  const double s = phal_m_sin_f64(a.y * 0.5);
  return {phal_m_expm1_f64(a.x) * phal_m_cos_f64(a.y) - 2 * s * s,
          phal_m_exp_f64(a.x) * phal_m_sin_f64(a.y)};
}

Complex Log(Complex a) {
  return {phal_m_log_f64(phal_m_hypot_f64(a.x, a.y)),
          phal_m_atan2_f64(a.y, a.x)};
}

// log|1 + z| through log1p of |1 + z|^2 - 1 == 2x + x^2 + y^2, as the
// reference computes it.
Complex Log1p(Complex a) {
  return {phal_m_log1p_f64(a.x * (2 + a.x) + a.y * a.y) / 2,
          phal_m_atan2_f64(a.y, 1 + a.x)};
}

// Inputs near the largest finite value are scaled by 1/4 first, so |z|
// does not overflow.
Complex Sqrt(Complex a) {
  if (a.x == 0 && a.y == 0) return {0, a.y};
  if (isinf(a.y)) return {phal_m_inf_f64(), a.y};
  double scale = 1;
  if (abs(a.x) > 1.1235582092889474e307 || abs(a.y) > 1.1235582092889474e307) {
    a = {a.x * 0.25, a.y * 0.25};
    scale = 2;
  }
  const double m = phal_m_hypot_f64(a.x, a.y);
  if (a.x >= 0) {
    const double t = phal_m_sqrt_f64((m + a.x) * 0.5);
    return {t * scale, a.y / (2 * t) * scale};
  }
  const double t = phal_m_sqrt_f64((m - a.x) * 0.5);
  return {abs(a.y) / (2 * t) * scale, CopySign(t, a.y) * scale};
}

// (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): no cancellation
// in the denominator near y == pi/2.
Complex Tanh(Complex a) {
  if (abs(a.x) > 20) {
    const double e = phal_m_exp_f64(-2 * abs(a.x));
    return {CopySign(1, a.x),
            4 * phal_m_sin_f64(a.y) * phal_m_cos_f64(a.y) * e};
  }
  const double sh = phal_m_sinh_f64(a.x), ch = phal_m_cosh_f64(a.x);
  const double s = phal_m_sin_f64(a.y), c = phal_m_cos_f64(a.y);
  const double d = sh * sh + c * c;
  return {sh * ch / d, s * c / d};
}

Complex Sin(Complex a) {
  return {phal_m_sin_f64(a.x) * phal_m_cosh_f64(a.y),
          phal_m_cos_f64(a.x) * phal_m_sinh_f64(a.y)};
}

Complex Cos(Complex a) {
  return {phal_m_cos_f64(a.x) * phal_m_cosh_f64(a.y),
          -phal_m_sin_f64(a.x) * phal_m_sinh_f64(a.y)};
}

// tan(z) == -i tanh(i z).
Complex Tan(Complex a) {
  const Complex t = Tanh({-a.y, a.x});
  return {t.y, -t.x};
}

Complex Rsqrt(Complex a) { return Divide({1, 0}, Sqrt(a)); }

Complex Logistic(Complex a) {
  const Complex e = Exp(-a);
  return Divide({1, 0}, {1 + e.x, e.y});
}

Complex Power(Complex a, Complex b) {
  return Exp(MultiplyRecoveringInfinities(b, Log(a)));
}

// atan2(y, x) == -i log((x + i y) / sqrt(x^2 + y^2)) for y == a, x == b.
Complex Atan2(Complex a, Complex b) {
  const Complex s = Sqrt(Multiply(b, b) + Multiply(a, a));
  const Complex l = Log(Divide({b.x - a.y, b.y + a.x}, s));
  return {l.y, -l.x};
}

// The principal cube root; the real one on the positive real axis.
Complex Cbrt(Complex a) {
  if (a.y == 0 && a.x > 0) return {phal_m_cbrt_f64(a.x), 0};
  const Complex l = Log(a);
  const double m = phal_m_exp_f64(l.x / 3), t = l.y / 3;
  return {m * phal_m_cos_f64(t), m * phal_m_sin_f64(t)};
}

void Store(Complex value, double* out) {
  out[0] = value.x;
  out[1] = value.y;
}

}  // namespace
}  // namespace phal::device_math

namespace dm = phal::device_math;

extern "C" {

#define PHAL_DEVICE_DEFINE_UNARY(name, f64_function)     \
  float PHAL_DEVICE(phal_math_##name##_f32)(float x) {   \
    return float(f64_function(double(x)));               \
  }                                                      \
  double PHAL_DEVICE(phal_math_##name##_f64)(double x) { \
    return f64_function(x);                              \
  }
PHAL_DEVICE_DEFINE_UNARY(exp, dm::phal_m_exp_f64)
PHAL_DEVICE_DEFINE_UNARY(expm1, dm::phal_m_expm1_f64)
PHAL_DEVICE_DEFINE_UNARY(log, dm::phal_m_log_f64)
PHAL_DEVICE_DEFINE_UNARY(log1p, dm::phal_m_log1p_f64)
PHAL_DEVICE_DEFINE_UNARY(logistic, dm::Logistic)
PHAL_DEVICE_DEFINE_UNARY(tanh, dm::phal_m_tanh_f64)
PHAL_DEVICE_DEFINE_UNARY(sin, dm::phal_m_sin_f64)
PHAL_DEVICE_DEFINE_UNARY(cos, dm::phal_m_cos_f64)
PHAL_DEVICE_DEFINE_UNARY(tan, dm::phal_m_tan_f64)
PHAL_DEVICE_DEFINE_UNARY(erf, dm::phal_m_erf_f64)
PHAL_DEVICE_DEFINE_UNARY(cbrt, dm::phal_m_cbrt_f64)
PHAL_DEVICE_DEFINE_UNARY(rsqrt, dm::Rsqrt)
#undef PHAL_DEVICE_DEFINE_UNARY

float PHAL_DEVICE(phal_math_atan2_f32)(float y, float x) {
  return float(dm::phal_m_atan2_f64(double(y), double(x)));
}
double PHAL_DEVICE(phal_math_atan2_f64)(double y, double x) {
  return dm::phal_m_atan2_f64(y, x);
}
float PHAL_DEVICE(phal_math_pow_f32)(float x, float y) {
  return float(dm::phal_m_pow_f64(double(x), double(y)));
}
double PHAL_DEVICE(phal_math_pow_f64)(double x, double y) {
  return dm::phal_m_pow_f64(x, y);
}

float PHAL_DEVICE(phal_rt_round_f32_to_f16)(float value) {
  return dm::HalfToFloat(dm::RoundToNarrow(double(value), dm::kHalf));
}
float PHAL_DEVICE(phal_rt_round_f64_to_f16)(double value) {
  return dm::HalfToFloat(dm::RoundToNarrow(value, dm::kHalf));
}
float PHAL_DEVICE(phal_rt_round_f32_to_bf16)(float value) {
  return dm::BFloat16ToFloat(dm::RoundToNarrow(double(value), dm::kBFloat16));
}
float PHAL_DEVICE(phal_rt_round_f64_to_bf16)(double value) {
  return dm::BFloat16ToFloat(dm::RoundToNarrow(value, dm::kBFloat16));
}
__UINT16_TYPE__ PHAL_DEVICE(phal_rt_f16_bits)(float value) {
  return dm::RoundToNarrow(double(value), dm::kHalf);
}
float PHAL_DEVICE(phal_rt_f16_from_bits)(__UINT16_TYPE__ bits) {
  return dm::HalfToFloat(bits);
}
__UINT16_TYPE__ PHAL_DEVICE(phal_rt_bf16_bits)(float value) {
  return dm::RoundToNarrow(double(value), dm::kBFloat16);
}

float PHAL_DEVICE(phal_rt_reduce_precision_f16)(float value,
                                                __INT32_TYPE__ exponent_bits,
                                                __INT32_TYPE__ mantissa_bits) {
  return dm::HalfToFloat(dm::ReducePrecisionBits<dm::uint16_t>(
      dm::RoundToNarrow(double(value), dm::kHalf), 16, 10, exponent_bits,
      mantissa_bits));
}
float PHAL_DEVICE(phal_rt_reduce_precision_bf16)(float value,
                                                 __INT32_TYPE__ exponent_bits,
                                                 __INT32_TYPE__ mantissa_bits) {
  return dm::BFloat16ToFloat(dm::ReducePrecisionBits<dm::uint16_t>(
      dm::RoundToNarrow(double(value), dm::kBFloat16), 16, 7, exponent_bits,
      mantissa_bits));
}
float PHAL_DEVICE(phal_rt_reduce_precision_f32)(float value,
                                                __INT32_TYPE__ exponent_bits,
                                                __INT32_TYPE__ mantissa_bits) {
  return __builtin_bit_cast(float, dm::ReducePrecisionBits<dm::uint32_t>(
                                       __builtin_bit_cast(dm::uint32_t, value),
                                       32, 23, exponent_bits, mantissa_bits));
}
double PHAL_DEVICE(phal_rt_reduce_precision_f64)(double value,
                                                 __INT32_TYPE__ exponent_bits,
                                                 __INT32_TYPE__ mantissa_bits) {
  return __builtin_bit_cast(double, dm::ReducePrecisionBits<dm::uint64_t>(
                                        __builtin_bit_cast(dm::uint64_t, value),
                                        64, 52, exponent_bits, mantissa_bits));
}

// Wraparound; a negative exponent gives 0 unless the base is 1 or -1.
__UINT64_TYPE__ PHAL_DEVICE(phal_rt_power_u64)(__UINT64_TYPE__ base,
                                               __UINT64_TYPE__ exponent) {
  return dm::PowerUnsigned(base, exponent);
}
__INT64_TYPE__ PHAL_DEVICE(phal_rt_power_s64)(__INT64_TYPE__ base,
                                              __INT64_TYPE__ exponent) {
  dm::uint64_t magnitude = dm::uint64_t(exponent);
  if (exponent < 0) {
    if (base != 1 && base != -1) return 0;
    magnitude = dm::uint64_t{0} - magnitude;
  }
  return dm::int64_t(dm::PowerUnsigned(dm::uint64_t(base), magnitude));
}

#define PHAL_DEVICE_DEFINE_COMPLEX_UNARY(name, function)             \
  void PHAL_DEVICE(phal_rt_complex_##name)(double real, double imag, \
                                           double* out) {            \
    dm::Store(function({real, imag}), out);                          \
  }
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(exp, dm::Exp)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(expm1, dm::Expm1)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(log, dm::Log)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(log1p, dm::Log1p)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(logistic, dm::Logistic)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(sqrt, dm::Sqrt)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(rsqrt, dm::Rsqrt)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(tanh, dm::Tanh)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(sin, dm::Sin)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(cos, dm::Cos)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(tan, dm::Tan)
PHAL_DEVICE_DEFINE_COMPLEX_UNARY(cbrt, dm::Cbrt)
#undef PHAL_DEVICE_DEFINE_COMPLEX_UNARY

void PHAL_DEVICE(phal_rt_complex_divide)(double a_real, double a_imag,
                                         double b_real, double b_imag,
                                         double* out) {
  dm::Store(dm::Divide({a_real, a_imag}, {b_real, b_imag}), out);
}
void PHAL_DEVICE(phal_rt_complex_power)(double a_real, double a_imag,
                                        double b_real, double b_imag,
                                        double* out) {
  dm::Store(dm::Power({a_real, a_imag}, {b_real, b_imag}), out);
}
void PHAL_DEVICE(phal_rt_complex_atan2)(double a_real, double a_imag,
                                        double b_real, double b_imag,
                                        double* out) {
  dm::Store(dm::Atan2({a_real, a_imag}, {b_real, b_imag}), out);
}

float PHAL_DEVICE(phal_rt_fmod_f32)(float x, float y) {
  return dm::ExactFmod<float, dm::uint32_t, 23>(x, y);
}
double PHAL_DEVICE(phal_rt_fmod_f64)(double x, double y) {
  return dm::ExactFmod<double, dm::uint64_t, 52>(x, y);
}

double PHAL_DEVICE(phal_rt_hypot)(double x, double y) {
  return dm::phal_m_hypot_f64(x, y);
}

}  // extern "C"
