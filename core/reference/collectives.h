// What the collective ops compute for one process from the operands of its
// group's processes, as the StableHLO specification prescribes (section
// "Collective ops"): all-reduce, all-gather, reduce-scatter, all-to-all and
// collective-broadcast. Which processes form the group comes from
// core/hlo/process_groups.h; how they meet, from collective_rendezvous.h.
#ifndef POLYHAL_CORE_REFERENCE_COLLECTIVES_H_
#define POLYHAL_CORE_REFERENCE_COLLECTIVES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

// The opcode of a reduction computation that is one binary op of its two
// parameters (add, multiply, maximum, ...), else nullopt: the reductions
// that can run without calling the computation.
std::optional<HloOpcode> PlainReducer(const HloComputation& reducer);

// The result of `instruction` at the process in position `member` of its
// group, where group_operands[j] holds the operands of the group's j-th
// process. all-reduce and reduce-scatter combine the group's values in
// group order, ((x0 + x1) + x2) + ..., with to_apply run by `runner`, so
// every member and every run gets the same bits. Several operands give a
// tuple, each operand treated on its own (the tuple form of all-to-all
// sends operand i to member i instead).
StatusOr<Literal> EvaluateGroupCollective(
    const HloInstruction& instruction, int64_t member,
    std::span<const std::vector<Literal>* const> group_operands,
    ComputationRunner* runner);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_COLLECTIVES_H_
