// The plugin's entry point and its vendor: the GPU plugin layer
// (sdk/gpu_plugin) builds phal_plugin_entry and every slot (ABI 1.0 to
// 1.4) from the CUDA driver's and the emulator's tables and the NVPTX
// compiler named here.
#include "plugins/nvidia/nvidia_plugin.h"

#include "plugins/nvidia/nvidia_emulator.h"
#include "sdk/gpu_plugin/gpu_plugin.h"

namespace phal::nvidia {
namespace {

StatusOr<const gpu_plugin::GpuDriver*> Runtime() {
  PHAL_ASSIGN_OR_RETURN(const Cuda* cuda, GetCuda());
  // GetCuda answers the same table for the process's life.
  static const CudaDriver* driver = new CudaDriver(*cuda, false);
  return driver;
}

const gpu_plugin::GpuDriver& Emulator() {
  static const CudaDriver* driver = new CudaDriver(EmulatedCuda(), true);
  return *driver;
}

constexpr gpu_plugin::GpuVendor kVendor = {
    .name = "nvidia",
    .vendor_name = "NVIDIA",
    .api_name = "CUDA",
    .version = PHAL_PLUGIN_VERSION,
    .serialization_magic = "PHALNVK1",
    .targets = kTargets,
    .runtime = Runtime,
    .emulator = Emulator,
    .compile_only_info = CompileOnlyInfo,
    .target_name = KernelTarget,
    .compile = CompileKernel,
    .dump = DumpKernel,
};

}  // namespace
}  // namespace phal::nvidia

const phal::gpu_plugin::GpuVendor& phal::gpu_plugin::Vendor() {
  return nvidia::kVendor;
}

PHAL_GPU_PLUGIN_DEFINE_ENTRY()
