#include "core/frontend/narrow_integers.h"

namespace phal {

StatusOr<HloInstruction*> WrapToNarrowInteger(HloBuilder& b,
                                              HloInstruction* value, int bits) {
  const ElementType type = value->shape().element_type();
  if (!IsSigned(type)) return NarrowIntegerBitsOf(b, value, bits);
  // Shift the narrow sign bit to the top, then back with sign extension.
  const int spare = ElementTypeBitWidth(type) - bits;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * amount, b.FullLike(value, spare));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * up,
                        b.Binary(HloOpcode::kShiftLeft, value, amount));
  return b.Binary(HloOpcode::kShiftRightArithmetic, up, amount);
}

StatusOr<HloInstruction*> NarrowIntegerBitsOf(HloBuilder& b,
                                              HloInstruction* value, int bits) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * mask,
                        b.FullLike(value, (1 << bits) - 1));
  return b.Binary(HloOpcode::kAnd, value, mask);
}

}  // namespace phal
