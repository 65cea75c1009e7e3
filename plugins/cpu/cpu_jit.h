// The plugin's compiler and loader: KIR -> LLVM IR (sdk/emitters/llvm) -> O3
// -> an object file for the host CPU, and object files -> callable code in
// the toolkit's process-wide JIT (host_jit.h). The only files of the plugin
// that include LLVM headers are cpu_jit.cc and the toolkit's own.
#ifndef POLYHAL_PLUGINS_CPU_CPU_JIT_H_
#define POLYHAL_PLUGINS_CPU_CPU_JIT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

class FftKernel;
class LinalgKernel;

// What a kernel's code is made for; compiled code for one target never runs
// on another.
struct JitTarget {
  std::string triple;
  std::string features;
};

struct CompiledKernel {
  std::string object;  // a relocatable object file defining kKernelSymbol
  llvm_emitter::LaunchPlan plan;
};

// Code loaded into the JIT, unloaded when its last holder lets go.
struct LoadedKernel {
  llvm_emitter::KernelFunction function = nullptr;
  uint64_t library_id = 0;
};

// A kernel blob decoded and its code loaded: what every kernel emitted or
// deserialized from the same blob shares. An FFT kernel has no code but
// the plugin's transform with its plans (cpu_fft.h), a LINALG kernel the
// plugin's LAPACK calls (cpu_linalg.h).
struct LinkedKernel {
  std::string name;
  llvm_emitter::LaunchPlan plan;
  std::shared_ptr<const std::string> blob;  // the kernel_serialize bytes
  std::shared_ptr<const LoadedKernel> code;
  std::shared_ptr<const FftKernel> fft;
  std::shared_ptr<const LinalgKernel> linalg;
};

// The host CPU target, detected once. Fails when LLVM has no backend for it.
StatusOr<JitTarget> HostJitTarget();

// Emits and compiles `kernel` at `optimization_level` (0-3). With
// `optimized_ir`, also prints the module as LLVM IR text after the
// optimisation pipeline that produced the object: the kernel's dump for the
// dump directory of kernel_emit (plugin.h, ABI 1.4).
StatusOr<CompiledKernel> CompileKernel(const phal_kernel_desc_t& kernel,
                                       unsigned optimization_level,
                                       std::string* optimized_ir = nullptr);

// Links `object` into a library of its own, resolving calls against the
// toolkit's runtime functions only.
StatusOr<std::shared_ptr<const LoadedKernel>> LoadKernel(
    std::string_view object);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_JIT_H_
