// The narrow integer types of StableHLO (i2, i4, ui2, ui4) on an HLO IR that
// has no such types: a value is stored in s8 (signed) or u8 (unsigned) in
// canonical form, i.e. sign- or zero-extended from its narrow width, and
// every op producing a narrow value wraps its result back into that form.
// Ops that read the bits above the value's width (shift_right_logical,
// count_leading_zeros, popcnt) see only the narrow bits. Arithmetic then
// wraps modulo 2^bits exactly as on the narrow type.
#ifndef POLYHAL_CORE_FRONTEND_NARROW_INTEGERS_H_
#define POLYHAL_CORE_FRONTEND_NARROW_INTEGERS_H_

#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// `value` (s8 or u8) wrapped into the canonical form of a `bits`-wide
// integer of the same signedness.
StatusOr<HloInstruction*> WrapToNarrowInteger(HloBuilder& builder,
                                              HloInstruction* value, int bits);

// The low `bits` bits of `value`, as a non-negative number.
StatusOr<HloInstruction*> NarrowIntegerBitsOf(HloBuilder& builder,
                                              HloInstruction* value, int bits);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_NARROW_INTEGERS_H_
