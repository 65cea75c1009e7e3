// The ops whose result depends on the process a program runs as: the
// collectives, replica-id and partition-id. The compiler does not turn them
// into kernels: each becomes a step of the plan (StepKind::kProcessOp) that
// the executor runs with its process, through a module of its own.
#ifndef POLYHAL_CORE_COMPILER_PROCESS_OPS_H_
#define POLYHAL_CORE_COMPILER_PROCESS_OPS_H_

#include <memory>

#include "core/hlo/instruction.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// True for the collectives (IsCollective, process_groups.h), replica-id and
// partition-id.
bool IsProcessOp(HloOpcode opcode);

// A module holding `op` alone on the grid of `module` (the module that
// holds it): an entry computation whose parameters are the op's operands,
// in order, and whose root is a copy of the op with every attribute, and
// copies of the computations it calls (its reduction). Verified.
StatusOr<std::unique_ptr<HloModule>> ExtractProcessOp(const HloModule& module,
                                                      const HloInstruction& op);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_PROCESS_OPS_H_
