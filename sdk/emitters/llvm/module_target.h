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
  // True when rounding f32 to f16 is an instruction of the target (x86-64
  // with F16C, AArch64), so kernels narrow with LLVM's `half` type (its NaN
  // keeps the leading payload bits, made quiet); otherwise with integer
  // arithmetic of the same results. Widening stays integer arithmetic
  // everywhere: the instructions would quiet a signalling NaN.
  virtual bool HasHalfConversions() const { return false; }
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_MODULE_TARGET_H_
