#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/compiler/decompositions.h"
#include "core/compiler/elementwise_graph.h"
#include "sdk/element_semantics/special_functions.h"

namespace phal {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();

// The Lanczos approximation with g = 7 and nine coefficients that XLA's
// lgamma and digamma use: Gamma(z + 1) = sqrt(2 pi) t^(z + 1/2) e^-t A(z)
// with t = z + g + 1/2 and A(z) = c0 + sum c_i / (z + i).
constexpr double kLanczosGamma = 7;
constexpr double kLanczosBase = 0.99999999999980993227684700473478;
constexpr std::array<double, 8> kLanczosCoefficients = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};

// z = -x below 1/2 (the reflected argument), x - 1 otherwise.
HloInstruction* LanczosArgument(ElementwiseGraph& g, HloInstruction* x,
                                HloInstruction* reflect) {
  return g.Select(reflect, g.Op(HloOpcode::kNegate, x),
                  g.Subtract(x, g.Constant(1)));
}

// log(t) for t = z + g + 1/2, as log(g + 1/2) + log1p(z / (g + 1/2)).
HloInstruction* LanczosLogT(ElementwiseGraph& g, HloInstruction* z) {
  const double shift = kLanczosGamma + 0.5;
  return g.Add(g.Constant(std::log(shift)),
               g.Op(HloOpcode::kLog1p, g.Divide(z, g.Constant(shift))));
}

// Whether x is 0, -1, -2, ...
HloInstruction* IsPole(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* integral =
      g.Compare(ComparisonDirection::kEq, x, g.Op(HloOpcode::kFloor, x));
  HloInstruction* non_positive =
      g.Compare(ComparisonDirection::kLe, x, g.Constant(0));
  return g.Op(HloOpcode::kAnd, integral, non_positive);
}

HloInstruction* IsInfinite(ElementwiseGraph& g, HloInstruction* x) {
  return g.Compare(ComparisonDirection::kEq, g.Op(HloOpcode::kAbs, x),
                   g.Constant(kInfinity));
}

// XLA's lgamma: the Lanczos approximation for x >= 1/2 and the reflection
// log(pi / |sin(pi x)|) - lgamma(1 - x) below, with sin's argument reduced
// to [0, 1/2] by |x|'s fractional part; +inf at the poles and at +-inf.
HloInstruction* Lgamma(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* reflect = g.Less(x, g.Constant(0.5));
  HloInstruction* z = LanczosArgument(g, x, reflect);
  HloInstruction* sum = g.Constant(kLanczosBase);
  for (std::size_t i = 0; i < kLanczosCoefficients.size(); ++i) {
    sum =
        g.Add(sum, g.Divide(g.Constant(kLanczosCoefficients[i]),
                            g.Add(z, g.Constant(static_cast<double>(i) + 1))));
  }
  HloInstruction* t = g.Add(z, g.Constant(kLanczosGamma + 0.5));
  HloInstruction* log_t = LanczosLogT(g, z);
  // (z + 1/2) log t - t, written as (z + 1/2 - t / log t) log t.
  HloInstruction* log_y = g.Add(
      g.Add(
          g.Constant(0.5 * std::log(2 * std::numbers::pi)),
          g.Multiply(g.Subtract(g.Add(z, g.Constant(0.5)), g.Divide(t, log_t)),
                     log_t)),
      g.Op(HloOpcode::kLog, sum));
  HloInstruction* abs_x = g.Op(HloOpcode::kAbs, x);
  HloInstruction* fraction = g.Subtract(abs_x, g.Op(HloOpcode::kFloor, abs_x));
  HloInstruction* reduced =
      g.Select(g.Less(g.Constant(0.5), fraction),
               g.Subtract(g.Constant(1), fraction), fraction);
  HloInstruction* log_sin = g.Op(
      HloOpcode::kLog,
      g.Op(HloOpcode::kSin, g.Multiply(g.Constant(std::numbers::pi), reduced)));
  HloInstruction* reflection = g.Select(
      g.IsFinite(log_sin),
      g.Subtract(g.Subtract(g.Constant(std::log(std::numbers::pi)), log_sin),
                 log_y),
      g.Op(HloOpcode::kNegate, log_sin));
  HloInstruction* result = g.Select(reflect, reflection, log_y);
  // Below the type's epsilon lgamma(x) = -log|x| - Euler's gamma x + ...
  // rounds to -log|x|, which stays exact for subnormal x, where pi x in the
  // reflection has lost bits.
  const double epsilon = g.type() == PHAL_ELEMENT_TYPE_F64
                             ? std::numeric_limits<double>::epsilon()
                             : std::numeric_limits<float>::epsilon();
  result =
      g.Select(g.Less(abs_x, g.Constant(epsilon)),
               g.Op(HloOpcode::kNegate, g.Op(HloOpcode::kLog, abs_x)), result);
  return g.Select(IsInfinite(g, x), g.Constant(kInfinity), result);
}

