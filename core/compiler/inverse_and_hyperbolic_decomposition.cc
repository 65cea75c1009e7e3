#include <cmath>
#include <limits>
#include <numbers>

#include "core/compiler/decompositions.h"
#include "core/compiler/elementwise_graph.h"

namespace phal {
namespace {

constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();

// Above this |x|, x^2 + 1 rounds to x^2 in the working type and
// sqrt(x^2 +- 1) to |x| (1 / sqrt(epsilon)); log(2|x|) is then exact to
// the type.
double LargeArgument(ElementwiseGraph& g) {
  return g.type() == PHAL_ELEMENT_TYPE_F64 ? 1.0 / 1.4901161193847656e-8
                                           : 1.0 / 3.4526698300124393e-4;
}

HloInstruction* Abs(ElementwiseGraph& g, HloInstruction* x) {
  return g.Op(HloOpcode::kAbs, x);
}

// x with the sign of `sign` (NaN stays NaN): |x| negated where sign < 0.
HloInstruction* WithSignOf(ElementwiseGraph& g, HloInstruction* magnitude,
                           HloInstruction* sign) {
  return g.Select(g.Less(sign, g.Constant(0)),
                  g.Op(HloOpcode::kNegate, magnitude), magnitude);
}

// log(2a) for large a, as log(a) + log 2 so 2a cannot overflow.
HloInstruction* LogOfTwice(ElementwiseGraph& g, HloInstruction* a) {
  return g.Add(g.Op(HloOpcode::kLog, a), g.Constant(std::numbers::ln2));
}

// asinh(x) = sign(x) log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x|: no
// cancellation near 0 (the argument of log1p is a + O(a^2)) and no
// overflow of a^2 beyond LargeArgument, where log(2a) takes over.
HloInstruction* RealAsinh(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* a = Abs(g, x);
  HloInstruction* one = g.Constant(1);
  HloInstruction* square = g.Multiply(a, a);
  HloInstruction* root = g.Op(HloOpcode::kSqrt, g.Add(one, square));
  HloInstruction* moderate =
      g.Op(HloOpcode::kLog1p, g.Add(a, g.Divide(square, g.Add(one, root))));
  HloInstruction* magnitude = g.Select(g.Less(a, g.Constant(LargeArgument(g))),
                                       moderate, LogOfTwice(g, a));
  return WithSignOf(g, magnitude, x);
}

// acosh(x) for x >= 1: log1p(t + sqrt(2t + t^2)) with t = x - 1 below 2
// (exact t, no cancellation near 1), log(2x - 1 / (x + sqrt(x^2 - 1)))
// up to LargeArgument, log(2x) beyond; NaN below 1.
HloInstruction* RealAcosh(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* one = g.Constant(1);
  HloInstruction* two = g.Constant(2);
  HloInstruction* t = g.Subtract(x, one);
  HloInstruction* near_one =
      g.Op(HloOpcode::kLog1p,
           g.Add(t, g.Op(HloOpcode::kSqrt,
                         g.Add(g.Multiply(two, t), g.Multiply(t, t)))));
  HloInstruction* root =
      g.Op(HloOpcode::kSqrt, g.Subtract(g.Multiply(x, x), one));
  HloInstruction* moderate =
      g.Op(HloOpcode::kLog,
           g.Subtract(g.Multiply(two, x), g.Divide(one, g.Add(x, root))));
  HloInstruction* result =
      g.Select(g.Less(x, two), near_one,
               g.Select(g.Less(x, g.Constant(LargeArgument(g))), moderate,
                        LogOfTwice(g, x)));
  return g.Select(g.Less(x, one), g.Constant(kNotANumber), result);
}

// atanh(x) = sign(x) log1p(2a / (1 - a)) / 2, with fdlibm's
// log1p(2a + 2a^2 / (1 - a)) below 1/2; +-inf at +-1, NaN beyond.
HloInstruction* RealAtanh(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* a = Abs(g, x);
  HloInstruction* one = g.Constant(1);
  HloInstruction* two = g.Constant(2);
  HloInstruction* rest = g.Subtract(one, a);
  HloInstruction* twice = g.Multiply(two, a);
  HloInstruction* small = g.Op(
      HloOpcode::kLog1p, g.Add(twice, g.Divide(g.Multiply(twice, a), rest)));
  HloInstruction* large = g.Op(HloOpcode::kLog1p, g.Divide(twice, rest));
  HloInstruction* magnitude = g.Multiply(
      g.Constant(0.5), g.Select(g.Less(a, g.Constant(0.5)), small, large));
  magnitude = g.Select(g.Less(one, a), g.Constant(kNotANumber), magnitude);
  return WithSignOf(g, magnitude, x);
}

// sinh(x): sign(x) (E + E / (E + 1)) / 2 with E = expm1(|x|) below 1 (no
// cancellation near 0); beyond, h^2 / 2 - 1 / (2 h^2) with h = exp(|x|/2),
// which stays finite as long as sinh does.
HloInstruction* RealSinh(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* a = Abs(g, x);
  HloInstruction* half = g.Constant(0.5);
  HloInstruction* e = g.Op(HloOpcode::kExpm1, a);
  HloInstruction* near_zero =
      g.Multiply(half, g.Add(e, g.Divide(e, g.Add(e, g.Constant(1)))));
  HloInstruction* h = g.Op(HloOpcode::kExp, g.Multiply(half, a));
  HloInstruction* far = g.Subtract(g.Multiply(g.Multiply(half, h), h),
                                   g.Divide(half, g.Multiply(h, h)));
  HloInstruction* magnitude =
      g.Select(g.Less(a, g.Constant(1)), near_zero, far);
  return WithSignOf(g, magnitude, x);
}

// cosh(x) = h^2 / 2 + 1 / (2 h^2) with h = exp(|x| / 2).
HloInstruction* RealCosh(ElementwiseGraph& g, HloInstruction* x) {
  HloInstruction* half = g.Constant(0.5);
  HloInstruction* h = g.Op(HloOpcode::kExp, g.Multiply(half, Abs(g, x)));
  return g.Add(g.Multiply(g.Multiply(half, h), h),
               g.Divide(half, g.Multiply(h, h)));
}

// asin(x) = atan2(x, sqrt((1 - x)(1 + x))), acos(x) = atan2(sqrt(...), x):
// the product keeps 1 - x^2 exact near |x| = 1.
HloInstruction* RealAsinOrAcos(ElementwiseGraph& g, HloInstruction* x,
                               bool is_asin) {
  HloInstruction* one = g.Constant(1);
  HloInstruction* root =
      g.Op(HloOpcode::kSqrt, g.Multiply(g.Subtract(one, x), g.Add(one, x)));
  return is_asin ? g.Op(HloOpcode::kAtan2, x, root)
                 : g.Op(HloOpcode::kAtan2, root, x);
}

HloInstruction* Real(HloOpcode opcode, ElementwiseGraph& g, HloInstruction* x) {
  switch (opcode) {
    case HloOpcode::kAsin:
      return RealAsinOrAcos(g, x, true);
    case HloOpcode::kAcos:
      return RealAsinOrAcos(g, x, false);
    case HloOpcode::kAtan:
      return g.Op(HloOpcode::kAtan2, x, g.Constant(1));
    case HloOpcode::kSinh:
      return RealSinh(g, x);
    case HloOpcode::kCosh:
      return RealCosh(g, x);
    case HloOpcode::kAsinh:
      return RealAsinh(g, x);
    case HloOpcode::kAcosh:
      return RealAcosh(g, x);
    default:
      return RealAtanh(g, x);
  }
}

// A complex value as its real and imaginary parts in the working type.
struct Parts {
  HloInstruction* re;
  HloInstruction* im;
};

class ComplexGraph {
 public:
  ComplexGraph(ElementwiseGraph& g, RewriteContext& context,
               const Shape& complex_shape)
      : g_(g), context_(context), shape_(complex_shape) {}

