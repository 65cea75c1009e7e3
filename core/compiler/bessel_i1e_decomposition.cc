#include <vector>

#include "core/compiler/decompositions.h"
#include "core/compiler/elementwise_graph.h"

namespace phal {
namespace {

// Cephes' Chebyshev coefficients of exp(-x) I1(x) / x on [0, 8] (in
// y = x / 2 - 2) and of exp(-x) sqrt(x) I1(x) on [8, inf) (in
// y = 32 / x - 2); f32 uses the last 17 and 7 terms, as Cephes' i1ef.
const std::vector<double>& NearCoefficients() {
  static const auto* c = new std::vector<double>{
      2.77791411276104639959E-18, -2.11142121435816608115E-17,
      1.55363195773620046921E-16, -1.10559694773538630805E-15,
      7.60068429473540693410E-15, -5.04218550472791168711E-14,
      3.22379336594557470981E-13, -1.98397439776494371520E-12,
      1.17361862988909016308E-11, -6.66348972350202774223E-11,
      3.62559028155211703701E-10, -1.88724975172282928790E-9,
      9.38153738649577178388E-9,  -4.44505912879632808065E-8,
      2.00329475355213526229E-7,  -8.56872026469545474066E-7,
      3.47025130813767847674E-6,  -1.32731636560394358279E-5,
      4.78156510755005422638E-5,  -1.61760815825896745588E-4,
      5.12285956168575772895E-4,  -1.51357245063125314899E-3,
      4.15642294431288815669E-3,  -1.05640848946261981558E-2,
      2.47264490306265168283E-2,  -5.29459812080949914269E-2,
      1.02643658689847095384E-1,  -1.76416518357834055153E-1,
      2.52587186443633654823E-1};
  return *c;
}

const std::vector<double>& FarCoefficients() {
  static const auto* c = new std::vector<double>{
      7.51729631084210481353E-18,  4.41434832307170791151E-18,
      -4.65030536848935832153E-17, -3.20952592199342395980E-17,
      2.96262899764595013876E-16,  3.30820231092092828324E-16,
      -1.88035477551078244854E-15, -3.81440307243700780478E-15,
      1.04202769841288027642E-14,  4.27244001671195135429E-14,
      -2.10154184277266431302E-14, -4.08355111109219731823E-13,
      -7.19855177624590851209E-13, 2.03562854414708950722E-12,
      1.41258074366137813316E-11,  3.25260358301548823856E-11,
      -1.89749581235054123450E-11, -5.58974346219658380687E-10,
      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,
      -2.51223623787020892529E-7,  -3.88256480887769039346E-6,
      -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
      7.78576235018280120474E-1};
  return *c;
}

// Cephes' chbevl: the Chebyshev series sum' c_i T_i(y / 2) by Clenshaw's
// recurrence over the last `terms` coefficients.
HloInstruction* Chebyshev(ElementwiseGraph& g, HloInstruction* y,
                          const std::vector<double>& c, std::size_t terms) {
  std::size_t i = c.size() - terms;
  HloInstruction* b0 = g.Constant(c[i]);
  HloInstruction* b1 = g.Constant(0);
  HloInstruction* b2 = b1;
  for (++i; i < c.size(); ++i) {
    b2 = b1;
    b1 = b0;
    b0 = g.Add(g.Subtract(g.Multiply(y, b1), b2), g.Constant(c[i]));
  }
  return g.Multiply(g.Constant(0.5), g.Subtract(b0, b2));
}

}  // namespace

StatusOr<HloInstruction*> DecomposeBesselI1e(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  const ElementType type = source.shape().element_type();
  ElementwiseGraph g(context, source.shape().dims(), WorkingFloatType(type));
  const bool is_f64 = g.type() == PHAL_ELEMENT_TYPE_F64;
  HloInstruction* x = g.Convert(operands[0], g.type());
  HloInstruction* a = g.Op(HloOpcode::kAbs, x);
  HloInstruction* near_argument =
      g.Subtract(g.Multiply(g.Constant(0.5), a), g.Constant(2));
  HloInstruction* near = g.Multiply(
      Chebyshev(g, near_argument, NearCoefficients(), is_f64 ? 29 : 17), a);
  HloInstruction* far_argument =
      g.Subtract(g.Divide(g.Constant(32), a), g.Constant(2));
  HloInstruction* far =
      g.Divide(Chebyshev(g, far_argument, FarCoefficients(), is_f64 ? 25 : 7),
               g.Op(HloOpcode::kSqrt, a));
  HloInstruction* magnitude = g.Select(
      g.Compare(ComparisonDirection::kLe, a, g.Constant(8)), near, far);
  // The sign of x, NaN kept: near is NaN for a NaN x.
  HloInstruction* result = g.Select(
      g.Less(x, g.Constant(0)), g.Op(HloOpcode::kNegate, magnitude), magnitude);
  return g.Convert(result, type);
}

}  // namespace phal
