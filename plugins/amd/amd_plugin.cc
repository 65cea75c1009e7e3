// The plugin's entry point and its vendor: the GPU plugin layer
// (sdk/gpu_plugin) builds phal_plugin_entry and every slot (ABI 1.0 to
// 1.4) from the HIP runtime's and the emulator's drivers and the AMDGPU
// compiler named here.
#include "plugins/amd/amd_plugin.h"

#include "plugins/amd/amd_emulator.h"
#include "sdk/gpu_plugin/gpu_plugin.h"

namespace phal::amd {

constexpr gpu_plugin::GpuVendorNames kNames = {
    .name = "amd",
    .vendor_name = "AMD",
    .api_name = "HIP",
    .serialization_magic = "PHALAMK1",
};

}  // namespace phal::amd

PHAL_GPU_PLUGIN_DEFINE_VENDOR(phal::amd, kNames, HipDriver, GetHip, EmulatedHip)

PHAL_GPU_PLUGIN_DEFINE_ENTRY()
