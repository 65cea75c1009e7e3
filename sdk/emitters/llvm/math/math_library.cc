#include "sdk/emitters/llvm/math/math_library.h"

#include <cmath>

namespace {

double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }

}  // namespace

// f32: one f64 evaluation, one rounding.
#define PHAL_MATH_DEFINE_UNARY(name, f64_function)                   \
  float phal_math_##name##_f32(float x) {                            \
    return static_cast<float>(f64_function(static_cast<double>(x))); \
  }                                                                  \
  double phal_math_##name##_f64(double x) { return f64_function(x); }

PHAL_MATH_DEFINE_UNARY(exp, std::exp)
PHAL_MATH_DEFINE_UNARY(expm1, std::expm1)
PHAL_MATH_DEFINE_UNARY(log, std::log)
PHAL_MATH_DEFINE_UNARY(log1p, std::log1p)
PHAL_MATH_DEFINE_UNARY(logistic, Logistic)
PHAL_MATH_DEFINE_UNARY(tanh, std::tanh)
PHAL_MATH_DEFINE_UNARY(sin, std::sin)
PHAL_MATH_DEFINE_UNARY(cos, std::cos)
PHAL_MATH_DEFINE_UNARY(tan, std::tan)
PHAL_MATH_DEFINE_UNARY(erf, std::erf)
PHAL_MATH_DEFINE_UNARY(cbrt, std::cbrt)
PHAL_MATH_DEFINE_UNARY(rsqrt, Rsqrt)

#undef PHAL_MATH_DEFINE_UNARY

float phal_math_atan2_f32(float y, float x) {
  return static_cast<float>(
      std::atan2(static_cast<double>(y), static_cast<double>(x)));
}
double phal_math_atan2_f64(double y, double x) { return std::atan2(y, x); }

float phal_math_pow_f32(float x, float y) {
  return static_cast<float>(
      std::pow(static_cast<double>(x), static_cast<double>(y)));
}
double phal_math_pow_f64(double x, double y) { return std::pow(x, y); }
