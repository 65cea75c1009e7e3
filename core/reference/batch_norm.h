// batch-norm-inference, batch-norm-training and batch-norm-grad in the
// reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_BATCH_NORM_H_
#define POLYHAL_CORE_REFERENCE_BATCH_NORM_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Evaluates the three batch-norm ops with the formulas of the StableHLO
// specification (training uses the biased variance). Every intermediate is
// computed in double and each result is rounded once to its element type.
StatusOr<Literal> EvaluateBatchNorm(const HloInstruction& instruction,
                                    std::span<const Literal* const> operands);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_BATCH_NORM_H_
