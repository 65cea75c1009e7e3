// The correspondence between HLO opcodes of scalar operations and KIR node
// ops. Both directions are needed: the partitioner lowers HLO to KIR, and
// the KIR evaluator evaluates KIR nodes with the reference interpreter's
// implementation of the HLO op of the same semantics.
#ifndef POLYHAL_CORE_COMPILER_KIR_OPS_H_
#define POLYHAL_CORE_COMPILER_KIR_OPS_H_

#include <optional>

#include "core/hlo/comparison.h"
#include "core/hlo/opcode.h"
#include "polyhal/kernel.h"

namespace phal {

// The KIR op computing what the elementwise HLO `opcode` computes; nullopt
// for opcodes KIR has no node for (map, and every non-elementwise op).
std::optional<phal_kir_op_t> KirOpForOpcode(HloOpcode opcode);
// The inverse, for ops other than the leaves (constant, index, read,
// parameter).
std::optional<HloOpcode> OpcodeForKirOp(phal_kir_op_t op);

phal_kir_comparison_direction_t KirComparisonDirection(
    ComparisonDirection direction);
ComparisonDirection HloComparisonDirection(int64_t direction);
// `type` must not be kDefault (use EffectiveComparisonType()).
phal_kir_comparison_type_t KirComparisonType(ComparisonType type);
ComparisonType HloComparisonType(int64_t type);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_KIR_OPS_H_
