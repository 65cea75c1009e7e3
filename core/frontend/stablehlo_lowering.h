// Lowering of a parsed StableHLO program (mlir_syntax.h) into HLO IR: each
// function becomes a computation, each region a called computation, each
// op the HLO instructions with its semantics (chlo ops through
// chlo_decompositions.h), and each check an extra function output with a
// CheckSpec. Values a region uses from outside are passed in explicitly:
// through the loop state of a while, the operand of a conditional branch, or
// as copied constants in reducers and comparators.
#ifndef POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_H_
#define POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_H_

#include "core/frontend/mlir_syntax.h"
#include "core/frontend/source_text.h"
#include "core/frontend/stablehlo_module.h"
#include "sdk/base/status.h"

namespace phal {

// Errors name the op and its file:line:column in `source`.
StatusOr<StableHloModule> LowerStableHlo(const MlirModule& module,
                                         const SourceText& source);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_H_
