// The plugin's entry point and its vendor: the GPU plugin layer
// (sdk/gpu_plugin) builds phal_plugin_entry and every slot (ABI 1.0 to
// 1.4) from the CUDA driver's and the emulator's tables and the NVPTX
// compiler named here.
#include "plugins/nvidia/nvidia_plugin.h"

#include "plugins/nvidia/nvidia_emulator.h"
#include "sdk/gpu_plugin/gpu_plugin.h"

namespace phal::nvidia {

constexpr gpu_plugin::GpuVendorNames kNames = {
    .name = "nvidia",
    .vendor_name = "NVIDIA",
    .api_name = "CUDA",
    .serialization_magic = "PHALNVK1",
};

}  // namespace phal::nvidia

PHAL_GPU_PLUGIN_DEFINE_VENDOR(phal::nvidia, kNames, CudaDriver, GetCuda,
                              EmulatedCuda)

PHAL_GPU_PLUGIN_DEFINE_ENTRY()