  Parts Split(HloInstruction* z) {
    const Shape part(g_.type(), shape_.dims());
    return {context_.AddNew(HloOpcode::kReal, part, {z}),
            context_.AddNew(HloOpcode::kImag, part, {z})};
  }
  HloInstruction* Join(const Parts& z) {
    return context_.AddNew(HloOpcode::kComplex, shape_, {z.re, z.im});
  }
  // sqrt of the complex number `z`, as parts.
  Parts Sqrt(const Parts& z) { return Split(g_.Op(HloOpcode::kSqrt, Join(z))); }

 private:
  ElementwiseGraph& g_;
  RewriteContext& context_;
  Shape shape_;
};

// Kahan's formulas ("Branch cuts for complex elementary functions", 1987)
// on s1 = sqrt(1 - z) and s2 = sqrt(1 + z), whose branch cuts give the
// functions theirs:
//   asin(z) = atan2(x, Re(s1 s2)) + i asinh(Im(conj(s1) s2))
//   acos(z) = 2 atan2(Re s1, Re s2) + i asinh(Im(conj(s2) s1))
Parts ComplexAsinOrAcos(ElementwiseGraph& g, ComplexGraph& c, const Parts& z,
                        bool is_asin) {
  HloInstruction* one = g.Constant(1);
  const Parts s1 =
      c.Sqrt({g.Subtract(one, z.re), g.Op(HloOpcode::kNegate, z.im)});
  const Parts s2 = c.Sqrt({g.Add(one, z.re), z.im});
  if (is_asin) {
    HloInstruction* product_re =
        g.Subtract(g.Multiply(s1.re, s2.re), g.Multiply(s1.im, s2.im));
    HloInstruction* cross =
        g.Subtract(g.Multiply(s1.re, s2.im), g.Multiply(s1.im, s2.re));
    return {g.Op(HloOpcode::kAtan2, z.re, product_re), RealAsinh(g, cross)};
  }
  HloInstruction* cross =
      g.Subtract(g.Multiply(s2.re, s1.im), g.Multiply(s2.im, s1.re));
  return {g.Multiply(g.Constant(2), g.Op(HloOpcode::kAtan2, s1.re, s2.re)),
          RealAsinh(g, cross)};
}

// Kahan's acosh(z) = asinh(Re(conj(sqrt(z - 1)) sqrt(z + 1)))
//                    + 2i atan2(Im sqrt(z - 1), Re sqrt(z + 1)).
Parts ComplexAcosh(ElementwiseGraph& g, ComplexGraph& c, const Parts& z) {
  HloInstruction* one = g.Constant(1);
  const Parts s1 = c.Sqrt({g.Subtract(z.re, one), z.im});
  const Parts s2 = c.Sqrt({g.Add(z.re, one), z.im});
  HloInstruction* product =
      g.Add(g.Multiply(s1.re, s2.re), g.Multiply(s1.im, s2.im));
  return {RealAsinh(g, product),
          g.Multiply(g.Constant(2), g.Op(HloOpcode::kAtan2, s1.im, s2.re))};
}

// atanh(z) = (log1p(z) - log1p(-z)) / 2, written in real parts:
//   Re = log1p(u) / 4 with u = 4x / ((1 - x)^2 + y^2), or where |u| >= 1/2
//        (near z = +-1, where 1 + u cancels) log(((1 + x)^2 + y^2) /
//        ((1 - x)^2 + y^2)) / 4, whose 1 +- x are exact there
//   Im = atan2(2y, (1 - x)(1 + x) - y^2) / 2
// Where the squares overflow Re rounds to 0 and Im to +-pi/2, the limits.
Parts ComplexAtanh(ElementwiseGraph& g, const Parts& z) {
  HloInstruction* one = g.Constant(1);
  HloInstruction* rest = g.Subtract(one, z.re);
  HloInstruction* sum = g.Add(one, z.re);
  HloInstruction* y_square = g.Multiply(z.im, z.im);
  HloInstruction* denominator = g.Add(g.Multiply(rest, rest), y_square);
  HloInstruction* u = g.Divide(g.Multiply(g.Constant(4), z.re), denominator);
  HloInstruction* numerator = g.Add(g.Multiply(sum, sum), y_square);
  HloInstruction* log =
      g.Select(g.Less(Abs(g, u), g.Constant(0.5)), g.Op(HloOpcode::kLog1p, u),
               g.Op(HloOpcode::kLog, g.Divide(numerator, denominator)));
  HloInstruction* re = g.Multiply(g.Constant(0.25), log);
  HloInstruction* half = g.Constant(0.5);
  HloInstruction* im =
      g.Multiply(half, g.Op(HloOpcode::kAtan2, g.Multiply(g.Constant(2), z.im),
                            g.Subtract(g.Multiply(rest, sum), y_square)));
  // Beyond 1 / epsilon (and at infinities) atanh(z) = 1/z + i pi/2 sign(y)
  // to the type's precision: Re = x / |z|^2 on parts scaled by
  // m = max(|x|, |y|), 0 when a part is infinite; Im keeps the sign of a
  // zero y through atan2(y, -1).
  HloInstruction* m = g.Op(HloOpcode::kMaximum, Abs(g, z.re), Abs(g, z.im));
  HloInstruction* x_scaled = g.Divide(z.re, m);
  HloInstruction* y_scaled = g.Divide(z.im, m);
  HloInstruction* far_re = g.Select(
      g.IsFinite(m),
      g.Divide(x_scaled, g.Multiply(m, g.Add(g.Multiply(x_scaled, x_scaled),
                                             g.Multiply(y_scaled, y_scaled)))),
      g.Constant(0));
  HloInstruction* far_im =
      g.Select(g.Compare(ComparisonDirection::kEq, z.im, g.Constant(0)),
               g.Multiply(half, g.Op(HloOpcode::kAtan2, z.im, g.Constant(-1))),
               g.Multiply(g.Op(HloOpcode::kSign, z.im),
                          g.Constant(std::numbers::pi / 2)));
  const double epsilon = g.type() == PHAL_ELEMENT_TYPE_F64
                             ? std::numeric_limits<double>::epsilon()
                             : std::numeric_limits<float>::epsilon();
  HloInstruction* far = g.Less(g.Constant(1 / epsilon), m);
  return {g.Select(far, far_re, re), g.Select(far, far_im, im)};
}

// sinh(x + iy) = sinh x cos y + i cosh x sin y and
// cosh(x + iy) = cosh x cos y + i sinh x sin y; a zero y gives the zero
// imaginary part (not inf * 0) for any x.
Parts ComplexSinhOrCosh(ElementwiseGraph& g, const Parts& z, bool is_sinh) {
  HloInstruction* sinh = RealSinh(g, z.re);
  HloInstruction* cosh = RealCosh(g, z.re);
  HloInstruction* cos = g.Op(HloOpcode::kCos, z.im);
  HloInstruction* sin = g.Op(HloOpcode::kSin, z.im);
  HloInstruction* re = g.Multiply(is_sinh ? sinh : cosh, cos);
  HloInstruction* im = g.Multiply(is_sinh ? cosh : sinh, sin);
  HloInstruction* real_axis =
      g.Compare(ComparisonDirection::kEq, z.im, g.Constant(0));
  return {re, g.Select(real_axis, z.im, im)};
}

// i z and -i z as parts.
Parts TimesI(ElementwiseGraph& g, const Parts& z) {
  return {g.Op(HloOpcode::kNegate, z.im), z.re};
}
Parts TimesMinusI(ElementwiseGraph& g, const Parts& z) {
  return {z.im, g.Op(HloOpcode::kNegate, z.re)};
}

Parts Complex(HloOpcode opcode, ElementwiseGraph& g, ComplexGraph& c,
              const Parts& z) {
  switch (opcode) {
    case HloOpcode::kAsin:
      return ComplexAsinOrAcos(g, c, z, true);
    case HloOpcode::kAcos:
      return ComplexAsinOrAcos(g, c, z, false);
    case HloOpcode::kAtan:  // atan(z) = -i atanh(iz)
      return TimesMinusI(g, ComplexAtanh(g, TimesI(g, z)));
    case HloOpcode::kSinh:
      return ComplexSinhOrCosh(g, z, true);
    case HloOpcode::kCosh:
      return ComplexSinhOrCosh(g, z, false);
    case HloOpcode::kAsinh:  // asinh(z) = -i asin(iz)
      return TimesMinusI(g, ComplexAsinOrAcos(g, c, TimesI(g, z), true));
    case HloOpcode::kAcosh:
      return ComplexAcosh(g, c, z);
    default:
      return ComplexAtanh(g, z);
  }
}

}  // namespace

StatusOr<HloInstruction*> DecomposeInverseOrHyperbolic(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  const Shape& shape = source.shape();
  const ElementType type = shape.element_type();
  if (IsComplex(type)) {
    ElementwiseGraph g(context, shape.dims(), ComplexComponentType(type));
    ComplexGraph c(g, context, shape);
    return c.Join(Complex(source.opcode(), g, c, c.Split(operands[0])));
  }
  ElementwiseGraph g(context, shape.dims(), WorkingFloatType(type));
  HloInstruction* x = g.Convert(operands[0], g.type());
  return g.Convert(Real(source.opcode(), g, x), type);
}

}  // namespace phal
