// The elementwise ops on complex values, one function per op, as StableHLO
// defines them: computed in std::complex<double> (the caller rounds each
// part once to the element type when it stores). abs, real and imag give a
// real value; every other op stays complex. Defined out of line, in one
// translation unit compiled without floating-point contraction, so every
// caller gets the same roundings whatever its own flags.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_COMPLEX_FUNCTIONS_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_COMPLEX_FUNCTIONS_H_

#include "sdk/element_semantics/element_traits.h"

namespace phal::element_semantics {

double ComplexAbs(Complex z);
double ComplexReal(Complex z);
double ComplexImag(Complex z);
Complex ComplexNegate(Complex z);
Complex ComplexExp(Complex z);
// exp(z) - 1 without cancellation for small |z|.
Complex ComplexExpm1(Complex z);
Complex ComplexLog(Complex z);
// log(1 + z) without cancellation for small |z|.
Complex ComplexLog1p(Complex z);
Complex ComplexLogistic(Complex z);
Complex ComplexSqrt(Complex z);
Complex ComplexRsqrt(Complex z);
// The principal cube root, z^(1/3).
Complex ComplexCbrt(Complex z);
Complex ComplexSin(Complex z);
Complex ComplexCos(Complex z);
Complex ComplexTan(Complex z);
Complex ComplexTanh(Complex z);
// The inverse trigonometric and the hyperbolic functions with the branch
// cuts of C99 Annex G (std::), which XLA and numpy follow.
Complex ComplexAsin(Complex z);
Complex ComplexAcos(Complex z);
Complex ComplexAtan(Complex z);
Complex ComplexSinh(Complex z);
Complex ComplexCosh(Complex z);
Complex ComplexAsinh(Complex z);
Complex ComplexAcosh(Complex z);
Complex ComplexAtanh(Complex z);
// z / |z|; 0 for 0, and NaN in both parts when either part is NaN.
Complex ComplexSign(Complex z);

Complex ComplexAdd(Complex x, Complex y);
Complex ComplexSubtract(Complex x, Complex y);
Complex ComplexMultiply(Complex x, Complex y);
Complex ComplexDivide(Complex x, Complex y);
Complex ComplexPower(Complex x, Complex y);
// As the StableHLO interpreter defines it: -i * log((x + i y) /
// sqrt(x^2 + y^2)).
Complex ComplexAtan2(Complex y, Complex x);
// The specification's order for maximum and minimum: by real part, then by
// imaginary part.
Complex ComplexMaximum(Complex x, Complex y);
Complex ComplexMinimum(Complex x, Complex y);

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_COMPLEX_FUNCTIONS_H_
