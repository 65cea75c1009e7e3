// chlo.sinh, chlo.cosh, chlo.asinh, chlo.acosh and chlo.atanh of real
// operands as CHLO defines them: by their expansion into StableHLO ops,
// the one the StableHLO project applies before it interprets or
// serializes a program (`stablehlo-opt --chlo-pre-serialization-pipeline`).
// A StableHLO program's chlo op therefore computes those formulas, each op
// rounded in the operand's precision (in f32 for f16 and bf16 operands of
// sinh and cosh), and not the correctly rounded function. Complex operands,
// and the HLO opcodes sinh, ..., atanh of HLO text, keep the exact
// functions. docs/stablehlo.md gives the formulas.
#ifndef POLYHAL_CORE_FRONTEND_CHLO_HYPERBOLIC_FUNCTIONS_H_
#define POLYHAL_CORE_FRONTEND_CHLO_HYPERBOLIC_FUNCTIONS_H_

#include <string>

#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// Whether `name` is one of the five ops and `x` a floating-point operand.
bool ExpandsAsChloDefines(const std::string& name, const HloInstruction* x);

// The op `name` of the floating-point `x` as StableHLO ops added to
// `builder`.
StatusOr<HloInstruction*> ExpandChloHyperbolicFunction(const std::string& name,
                                                       HloBuilder& builder,
                                                       HloInstruction* x);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_CHLO_HYPERBOLIC_FUNCTIONS_H_