// XLA's digamma: the logarithmic derivative of the Lanczos approximation,
// log t + A'(z) / A(z) - g / t, for x >= 1/2, and the reflection
// digamma(1 - x) - pi / tan(pi x) below; NaN at the poles.
HloInstruction* Digamma(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* reflect = g.Less(x, g.Constant(0.5));
  HloInstruction* z = LanczosArgument(g, x, reflect);
  HloInstruction* numerator = g.Constant(0);
  HloInstruction* denominator = g.Constant(kLanczosBase);
  for (std::size_t i = 0; i < kLanczosCoefficients.size(); ++i) {
    HloInstruction* shifted = g.Add(z, g.Constant(static_cast<double>(i) + 1));
    HloInstruction* c = g.Constant(kLanczosCoefficients[i]);
    numerator =
        g.Subtract(numerator, g.Divide(c, g.Multiply(shifted, shifted)));
    denominator = g.Add(denominator, g.Divide(c, shifted));
  }
  HloInstruction* t = g.Add(z, g.Constant(kLanczosGamma + 0.5));
  HloInstruction* y =
      g.Subtract(g.Add(LanczosLogT(g, z), g.Divide(numerator, denominator)),
                 g.Divide(g.Constant(kLanczosGamma), t));
  // pi x reduced by the nearest integer keeps cos and sin exact in sign.
  HloInstruction* reduced =
      g.Add(x, g.Op(HloOpcode::kAbs,
                    g.Op(HloOpcode::kFloor, g.Add(x, g.Constant(0.5)))));
  HloInstruction* angle = g.Multiply(g.Constant(std::numbers::pi), reduced);
  HloInstruction* reflection =
      g.Subtract(y, g.Divide(g.Multiply(g.Constant(std::numbers::pi),
                                        g.Op(HloOpcode::kCos, angle)),
                             g.Op(HloOpcode::kSin, angle)));
  HloInstruction* result = g.Select(reflect, reflection, y);
  result =
      g.Select(g.Compare(ComparisonDirection::kEq, x, g.Constant(kInfinity)),
               g.Constant(kInfinity), result);
  return g.Select(IsPole(g, x), g.Constant(kNotANumber), result);
}

