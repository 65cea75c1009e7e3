// The host CPU as an LLVM target: its triple and the ISA features it
// actually has (llvm::sys::getHostCPUFeatures, which reads cpuid or HWCAP;
// the CPU name reads "generic" in many VMs, so features are what count),
// an O3 pipeline, and code generation into a relocatable object file a JIT
// loads.
//
// PHAL_CPU_TARGET=<LLVM processor name> (haswell, znver2, x86-64-v3,
// neoverse-n1, ...) compiles for that processor instead: its features and
// tuning, so that a machine runs kernels as one of that kind would. The
// host must have every feature the processor has.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_HOST_CPU_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_HOST_CPU_TARGET_H_

#include <memory>
#include <string>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/target_hooks.h"

namespace llvm {
class Target;
}  // namespace llvm

namespace phal::llvm_emitter {

// The environment variable naming the processor to compile for.
inline constexpr char kCpuTargetVariable[] = "PHAL_CPU_TARGET";

// Immutable after Create: every method may run on many threads at once.
class HostCpuTarget final : public TargetHooks {
 public:
  // Initialises LLVM's native target (x86-64 or AArch64) once per process.
  // `has_gemm` says whether the runtime computes f32/f64 dot sums with a
  // GEMM library. INVALID_ARGUMENT when PHAL_CPU_TARGET names a processor
  // LLVM does not know or the host cannot run.
  static StatusOr<std::unique_ptr<HostCpuTarget>> Create(bool has_gemm);

  void ConfigureModule(llvm::Module& module) const override;
  bool HasGemm(phal_element_type_t type) const override;
  bool HasHalfConversions() const override;

  // Optimises `module` (level 0-3; 3 is LLVM's O3 pipeline) and compiles it
  // into an ELF/Mach-O object for this CPU.
  StatusOr<std::string> Compile(llvm::Module& module,
                                unsigned optimization_level) const;

  const std::string& triple() const { return triple_; }
  const std::string& cpu_name() const { return cpu_name_; }
  // "+avx2,+fma,-avx512f,...": every feature LLVM knows, on or off.
  const std::string& features() const { return features_; }

 private:
  HostCpuTarget(const llvm::Target* target, std::string triple,
                std::string cpu_name, std::string features, bool has_gemm)
      : target_(target),
        triple_(std::move(triple)),
        cpu_name_(std::move(cpu_name)),
        features_(std::move(features)),
        has_gemm_(has_gemm) {}

  const llvm::Target* target_;
  std::string triple_;
  std::string cpu_name_;
  std::string features_;
  bool has_gemm_;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_HOST_CPU_TARGET_H_
