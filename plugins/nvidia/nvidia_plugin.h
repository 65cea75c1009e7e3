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

  // nvidia_device.cc
  std::string Description() const override;
  std::string PropertiesVersion() const override;
  std::string FeaturesVersion() const override;
  Status CountDevices(int* out_count) const override;
  Status ReadDevice(int ordinal, GpuDeviceInfo* out) const override;
  Status OpenDevice(int device, void** out_context) const override;
  void CloseDevice(int device) const override;
  Status Enter(const GpuPlace& place, intptr_t* out_saved) const override;
  void Leave(const GpuPlace& place, intptr_t saved) const override;

  // nvidia_memory.cc
  Status Allocate(uint64_t bytes, GpuAddress* out) const override;
  void Free(GpuAddress address) const override;

  // nvidia_copy.cc
  Status CopyHostToDevice(GpuAddress destination, const void* source,
                          uint64_t bytes, GpuStream stream) const override;
  Status CopyDeviceToHost(void* destination, GpuAddress source, uint64_t bytes,
                          GpuStream stream) const override;
  Status CopyDeviceToDevice(GpuAddress destination, GpuAddress source,
                            uint64_t bytes, GpuStream stream) const override;
  bool HasPeerCopy() const override;
  Status CopyPeer(GpuAddress destination, const GpuPlace& to, GpuAddress source,
                  const GpuPlace& from, uint64_t bytes,
                  GpuStream stream) const override;

  // nvidia_stream.cc
  Status CreateStream(GpuStream* out) const override;
  void DestroyStream(GpuStream stream) const override;
  Status SynchronizeStream(GpuStream stream) const override;
  Status StreamWaitEvent(GpuStream stream, GpuEvent event) const override;

  // nvidia_event.cc
  Status CreateEvent(GpuEvent* out) const override;
  void DestroyEvent(GpuEvent event) const override;
  Status RecordEvent(GpuEvent event, GpuStream stream) const override;
  Status SynchronizeEvent(GpuEvent event) const override;
  StatusOr<bool> QueryEvent(GpuEvent event) const override;

  // nvidia_kernel.cc
  Status LoadModule(const std::string& image, const std::string& kernel,
                    GpuModule* out) const override;
  void UnloadModule(GpuModule module) const override;
  Status GetFunction(GpuModule module, const char* symbol,
                     const std::string& kernel,
                     GpuFunction* out) const override;
  Status Launch(GpuFunction function, const uint32_t grid[3],
                const uint32_t block[3], uint32_t shared_bytes,
                GpuStream stream, void** parameters) const override;

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
