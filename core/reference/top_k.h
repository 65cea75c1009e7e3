// topk in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_TOP_K_H_
#define POLYHAL_CORE_REFERENCE_TOP_K_H_

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// The k largest (or smallest) elements along the last dimension and their
// s32 positions, as a (values, indices) tuple. Floats are ordered totally
// (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN) and equal elements keep
// the lower index first, as XLA's TopK does.
StatusOr<Literal> EvaluateTopK(const HloInstruction& instruction,
                               const Literal& operand);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_TOP_K_H_
