// Kernels: KIR emitted by the LLVM toolkit's SPMD emitter
// (sdk/emitters/llvm/spmd_kernel_emitter.h), compiled to PTX for the
// device's compute capability by the NVPTX target and loaded with
// cuModuleLoadDataEx, or, on the emulated device, compiled for the grid
// emulator and loaded by the emulator's driver. Each distinct kernel is
// compiled once per process and kept in the disk cache across processes.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_KERNEL_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "plugins/nvidia/nvidia_device.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::nvidia {

// PHAL_KERNEL_KIND_BIT mask of the kinds the plugin compiles.
uint64_t SupportedKernelKinds();

// Immutable once loaded: launched from any number of streams at once.
struct CompiledKernel {
  explicit CompiledKernel(const Device& d) : device(d) {}
  ~CompiledKernel();
  CompiledKernel(const CompiledKernel&) = delete;
  CompiledKernel& operator=(const CompiledKernel&) = delete;

  // Loads `image` into the device's context and finds the kernel function;
  // nothing on a compile-only device.
  Status Load();

  const Device& device;
  std::string name;
  llvm_emitter::SpmdLaunch launch;
  std::vector<uint64_t> buffer_bytes;  // each binding's bytes, in order
  // PTX text for a GPU; the emulator's module image on the emulated device.
  std::string image;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

}  // namespace phal::nvidia

struct phal_plugin_kernel final : phal::nvidia::CompiledKernel {
  using CompiledKernel::CompiledKernel;
};

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_KERNEL_H_
