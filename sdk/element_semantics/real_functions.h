// The elementwise ops on real floating-point values, one function per op,
// as StableHLO defines them: computed in double (the caller rounds once to
// the element type when it stores) with the C++ library's functions.
// is_finite gives bool and complex builds a complex value; every other op
// stays real.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_REAL_FUNCTIONS_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_REAL_FUNCTIONS_H_

#include <cmath>
#include <complex>
#include <limits>

namespace phal::element_semantics {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// IEEE 754-2019 maximum and minimum: NaN propagates (as the canonical quiet
// NaN) and -0 < +0.
inline double FloatMaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

inline double FloatMinimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// NaN and signed zeros are their own sign.
inline double FloatSign(double x) {
  if (std::isnan(x) || x == 0.0) return x;
  return x > 0.0 ? 1.0 : -1.0;
}

inline double FloatAbs(double x) { return std::fabs(x); }
inline double FloatCbrt(double x) { return std::cbrt(x); }
inline double FloatCeil(double x) { return std::ceil(x); }
inline double FloatCos(double x) { return std::cos(x); }
inline double FloatErf(double x) { return std::erf(x); }
// Not 1 - erf(x), which loses every digit once erf(x) rounds to 1.
inline double FloatErfc(double x) { return std::erfc(x); }
inline double FloatExp(double x) { return std::exp(x); }
inline double FloatExpm1(double x) { return std::expm1(x); }
inline double FloatFloor(double x) { return std::floor(x); }
inline double FloatImag(double) { return 0.0; }
inline bool FloatIsFinite(double x) { return std::isfinite(x); }
inline double FloatLog(double x) { return std::log(x); }
inline double FloatLog1p(double x) { return std::log1p(x); }
inline double FloatLogistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double FloatNegate(double x) { return -x; }
inline double FloatReal(double x) { return x; }
inline double FloatRoundAfz(double x) { return std::round(x); }
inline double FloatRoundEven(double x) { return std::nearbyint(x); }
inline double FloatRsqrt(double x) { return 1.0 / std::sqrt(x); }
inline double FloatSin(double x) { return std::sin(x); }
inline double FloatSqrt(double x) { return std::sqrt(x); }
inline double FloatTan(double x) { return std::tan(x); }
inline double FloatTanh(double x) { return std::tanh(x); }
inline double FloatAsin(double x) { return std::asin(x); }
inline double FloatAcos(double x) { return std::acos(x); }
inline double FloatAtan(double x) { return std::atan(x); }
inline double FloatSinh(double x) { return std::sinh(x); }
inline double FloatCosh(double x) { return std::cosh(x); }
inline double FloatAsinh(double x) { return std::asinh(x); }
inline double FloatAcosh(double x) { return std::acosh(x); }
inline double FloatAtanh(double x) { return std::atanh(x); }

inline double FloatAdd(double x, double y) { return x + y; }
inline double FloatSubtract(double x, double y) { return x - y; }
inline double FloatMultiply(double x, double y) { return x * y; }
inline double FloatDivide(double x, double y) { return x / y; }
inline double FloatRemainder(double x, double y) { return std::fmod(x, y); }
inline double FloatPower(double x, double y) { return std::pow(x, y); }
inline double FloatAtan2(double y, double x) { return std::atan2(y, x); }
inline std::complex<double> MakeComplex(double re, double im) {
  return {re, im};
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_REAL_FUNCTIONS_H_
