// Elementwise HLO ops in the reference interpreter: unary and binary
// arithmetic, compare, select, clamp, convert, bitcast-convert and
// reduce-precision. docs/hlo.md ("Reference semantics") lists the choices
// made where the StableHLO specification leaves a result open.
#ifndef POLYHAL_CORE_REFERENCE_ELEMENTWISE_H_
#define POLYHAL_CORE_REFERENCE_ELEMENTWISE_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Evaluates `instruction`, whose opcode is elementwise (IsElementwise()) and
// not map, on `operands` into `result`, which already has the instruction's
// shape. Operands have the result's dimensions, except that select's
// predicate and clamp's bounds may be scalars, which broadcast.
// bitcast-convert between types of different widths is also accepted here.
Status EvaluateElementwise(const HloInstruction& instruction,
                           std::span<const Literal* const> operands,
                           Literal* result);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_ELEMENTWISE_H_
