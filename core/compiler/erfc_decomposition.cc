#include "core/compiler/decompositions.h"
#include "core/compiler/elementwise_graph.h"

namespace phal {
namespace {

// exp(-a^2) for a >= 0 without the error of rounding a^2, which exp
// multiplies by a^2 (64 ulps of erfc in f32 near a = 9): a = h + l with h
// of half the mantissa, so h^2 is exact, and
// exp(-a^2) = exp(-h^2) exp(-l (a + h)).
HloInstruction* ExpMinusSquare(ElementwiseGraph& g, HloInstruction* a,
                               bool is_f64) {
  HloInstruction* high =
      is_f64 ? g.ReducePrecision(a, 11, 25) : g.ReducePrecision(a, 8, 11);
  HloInstruction* low = g.Op(HloOpcode::kSubtract, a, high);
  HloInstruction* square = g.Op(HloOpcode::kMultiply, high, high);
  HloInstruction* rest =
      g.Op(HloOpcode::kMultiply, low, g.Op(HloOpcode::kAdd, a, high));
  return g.Op(HloOpcode::kMultiply,
              g.Op(HloOpcode::kExp, g.Op(HloOpcode::kNegate, rest)),
              g.Op(HloOpcode::kExp, g.Op(HloOpcode::kNegate, square)));
}

// erfc(a) / exp(-a^2) for a >= 1: Cephes' rational approximations, erfcf's
// in 1/a^2 for f32 (split at 2) and erfc's in a for f64 (split at 8).
HloInstruction* ScaledTail(ElementwiseGraph& g, HloInstruction* a,
                           bool is_f64) {
  if (!is_f64) {
    HloInstruction* q = g.Op(HloOpcode::kDivide, g.Constant(1), a);
    HloInstruction* y = g.Op(HloOpcode::kMultiply, q, q);
    HloInstruction* near = g.Polynomial(
        y, {2.326819970068386E-2, -1.387039388740657E-1, 3.687424674597105E-1,
            -5.824733027278666E-1, 6.210004621745983E-1, -4.944515323274145E-1,
            3.404879937665872E-1, -2.741127028184656E-1, 5.638259427386472E-1});
    HloInstruction* far = g.Polynomial(
        y, {-1.047766399936249E+1, 1.297719955372516E+1, -7.495518717768503E+0,
            2.921019019210786E+0, -1.015265279202700E+0, 4.218463358204948E-1,
            -2.820767439740514E-1, 5.641895067754075E-1});
    return g.Op(HloOpcode::kMultiply, q,
                g.Select(g.Less(a, g.Constant(2)), near, far));
  }
  HloInstruction* near = g.Op(
      HloOpcode::kDivide,
      g.Polynomial(a, {2.46196981473530512524E-10, 5.64189564831068821977E-1,
                       7.46321056442269912687E0, 4.86371970985681366614E1,
                       1.96520832956077098242E2, 5.26445194995477358631E2,
                       9.34528527171957607540E2, 1.02755188689515710272E3,
                       5.57535335369399327526E2}),
      g.Polynomial(a, {1.0, 1.32281951154744992508E1, 8.67072140885989742329E1,
                       3.54937778887819891062E2, 9.75708501743205489753E2,
                       1.82390916687909736289E3, 2.24633760818710981792E3,
                       1.65666309194161350182E3, 5.57535340817727675546E2}));
  HloInstruction* far = g.Op(
      HloOpcode::kDivide,
      g.Polynomial(a, {5.64189583547755073984E-1, 1.27536670759978104416E0,
                       5.01905042251180477414E0, 6.16021097993053585195E0,
                       7.40974269950448939160E0, 2.97886665372100240670E0}),
      g.Polynomial(a, {1.0, 2.26052863220117276590E0, 9.39603524938001434673E0,
                       1.20489539808096656605E1, 1.70814450747565897222E1,
                       9.60896809063285878198E0, 3.36907645100081516050E0}));
  return g.Select(g.Less(a, g.Constant(8)), near, far);
}

}  // namespace

StatusOr<HloInstruction*> DecomposeErfc(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const ElementType type = source.shape().element_type();
  const bool is_f64 = type == PHAL_ELEMENT_TYPE_F64;
  const ElementType working =
      is_f64 ? PHAL_ELEMENT_TYPE_F64 : PHAL_ELEMENT_TYPE_F32;
  const std::vector<int64_t>& dims = source.shape().dims();
  if (type != working) {
    x = context.AddNew(HloOpcode::kConvert, Shape(working, dims), {x});
  }
  ElementwiseGraph g(context, dims, working);
  HloInstruction* a = g.Op(HloOpcode::kAbs, x);
  // Below 1, 1 - erf(x) loses at most two bits (erfc(1) = 0.157).
  HloInstruction* near_zero =
      g.Op(HloOpcode::kSubtract, g.Constant(1), g.Op(HloOpcode::kErf, x));
  HloInstruction* tail = g.Op(HloOpcode::kMultiply, ScaledTail(g, a, is_f64),
                              ExpMinusSquare(g, a, is_f64));
  // Beyond these erfc rounds to 0 in the type, and h^2 may overflow to
  // inf where l (a + h) is 0 * inf.
  HloInstruction* underflows = g.Less(g.Constant(is_f64 ? 27.5 : 10.5), a);
  tail = g.Select(underflows, g.Constant(0), tail);
  HloInstruction* far_from_zero =
      g.Select(g.Less(x, g.Constant(0)),
               g.Op(HloOpcode::kSubtract, g.Constant(2), tail), tail);
  HloInstruction* result =
      g.Select(g.Less(a, g.Constant(1)), near_zero, far_from_zero);
  if (type == working) return result;
  return context.AddNew(HloOpcode::kConvert, source.shape(), {result});
}

}  // namespace phal
