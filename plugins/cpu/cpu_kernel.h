// Kernels: KIR compiled to native code (cpu_jit.h), cached
// (cpu_kernel_cache.h), serialized (cpu_kernel_blob.h), and launched on a
// stream, whose worker splits the kernel's outer range over the device's
// thread pool; FFT kernels are the plugin's own transform (cpu_fft.h).
#ifndef POLYHAL_PLUGINS_CPU_CPU_KERNEL_H_
#define POLYHAL_PLUGINS_CPU_CPU_KERNEL_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "plugins/cpu/cpu_device.h"
#include "plugins/cpu/cpu_jit.h"
#include "plugins/cpu/cpu_thread_pool.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

// Immutable once built: launches from many streams may run it at once.
class Kernel {
 public:
  explicit Kernel(std::shared_ptr<const LinkedKernel> linked)
      : linked_(std::move(linked)) {}
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // Runs the whole kernel over `buffers` (base addresses, in the order of
  // the KIR's buffers), on `pool` and the calling thread.
  Status Run(std::span<void* const> buffers, ThreadPool& pool) const;

  const std::string& name() const { return linked_->name; }
  const llvm_emitter::LaunchPlan& plan() const { return linked_->plan; }
  // The kernel_serialize bytes.
  const std::string& blob() const { return *linked_->blob; }

 private:
  // Shared with the device's kernel cache and the other kernels emitted
  // from the same KIR.
  std::shared_ptr<const LinkedKernel> linked_;
};

// The kernel kinds kernel_emit compiles (PHAL_KERNEL_KIND_BIT mask): the
// LLVM emitter's, and FFT (ABI 1.6), which the plugin runs itself
// (cpu_fft.h).
uint64_t CompiledKernelKinds();

}  // namespace phal::cpu

struct phal_plugin_kernel final : phal::cpu::Kernel {
  using Kernel::Kernel;
  const phal::cpu::Device* device = nullptr;
};

#endif  // POLYHAL_PLUGINS_CPU_CPU_KERNEL_H_
