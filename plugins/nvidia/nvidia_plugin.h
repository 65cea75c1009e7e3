// The nvidia plugin on the GPU plugin layer (sdk/gpu_plugin): the CUDA
// driver API, or the grid emulator's table of the same entry points
// (nvidia_emulator.h), behind the layer's GpuDriver, and the NVPTX compiler
// behind its GpuVendor. The layer writes every slot; the methods of
// CudaDriver are defined in the concept file each belongs to.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_PLUGIN_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_PLUGIN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "plugins/nvidia/nvidia_cuda.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_driver.h"

namespace phal::nvidia {

using gpu_plugin::GpuAddress;
using gpu_plugin::GpuDeviceInfo;
using gpu_plugin::GpuEvent;
using gpu_plugin::GpuFunction;
using gpu_plugin::GpuModule;
using gpu_plugin::GpuPlace;
using gpu_plugin::GpuStream;

// The targets the plugin compiles for without a GPU (plugin.h,
// target_get_names): PTX for a compute capability, the default sm_80 (the
// A100's, the common data-centre baseline) first, and emulated-sm_90, the
// emulated device's host code, which `polyhal run` loads on it
// (PHAL_GPU_EMULATION=1). Serialized kernels load only on a device of the
// target they were compiled for.
inline constexpr const char* kTargets[] = {"sm_80", "sm_75", "sm_86",
                                           "sm_89", "sm_90", "emulated-sm_90"};

// A CUDA driver table as the layer's driver. Each open device retains its
// primary context, the one every CUDA runtime user of the process shares,
// so buffers the plugin allocates are valid there too; Enter pushes it.
class CudaDriver final : public gpu_plugin::GpuDriver {
 public:
  CudaDriver(const Cuda& cuda, bool emulated)
      : cuda_(cuda), emulated_(emulated) {}

  // Each defined in the concept file of its kind (Enter and the device
  // listing in nvidia_device.cc, Allocate in nvidia_memory.cc, ...).
  PHAL_GPU_DRIVER_OVERRIDES()
  // NCCL's, or the emulator's NCCL for the emulated devices
  // (nvidia_nccl.cc).
  const gpu_plugin::GpuCollectiveLibrary* CollectiveLibrary() const override;

 private:
  // OK, or why `result` of `what` failed, with the driver's names.
  Status Check(CUresult result, const std::string& what) const {
    return CudaStatus(cuda_, result, what);
  }

  const Cuda& cuda_;
  bool emulated_;
};

// What a compile-only device of `target` reports (nvidia_device.cc).
GpuDeviceInfo CompileOnlyInfo(std::string_view target);

// The compiler (nvidia_kernel.cc): what a device's kernels are compiled
// for ("ptx sm_90", "grid emulator sm_90"), a kernel compiled for it, and
// its PTX as <kernel>.ptx.
std::string KernelTarget(const GpuDeviceInfo& device);
StatusOr<gpu_plugin::GpuImage> CompileKernel(const phal_kernel_desc_t& kernel,
                                             const GpuDeviceInfo& device);
Status DumpKernel(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
                  const std::string& image, std::string_view directory,
                  const std::string& name);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_PLUGIN_H_
