// The special functions of CHLO (lgamma, digamma, bessel_i1e, zeta,
// polygamma, next_after) on real values, as the reference defines them:
// computed in double, to about 1e-15 relative error away from zeros, and
// rounded once by the caller when it stores. Their values at poles and
// outside their domains are the ones XLA's decompositions give.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_SPECIAL_FUNCTIONS_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_SPECIAL_FUNCTIONS_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>

namespace phal::element_semantics {

// log|Gamma(x)|: +inf at the poles (0, -1, -2, ...) and at +-inf.
double FloatLgamma(double x);

// Gamma'(x) / Gamma(x): NaN at the poles and at -inf, +inf at +inf.
double FloatDigamma(double x);

// exp(-|x|) I1(x), the exponentially scaled modified Bessel function of
// the first kind of order one; odd in x.
double FloatBesselI1e(double x);

// The Hurwitz zeta function sum over k >= 0 of (q + k)^-x: +inf at x = 1
// and at the poles q = 0, -1, ...; NaN for x < 1, and for q < 0 when x is
// not an integer.
double FloatZeta(double x, double q);
// (2k)! / B_2k for k = 1..12: the coefficients of the Euler-Maclaurin tail
// of the Hurwitz zeta function, for FloatZeta and the compiler's
// decomposition of zeta.
inline constexpr std::array<double, 12> kZetaTailCoefficients = {
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18};

// The n-th derivative of digamma at x: digamma for n = 0,
// (-1)^(n+1) n! zeta(n + 1, x) for integers n >= 1, NaN for other n.
double FloatPolygamma(double n, double x);

// The next value of the storage type after `from` in the direction of
// `to`, on the bit patterns of an IEEE binary type stored in `Storage`
// (float, double, or uint16_t for f16 and bf16) whose value the caller
// also passes as double: NaN when either is NaN, `to` when they are equal,
// the smallest subnormal of `to`'s sign after a zero.
template <typename Bits, typename Storage>
Storage NextAfterBits(Storage from, double from_value, Storage to,
                      double to_value) {
  static_assert(sizeof(Bits) == sizeof(Storage));
  if (from_value != from_value || to_value != to_value) {
    if (from_value != from_value) return from;
    return to;
  }
  if (from_value == to_value) return to;
  Bits bits;
  std::memcpy(&bits, &from, sizeof(bits));
  if (from_value == 0) {
    Bits to_bits;
    std::memcpy(&to_bits, &to, sizeof(to_bits));
    constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
    bits = static_cast<Bits>((to_bits & kSign) | 1);
  } else if ((from_value < to_value) == (from_value > 0)) {
    ++bits;
  } else {
    --bits;
  }
  Storage next;
  std::memcpy(&next, &bits, sizeof(next));
  return next;
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_SPECIAL_FUNCTIONS_H_
