// The HLO verifier: checks that a module is well formed before anything
// compiles or interprets it, so later stages may rely on it.
#ifndef POLYHAL_CORE_HLO_VERIFIER_H_
#define POLYHAL_CORE_HLO_VERIFIER_H_

#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// OK when `module` is well formed; otherwise an INVALID_ARGUMENT error that
// names the computation and instruction at fault and says why. Checks:
//   - the module has an entry computation and unique computation names;
//     every called computation belongs to the module; no computation calls
//     itself directly or indirectly;
//   - each computation has a root among its instructions, parameters
//     numbered 0..n-1 without gaps, unique instruction names, and operands
//     from the same computation placed before their users;
//   - each instruction has the operand count, element types, attributes and
//     called-computation signatures its opcode requires, and its stated
//     shape equals the one InferShape() derives (layouts aside).
Status VerifyModule(const HloModule& module);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_VERIFIER_H_
