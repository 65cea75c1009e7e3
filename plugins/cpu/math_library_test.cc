// Measures the math library's error in ulp against std:: in a wider type
// (f32 against f64, f64 against long double) over random inputs and edge
// values, and pins the bounds written in math/math_library.h.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/emitters/llvm/math/math_library.h"

namespace {

// |result - exact| in units of the last place of `exact` rounded to T.
template <typename T, typename Wide>
double UlpError(T result, Wide exact) {
  if (std::isnan(exact)) return std::isnan(result) ? 0 : INFINITY;
  if (std::isinf(exact)) {
    return result == static_cast<T>(exact) ? 0 : INFINITY;
  }
  const T rounded = static_cast<T>(exact);
  if (std::isinf(rounded)) {
    return result == rounded ? 0 : INFINITY;  // overflow must round the same
  }
  const T next =
      std::nextafter(std::fabs(rounded), std::numeric_limits<T>::infinity());
  const Wide ulp =
      static_cast<Wide>(next) - std::fabs(static_cast<Wide>(rounded));
  return static_cast<double>(std::fabs(static_cast<Wide>(result) - exact) /
                             ulp);
}

struct UnaryCase {
  const char* name;
  float (*f32)(float);
  double (*f64)(double);
  long double (*exact)(long double);
  double lowest, highest;  // random inputs come from [lowest, highest]
  double bound_f32, bound_f64;
};

long double Logistic(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double Rsqrt(long double x) { return 1.0L / std::sqrt(x); }
long double Exp(long double x) { return std::exp(x); }
long double Expm1(long double x) { return std::expm1(x); }
long double Log(long double x) { return std::log(x); }
long double Log1p(long double x) { return std::log1p(x); }
long double Tanh(long double x) { return std::tanh(x); }
long double Sin(long double x) { return std::sin(x); }
long double Cos(long double x) { return std::cos(x); }
long double Tan(long double x) { return std::tan(x); }
long double Cbrt(long double x) { return std::cbrt(x); }
long double Erf(long double x) { return std::erf(x); }

template <typename T>
std::vector<T> EdgeValues() {
  using L = std::numeric_limits<T>;
  return {T(0),
          -T(0),
          T(1),
          T(-1),
          T(0.5),
          T(-0.5),
          L::min(),
          -L::min(),
          L::denorm_min(),
          -L::denorm_min(),
          L::max(),
          L::lowest(),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          T(1e-7),
          T(88.7),
          T(-103.9),
          T(709.7),
          T(-745.1),
          T(3.14159265),
          T(1e10),
          T(-1e10),
          T(1e-30)};
}

template <typename T>
double MaxError(T (*function)(T), long double (*exact)(long double),
                double lowest, double highest) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> uniform(lowest, highest);
  std::vector<T> inputs = EdgeValues<T>();
  for (int i = 0; i < (1 << 18); ++i)
    inputs.push_back(static_cast<T>(uniform(random)));
  double worst = 0;
  for (T x : inputs) {
    // f32 is measured against the f64 computation rounded to nothing: its
    // exact value is taken in long double like f64's.
    const long double reference = exact(static_cast<long double>(x));
    const double error = UlpError<T, long double>(function(x), reference);
    EXPECT_LT(error, 4.0) << "x = " << static_cast<double>(x);
    worst = std::max(worst, error);
  }
  return worst;
}

TEST(MathLibraryTest, UnaryFunctionsStayWithinTheirDocumentedUlpBounds) {
  const UnaryCase cases[] = {
      {"exp", phal_math_exp_f32, phal_math_exp_f64, Exp, -80, 80, 0.5, 1},
      {"expm1", phal_math_expm1_f32, phal_math_expm1_f64, Expm1, -5, 5, 0.5, 1},
      {"log", phal_math_log_f32, phal_math_log_f64, Log, 0, 1e6, 0.5, 1},
      {"log1p", phal_math_log1p_f32, phal_math_log1p_f64, Log1p, -0.9, 10, 0.5,
       1},
      {"logistic", phal_math_logistic_f32, phal_math_logistic_f64, Logistic,
       -30, 30, 0.5, 2},
      {"tanh", phal_math_tanh_f32, phal_math_tanh_f64, Tanh, -10, 10, 0.5, 2},
      {"sin", phal_math_sin_f32, phal_math_sin_f64, Sin, -100, 100, 0.5, 1},
      {"cos", phal_math_cos_f32, phal_math_cos_f64, Cos, -100, 100, 0.5, 1},
      {"tan", phal_math_tan_f32, phal_math_tan_f64, Tan, -1.5, 1.5, 0.5, 1},
      {"erf", phal_math_erf_f32, phal_math_erf_f64, Erf, -6, 6, 0.5, 1},
      {"cbrt", phal_math_cbrt_f32, phal_math_cbrt_f64, Cbrt, -1e6, 1e6, 0.5,
       3.5},
      {"rsqrt", phal_math_rsqrt_f32, phal_math_rsqrt_f64, Rsqrt, 0, 1e6, 0.5,
       1.5},
  };
  for (const UnaryCase& c : cases) {
    const double f32 = MaxError<float>(c.f32, c.exact, c.lowest, c.highest);
    const double f64 = MaxError<double>(c.f64, c.exact, c.lowest, c.highest);
    std::printf("%-9s f32 %.3f ulp, f64 %.3f ulp\n", c.name, f32, f64);
    EXPECT_LE(f32, c.bound_f32 + 1e-3) << c.name << " f32";
    EXPECT_LE(f64, c.bound_f64) << c.name << " f64";
  }
}

TEST(MathLibraryTest, BinaryFunctionsStayWithinTheirDocumentedUlpBounds) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(-20, 20);
  double worst_atan2_f32 = 0, worst_atan2_f64 = 0;
  double worst_pow_f32 = 0, worst_pow_f64 = 0;
  for (int i = 0; i < (1 << 18); ++i) {
    const double y = uniform(random), x = uniform(random);
    const float yf = static_cast<float>(y), xf = static_cast<float>(x);
    worst_atan2_f32 = std::max(
        worst_atan2_f32,
        UlpError<float, long double>(phal_math_atan2_f32(yf, xf),
                                     std::atan2(static_cast<long double>(yf),
                                                static_cast<long double>(xf))));
    worst_atan2_f64 = std::max(
        worst_atan2_f64,
        UlpError<double, long double>(phal_math_atan2_f64(y, x),
                                      std::atan2(static_cast<long double>(y),
                                                 static_cast<long double>(x))));
    const float base = std::fabs(xf), exponent = yf;
    worst_pow_f32 = std::max(worst_pow_f32,
                             UlpError<float, long double>(
                                 phal_math_pow_f32(base, exponent),
                                 std::pow(static_cast<long double>(base),
                                          static_cast<long double>(exponent))));
    worst_pow_f64 = std::max(
        worst_pow_f64, UlpError<double, long double>(
                           phal_math_pow_f64(std::fabs(x), y),
                           std::pow(static_cast<long double>(std::fabs(x)),
                                    static_cast<long double>(y))));
  }
  std::printf("atan2     f32 %.3f ulp, f64 %.3f ulp\n", worst_atan2_f32,
              worst_atan2_f64);
  std::printf("pow       f32 %.3f ulp, f64 %.3f ulp\n", worst_pow_f32,
              worst_pow_f64);
  EXPECT_LE(worst_atan2_f32, 0.501);
  EXPECT_LE(worst_atan2_f64, 1.0);
  EXPECT_LE(worst_pow_f32, 0.501);
  EXPECT_LE(worst_pow_f64, 1.0);
}

TEST(MathLibraryTest, SpecialValuesFollowAnnexF) {
  EXPECT_EQ(phal_math_exp_f32(-INFINITY), 0.0f);
  EXPECT_EQ(phal_math_log_f32(0.0f), -INFINITY);
  EXPECT_TRUE(std::isnan(phal_math_log_f64(-1.0)));
  EXPECT_EQ(phal_math_logistic_f32(-INFINITY), 0.0f);
  EXPECT_EQ(phal_math_logistic_f32(INFINITY), 1.0f);
  EXPECT_EQ(phal_math_rsqrt_f32(0.0f), INFINITY);
  EXPECT_EQ(phal_math_rsqrt_f64(-0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(phal_math_tanh_f32(NAN)));
  EXPECT_EQ(phal_math_tanh_f64(-INFINITY), -1.0);
}

}  // namespace
