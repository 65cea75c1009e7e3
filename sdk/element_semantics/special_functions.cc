#include "sdk/element_semantics/special_functions.h"

#include <array>
#include <cmath>
#include <numbers>

namespace phal::element_semantics {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

bool IsNonPositiveInteger(double x) { return x <= 0 && x == std::floor(x); }

// pi / tan(pi x), with the argument reduced (exactly) to [-1/2, 1/2] first
// so that pi x carries no rounding error of a large product and tan is
// never evaluated near pi, where that error would dominate.
double PiOverTanPi(double x) {
  const double r = x - std::round(x);
  return std::numbers::pi / std::tan(std::numbers::pi * r);
}

// digamma for x >= 10: the asymptotic series
// log x - 1/(2x) - sum B_2k / (2k x^2k), whose terms up to k = 7 leave a
// relative error below 1e-17 there.
double DigammaAsymptotic(double x) {
  static constexpr std::array<double, 7> kCoefficients = {
      1.0 / 12,  -1.0 / 120,       1.0 / 252, -1.0 / 240,
      1.0 / 132, -691.0 / 32760.0, 1.0 / 12};
  const double w = 1 / (x * x);
  double series = 0;
  for (std::size_t k = kCoefficients.size(); k-- > 0;) {
    series = (series + kCoefficients[k]) * w;
  }
  return std::log(x) - 0.5 / x - series;
}

// exp(-x) I1(x) for large x: Hankel's asymptotic expansion with mu = 4,
// 1/sqrt(2 pi x) sum (-1)^k prod_{j<=k} (mu - (2j-1)^2) / (k! (8x)^k),
// whose terms fall below 1e-17 of the sum by k = 12 for x >= 500.
double BesselI1eAsymptotic(double x) {
  double term = 1;
  double sum = 1;
  for (int k = 1; k <= 16; ++k) {
    const double odd = 2.0 * k - 1;
    term *= -(4 - odd * odd) / (k * 8 * x);
    sum += term;
  }
  return sum / std::sqrt(2 * std::numbers::pi) / std::sqrt(x);
}

}  // namespace

double FloatLgamma(double x) { return std::lgamma(x); }

double FloatDigamma(double x) {
  if (std::isnan(x) || x == -kInfinity) return kNotANumber;
  if (x == kInfinity) return kInfinity;
  if (IsNonPositiveInteger(x)) return kNotANumber;
  if (x < 0) return FloatDigamma(1 - x) - PiOverTanPi(x);
  double shift = 0;
  while (x < 10) {
    shift -= 1 / x;
    x += 1;
  }
  return shift + DigammaAsymptotic(x);
}

double FloatBesselI1e(double x) {
  if (std::isnan(x)) return x;
  const double a = std::fabs(x);
  if (a == kInfinity) return 0;
  // Below 1e-9 the series a/2 (1 - a + ...) is exact to double, and
  // the library's I1 loses the bits of subnormal arguments.
  if (a < 1e-9) return x / 2 * (1 - a);
  const double magnitude = a < 500 ? std::cyl_bessel_i(1.0, a) * std::exp(-a)
                                   : BesselI1eAsymptotic(a);
  return x < 0 ? -magnitude : magnitude;
}

double FloatZeta(double x, double q) {
  // Cephes' zeta: the first terms summed directly, then the Euler-Maclaurin
  // tail (kZetaTailCoefficients).
  const auto& kTail = kZetaTailCoefficients;
  if (std::isnan(x) || std::isnan(q)) return kNotANumber;
  if (x == 1) return kInfinity;
  if (x < 1) return kNotANumber;
  if (q <= 0) {
    if (q == std::floor(q)) return kInfinity;
    if (x != std::floor(x)) return kNotANumber;
  }
  double s = std::pow(q, -x);
  double a = q;
  double b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    ++i;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (std::fabs(b / s) < kEpsilon) return s;
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  double factor = 1;
  double k = 0;
  for (double coefficient : kTail) {
    factor *= x + k;
    b /= w;
    const double t = factor * b / coefficient;
    s += t;
    if (std::fabs(t / s) < kEpsilon) break;
    k += 1;
    factor *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

double FloatPolygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNotANumber;
  if (n < 0 || n != std::floor(n)) return kNotANumber;
  if (n == 0) return FloatDigamma(x);
  const double sign = std::fmod(n, 2) == 1 ? 1 : -1;
  return sign * std::exp(std::lgamma(n + 1)) * FloatZeta(n + 1, x);
}

}  // namespace phal::element_semantics
