// Data-movement HLO ops in the reference interpreter: ops that only move,
// duplicate or create elements (broadcast, reshape, bitcast, transpose,
// slice, dynamic-slice, dynamic-update-slice, pad, concatenate, reverse,
// iota, copy).
#ifndef POLYHAL_CORE_REFERENCE_DATA_MOVEMENT_H_
#define POLYHAL_CORE_REFERENCE_DATA_MOVEMENT_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// True for the opcodes EvaluateDataMovement handles.
bool IsDataMovement(HloOpcode opcode);

// Evaluates the data-movement `instruction` on `operands`.
StatusOr<Literal> EvaluateDataMovement(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands);

// Element `element` of the integer array `literal` (any integer type) read
// as an index; u64 values beyond INT64_MAX read as INT64_MAX.
int64_t ReadIndex(const Literal& literal, int64_t element);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_DATA_MOVEMENT_H_
