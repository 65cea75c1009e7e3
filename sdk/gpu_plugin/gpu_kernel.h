// Kernels: KIR emitted by the LLVM toolkit's SPMD emitter and compiled by
// the vendor (GpuVendor::Compile) for the device's target, or, on the
// emulated device, for the grid emulator, then loaded by the device's
// driver. Each distinct kernel is compiled once per process and kept in
// the disk cache across processes; serialized kernels carry the plugin's
// version and target and load only where both match.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_KERNEL_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"
#include "sdk/gpu_plugin/gpu_device.h"

namespace phal::gpu_plugin {

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
  // The vendor compiler's image for a GPU; the emulator's module image on
  // the emulated device.
  std::string image;
  GpuModule module = nullptr;
  GpuFunction function = nullptr;
};

}  // namespace phal::gpu_plugin

struct phal_plugin_kernel final : phal::gpu_plugin::CompiledKernel {
  using CompiledKernel::CompiledKernel;
};

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_KERNEL_H_
