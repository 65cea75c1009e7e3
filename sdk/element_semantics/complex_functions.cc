#include "sdk/element_semantics/complex_functions.h"

#include <cmath>

#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {
namespace {

bool LexicographicLess(Complex x, Complex y) {
  if (x.real() != y.real()) return x.real() < y.real();
  return x.imag() < y.imag();
}

}  // namespace

double ComplexAbs(Complex z) { return std::abs(z); }
double ComplexReal(Complex z) { return z.real(); }
double ComplexImag(Complex z) { return z.imag(); }
Complex ComplexNegate(Complex z) { return -z; }
Complex ComplexExp(Complex z) { return std::exp(z); }

// re = expm1(x) cos(y) - 2 sin^2(y / 2), im = exp(x) sin(y).
Complex ComplexExpm1(Complex z) {
  const double half_sin = std::sin(z.imag() / 2);
  return {std::expm1(z.real()) * std::cos(z.imag()) - 2 * half_sin * half_sin,
          std::exp(z.real()) * std::sin(z.imag())};
}

Complex ComplexLog(Complex z) { return std::log(z); }

// re = log1p(x (2 + x) + y^2) / 2, im = atan2(y, 1 + x).
Complex ComplexLog1p(Complex z) {
  const double x = z.real(), y = z.imag();
  return {0.5 * std::log1p(x * (2 + x) + y * y), std::atan2(y, 1 + x)};
}

Complex ComplexLogistic(Complex z) { return 1.0 / (1.0 + std::exp(-z)); }
Complex ComplexSqrt(Complex z) { return std::sqrt(z); }
Complex ComplexRsqrt(Complex z) { return 1.0 / std::sqrt(z); }
Complex ComplexCbrt(Complex z) { return std::pow(z, 1.0 / 3); }
Complex ComplexSin(Complex z) { return std::sin(z); }
Complex ComplexCos(Complex z) { return std::cos(z); }
Complex ComplexTan(Complex z) { return std::tan(z); }
Complex ComplexTanh(Complex z) { return std::tanh(z); }
Complex ComplexAsin(Complex z) { return std::asin(z); }
Complex ComplexAcos(Complex z) { return std::acos(z); }
Complex ComplexAtan(Complex z) { return std::atan(z); }
Complex ComplexSinh(Complex z) { return std::sinh(z); }
Complex ComplexCosh(Complex z) { return std::cosh(z); }
Complex ComplexAsinh(Complex z) { return std::asinh(z); }
Complex ComplexAcosh(Complex z) { return std::acosh(z); }
Complex ComplexAtanh(Complex z) { return std::atanh(z); }

Complex ComplexSign(Complex z) {
  if (std::isnan(z.real()) || std::isnan(z.imag())) return {kNaN, kNaN};
  const double magnitude = std::abs(z);
  return magnitude == 0 ? Complex(0, 0) : z / magnitude;
}

Complex ComplexAdd(Complex x, Complex y) { return x + y; }
Complex ComplexSubtract(Complex x, Complex y) { return x - y; }
Complex ComplexMultiply(Complex x, Complex y) { return x * y; }
Complex ComplexDivide(Complex x, Complex y) { return x / y; }
Complex ComplexPower(Complex x, Complex y) { return std::pow(x, y); }

Complex ComplexAtan2(Complex y, Complex x) {
  const Complex i(0, 1);
  return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
}

Complex ComplexMaximum(Complex x, Complex y) {
  return LexicographicLess(x, y) ? y : x;
}

Complex ComplexMinimum(Complex x, Complex y) {
  return LexicographicLess(y, x) ? y : x;
}

}  // namespace phal::element_semantics
