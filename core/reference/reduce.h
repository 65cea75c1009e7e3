// Reductions in the reference interpreter: reduce, reduce-window and
// select-and-scatter. Called computations run once per element through
// ScalarFunction; reductions visit elements in row-major order of the
// reduced (or window) index space, starting from the init values.
#ifndef POLYHAL_CORE_REFERENCE_REDUCE_H_
#define POLYHAL_CORE_REFERENCE_REDUCE_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Variadic reduce: operands are N inputs then N init values; the result is
// an array for N == 1 and a tuple otherwise.
StatusOr<Literal> EvaluateReduce(const HloInstruction& instruction,
                                 std::span<const Literal* const> operands,
                                 ComputationRunner* runner);

// Variadic reduce-window with strides, padding and base/window dilation.
// Padding and the holes of base dilation read as the init value, as the
// StableHLO specification defines them.
StatusOr<Literal> EvaluateReduceWindow(const HloInstruction& instruction,
                                       std::span<const Literal* const> operands,
                                       ComputationRunner* runner);

// select-and-scatter (operand, source, init value): in each window the
// select computation picks an element of the operand (padding never wins)
// and the source element is combined into the result there.
StatusOr<Literal> EvaluateSelectAndScatter(
    const HloInstruction& instruction, std::span<const Literal* const> operands,
    ComputationRunner* runner);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_REDUCE_H_
