// What every target of the LLVM emitters does before anything is emitted:
// set the module's triple and data layout. The host CPU's hooks
// (target_hooks.h) and the SPMD targets (spmd_target.h) both are one.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_MODULE_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_MODULE_TARGET_H_

namespace llvm {
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

class ModuleTarget {
 public:
  virtual ~ModuleTarget() = default;
  // Sets the module's triple and data layout before anything is emitted.
  virtual void ConfigureModule(llvm::Module& module) const = 0;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_MODULE_TARGET_H_
