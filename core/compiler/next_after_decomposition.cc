#include "core/compiler/decompositions.h"
#include "core/compiler/elementwise_graph.h"

namespace phal {
namespace {

ElementType UnsignedOfWidth(int64_t bits) {
  return bits == 16   ? PHAL_ELEMENT_TYPE_U16
         : bits == 32 ? PHAL_ELEMENT_TYPE_U32
                      : PHAL_ELEMENT_TYPE_U64;
}

}  // namespace

StatusOr<HloInstruction*> DecomposeNextAfter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  const ElementType type = source.shape().element_type();
  const int64_t bits = ElementTypeBitWidth(type);
  if (bits != 16 && bits != 32 && bits != 64) {
    return Unimplemented(std::string("next-after of ") + ElementTypeName(type));
  }
  const ElementType word = UnsignedOfWidth(bits);
  ElementwiseGraph g(context, source.shape().dims(), word);
  HloInstruction* x = operands[0];
  HloInstruction* y = operands[1];
  HloInstruction* x_bits = g.BitcastConvert(x, word);
  HloInstruction* y_bits = g.BitcastConvert(y, word);
  HloInstruction* sign_shift = g.Constant(static_cast<double>(bits - 1));
  HloInstruction* one = g.Constant(1);
  // Magnitudes compare as the bit patterns without the sign bit, shifted
  // out to the left; the sign is the top bit.
  HloInstruction* x_magnitude = g.Op(HloOpcode::kShiftLeft, x_bits, one);
  HloInstruction* y_magnitude = g.Op(HloOpcode::kShiftLeft, y_bits, one);
  HloInstruction* x_sign =
      g.Op(HloOpcode::kShiftRightLogical, x_bits, sign_shift);
  HloInstruction* y_sign =
      g.Op(HloOpcode::kShiftRightLogical, y_bits, sign_shift);
  // Away from zero the step shrinks |x| when it passes y or changes sign.
  HloInstruction* shrinks =
      g.Op(HloOpcode::kOr, g.Less(y_magnitude, x_magnitude),
           g.Compare(ComparisonDirection::kNe, x_sign, y_sign));
  HloInstruction* step =
      g.Select(shrinks, g.Subtract(x_bits, one), g.Add(x_bits, one));
  // After a zero, the smallest subnormal of y's sign.
  HloInstruction* after_zero = g.Op(
      HloOpcode::kOr, g.Op(HloOpcode::kShiftLeft, y_sign, sign_shift), one);
  HloInstruction* x_is_zero =
      g.Compare(ComparisonDirection::kEq, x_magnitude, g.Constant(0));
  HloInstruction* result = g.Select(x_is_zero, after_zero, step);
  HloInstruction* equal = g.Compare(ComparisonDirection::kEq, x, y);
  result = g.Select(equal, y_bits, result);
  HloInstruction* value = g.BitcastConvert(result, type);
  HloInstruction* nan = g.Op(HloOpcode::kOr, g.IsNaN(x), g.IsNaN(y));
  return g.Select(nan, g.Op(HloOpcode::kAdd, x, y), value);
}

}  // namespace phal
