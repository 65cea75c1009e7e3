// gather and scatter in the reference interpreter, with the StableHLO
// specification's index semantics (including operand/input batching
// dimensions).
#ifndef POLYHAL_CORE_REFERENCE_GATHER_SCATTER_H_
#define POLYHAL_CORE_REFERENCE_GATHER_SCATTER_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Start indices are clamped so that each slice lies inside the operand.
StatusOr<Literal> EvaluateGather(const HloInstruction& instruction,
                                 const Literal& operand,
                                 const Literal& start_indices);

// Variadic scatter: operands are N inputs, the scatter indices, then N
// updates. Indices are not clamped: each update element whose target lies
// outside the input is skipped, element by element, as the specification
// states (XLA skips the whole window instead). Updates are applied in
// row-major order of the updates' index space.
StatusOr<Literal> EvaluateScatter(const HloInstruction& instruction,
                                  std::span<const Literal* const> operands,
                                  ComputationRunner* runner);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_GATHER_SCATTER_H_
