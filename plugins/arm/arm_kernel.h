// Kernels: KIR printed as GLSL compute by the source emitter's GLSL dialect,
// compiled to SPIR-V with shaderc (cached on disk by the GLSL's hash) and
// built into a compute pipeline through the device's VkPipelineCache (saved
// to disk when the device closes).
#ifndef POLYHAL_PLUGINS_ARM_ARM_KERNEL_H_
#define POLYHAL_PLUGINS_ARM_ARM_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "plugins/arm/arm_device.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/source_emitter.h"

namespace phal::arm {

// Immutable once built: launched from any number of streams at once.
struct CompiledKernel {
  explicit CompiledKernel(const Device& d) : device(d) {}
  ~CompiledKernel();
  CompiledKernel(const CompiledKernel&) = delete;
  CompiledKernel& operator=(const CompiledKernel&) = delete;

  // Creates the pipeline from `spirv`.
  Status Build();

  const Device& device;
  std::string name;
  source_emitter::LaunchShape launch;
  std::vector<uint64_t> buffer_bytes;  // each binding's bytes, in order
  std::vector<uint32_t> spirv;
  uint32_t bindings = 0;  // the buffers, and the scratch buffer if any
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

}  // namespace phal::arm

struct phal_plugin_kernel final : phal::arm::CompiledKernel {
  using CompiledKernel::CompiledKernel;
};

#endif  // POLYHAL_PLUGINS_ARM_ARM_KERNEL_H_
