// What the kernel emitter asks of the target it emits for. The host CPU is
// one implementation (host_cpu_target.h); a GPU target would answer with its
// own triple and indexing.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_TARGET_HOOKS_H_
#define POLYHAL_SDK_EMITTERS_LLVM_TARGET_HOOKS_H_

#include <string>

#include "polyhal/kernel.h"
#include "sdk/emitters/llvm/module_target.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

class TargetHooks : public ModuleTarget {
 public:
  // True when the runtime computes the sums of a DOT accumulating in `type`
  // with a GEMM library (see LaunchPlan::gemm), so the kernel may take them
  // from `dot_sums`.
  virtual bool HasGemm(phal_element_type_t type) const = 0;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_TARGET_HOOKS_H_
