// Kernels: KIR emitted by the LLVM toolkit's SPMD emitter
// (sdk/emitters/llvm/spmd_kernel_emitter.h), compiled for the device's gfx
// architecture by the AMDGPU target into a code object (HSACO) loaded with
// hipModuleLoadData, or, on the emulated device, compiled for the grid
// emulator with wavefronts of 64 and loaded by the emulator's runtime.
// Each distinct kernel is compiled once per process and kept in the disk
// cache across processes.
#ifndef POLYHAL_PLUGINS_AMD_AMD_KERNEL_H_
#define POLYHAL_PLUGINS_AMD_AMD_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "plugins/amd/amd_device.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::amd {

// PHAL_KERNEL_KIND_BIT mask of the kinds the plugin compiles.
uint64_t SupportedKernelKinds();

// Immutable once loaded: launched from any number of streams at once.
struct CompiledKernel {
  explicit CompiledKernel(const Device& d) : device(d) {}
  ~CompiledKernel();
  CompiledKernel(const CompiledKernel&) = delete;
  CompiledKernel& operator=(const CompiledKernel&) = delete;

  // Loads `image` on the device and finds the kernel function (nothing on
  // a compile-only device, whose kernels exist to be serialized).
  Status Load();

  const Device& device;
  std::string name;
  llvm_emitter::SpmdLaunch launch;
  std::vector<uint64_t> buffer_bytes;  // each binding's bytes, in order
  // The code object for a GPU; the emulator's module image on the
  // emulated device.
  std::string image;
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
};

}  // namespace phal::amd

struct phal_plugin_kernel final : phal::amd::CompiledKernel {
  using CompiledKernel::CompiledKernel;
};

#endif  // POLYHAL_PLUGINS_AMD_AMD_KERNEL_H_
