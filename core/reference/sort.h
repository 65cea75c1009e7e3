// sort in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_SORT_H_
#define POLYHAL_CORE_REFERENCE_SORT_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Sorts N operands of equal dimensions together along the instruction's
// dimension with its comparator (parameters lhs_0, rhs_0, lhs_1, rhs_1,
// ...; true when lhs goes first). The sort is always stable (a merge sort),
// which also satisfies is_stable=false, and stays within bounds even when
// the comparator is not a strict weak order. The result is an array for
// N == 1 and a tuple otherwise.
StatusOr<Literal> EvaluateSort(const HloInstruction& instruction,
                               std::span<const Literal* const> operands,
                               ComputationRunner* runner);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_SORT_H_