// The Hurwitz zeta function by Cephes' method with fixed work: the first
// ten terms (q + k)^-x summed directly, then the Euler-Maclaurin tail at
// a = q + 9 with twelve Bernoulli terms, evaluated by Horner's rule in
// 1/a^2. +inf at x = 1 and at the poles q = 0, -1, ...; NaN for x < 1
// and for q < 0 with x not an integer.
HloInstruction* Zeta(ElementwiseGraph& g, HloInstruction* x,
                     HloInstruction* q) {
  const auto& kTail = element_semantics::kZetaTailCoefficients;
  HloInstruction* minus_x = g.Op(HloOpcode::kNegate, x);
  HloInstruction* sum = g.Op(HloOpcode::kPower, q, minus_x);
  HloInstruction* a = q;
  HloInstruction* b = sum;
  for (int i = 0; i < 9; ++i) {
    a = g.Add(a, g.Constant(1));
    b = g.Op(HloOpcode::kPower, a, minus_x);
    sum = g.Add(sum, b);
  }
  HloInstruction* one = g.Constant(1);
  sum = g.Add(sum, g.Divide(g.Multiply(b, a), g.Subtract(x, one)));
  sum = g.Subtract(sum, g.Multiply(g.Constant(0.5), b));
  HloInstruction* w = g.Divide(one, g.Multiply(a, a));
  HloInstruction* horner = g.Constant(1 / kTail.back());
  for (std::size_t k = kTail.size() - 1; k-- > 0;) {
    HloInstruction* factor =
        g.Multiply(g.Add(x, g.Constant(2.0 * static_cast<double>(k) + 1)),
                   g.Add(x, g.Constant(2.0 * static_cast<double>(k) + 2)));
    horner = g.Add(g.Constant(1 / kTail[k]),
                   g.Multiply(g.Multiply(factor, w), horner));
  }
  sum = g.Add(sum, g.Multiply(g.Divide(g.Multiply(b, x), a), horner));
  HloInstruction* x_integral =
      g.Compare(ComparisonDirection::kEq, x, g.Op(HloOpcode::kFloor, x));
  HloInstruction* undefined =
      g.Op(HloOpcode::kOr, g.Less(x, one),
           g.Op(HloOpcode::kAnd, g.Less(q, g.Constant(0)),
                g.Op(HloOpcode::kNot, x_integral)));
  HloInstruction* infinite =
      g.Op(HloOpcode::kOr, g.Compare(ComparisonDirection::kEq, x, one),
           IsPole(g, q));
  sum = g.Select(infinite, g.Constant(kInfinity), sum);
  return g.Select(undefined, g.Constant(kNotANumber), sum);
}

// (-1)^(n+1) n! zeta(n + 1, x) for integers n >= 1, with n! as
// exp(lgamma(n + 1)); digamma for n = 0; NaN for other n.
HloInstruction* Polygamma(ElementwiseGraph& g, HloInstruction* n,
                          HloInstruction* x) {
  HloInstruction* one = g.Constant(1);
  HloInstruction* n_plus_one = g.Add(n, one);
  HloInstruction* factorial = g.Op(HloOpcode::kExp, Lgamma(g, n_plus_one));
  // (-1)^(n+1): 1 for odd n, -1 for even n.
  HloInstruction* odd =
      g.Compare(ComparisonDirection::kEq,
                g.Op(HloOpcode::kRemainder, n, g.Constant(2)), one);
  HloInstruction* sign = g.Select(odd, one, g.Constant(-1));
  HloInstruction* derivative =
      g.Multiply(g.Multiply(sign, factorial), Zeta(g, n_plus_one, x));
  HloInstruction* result =
      g.Select(g.Compare(ComparisonDirection::kEq, n, g.Constant(0)),
               Digamma(g, x), derivative);
  HloInstruction* valid =
      g.Op(HloOpcode::kAnd,
           g.Compare(ComparisonDirection::kEq, n, g.Op(HloOpcode::kFloor, n)),
           g.Compare(ComparisonDirection::kGe, n, g.Constant(0)));
  return g.Select(valid, result, g.Constant(kNotANumber));
}

// Converts the operands to the working type, applies `body` and converts
// the result back to the source's type.
template <typename Body>
HloInstruction* InWorkingType(const HloInstruction& source,
                              const std::vector<HloInstruction*>& operands,
                              RewriteContext& context, Body body) {
  const ElementType type = source.shape().element_type();
  ElementwiseGraph g(context, source.shape().dims(), WorkingFloatType(type));
  std::vector<HloInstruction*> working;
  for (HloInstruction* operand : operands) {
    working.push_back(g.Convert(operand, g.type()));
  }
  return g.Convert(body(g, working), type);
}

}  // namespace

StatusOr<HloInstruction*> DecomposeGammaFamily(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  const HloOpcode opcode = source.opcode();
  return InWorkingType(
      source, operands, context,
      [&](ElementwiseGraph& g, const std::vector<HloInstruction*>& v) {
        switch (opcode) {
          case HloOpcode::kLgamma:
            return Lgamma(g, v[0]);
          case HloOpcode::kDigamma:
            return Digamma(g, v[0]);
          case HloOpcode::kZeta:
            return Zeta(g, v[0], v[1]);
          default:
            return Polygamma(g, v[0], v[1]);
        }
      });
}

}  // namespace phal
