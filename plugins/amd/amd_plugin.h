// The amd plugin on the GPU plugin layer (sdk/gpu_plugin): the HIP runtime,
// or the grid emulator's table of the same entry points (amd_emulator.h),
// behind the layer's GpuDriver, and the AMDGPU compiler behind its
// GpuVendor. The layer writes every slot; the methods of HipDriver are
// defined in the concept file each belongs to.
#ifndef POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_
#define POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "plugins/amd/amd_hip.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_driver.h"

namespace phal::amd {

using gpu_plugin::GpuAddress;
using gpu_plugin::GpuDeviceInfo;
using gpu_plugin::GpuEvent;
using gpu_plugin::GpuFunction;
using gpu_plugin::GpuModule;
using gpu_plugin::GpuPlace;
using gpu_plugin::GpuStream;

// The targets the plugin compiles for without a GPU (plugin.h,
// target_get_names): code objects for CDNA (gfx90a, the default: MI200;
// gfx908: MI100; gfx940: MI300, as LLVM 16 names it) and RDNA (gfx1030,
// gfx1100), and emulated-gfx90a, the emulated device's host code, which
// `polyhal run` loads on it (PHAL_GPU_EMULATION=1). Serialized kernels
// load only on a device of the target they were compiled for.
inline constexpr const char* kTargets[] = {
    "gfx90a", "gfx908", "gfx940", "gfx1030", "gfx1100", "emulated-gfx90a"};

// A HIP table as the layer's driver. HIP acts on the calling thread's
// current device, which Enter sets (and Leave restores).
class HipDriver final : public gpu_plugin::GpuDriver {
 public:
  HipDriver(const Hip& hip, bool emulated) : hip_(hip), emulated_(emulated) {}

  // Each defined in the concept file of its kind (Enter and the device
  // listing in amd_device.cc, Allocate in amd_memory.cc, ...).
  PHAL_GPU_DRIVER_OVERRIDES()

 private:
  // OK, or why `result` of `what` failed, with the runtime's names.
  Status Check(hipError_t result, const std::string& what) const {
    return HipStatus(hip_, result, what);
  }

  const Hip& hip_;
  bool emulated_;
};

// A device address as HIP's pointer.
inline void* DevicePointer(GpuAddress address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

// What a compile-only device of `target` reports (amd_device.cc).
GpuDeviceInfo CompileOnlyInfo(std::string_view target);

// The compiler (amd_kernel.cc): what a device's kernels are compiled for
// ("hsaco gfx90a", "grid emulator gfx90a"), a kernel compiled for it, and
// its code object and assembly as <kernel>.hsaco and <kernel>.s.
std::string KernelTarget(const GpuDeviceInfo& device);
StatusOr<gpu_plugin::GpuImage> CompileKernel(const phal_kernel_desc_t& kernel,
                                             const GpuDeviceInfo& device);
Status DumpKernel(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
                  const std::string& image, std::string_view directory,
                  const std::string& name);

}  // namespace phal::amd

#endif  // POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_
