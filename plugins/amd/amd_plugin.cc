// The plugin's entry point and its vendor: the GPU plugin layer
// (sdk/gpu_plugin) builds phal_plugin_entry and every slot (ABI 1.0 to
// 1.4) from the HIP runtime's and the emulator's drivers and the AMDGPU
// compiler named here.
#include "plugins/amd/amd_plugin.h"

#include "plugins/amd/amd_emulator.h"
#include "sdk/gpu_plugin/gpu_plugin.h"

namespace phal::amd {
namespace {

StatusOr<const gpu_plugin::GpuDriver*> Runtime() {
  PHAL_ASSIGN_OR_RETURN(const Hip* hip, GetHip());
  // GetHip answers the same table for the process's life.
  static const HipDriver* driver = new HipDriver(*hip, false);
  return driver;
}

const gpu_plugin::GpuDriver& Emulator() {
  static const HipDriver* driver = new HipDriver(EmulatedHip(), true);
  return *driver;
}

constexpr gpu_plugin::GpuVendor kVendor = {
    .name = "amd",
    .vendor_name = "AMD",
    .api_name = "HIP",
    .version = PHAL_PLUGIN_VERSION,
    .serialization_magic = "PHALAMK1",
    .targets = kTargets,
    .runtime = Runtime,
    .emulator = Emulator,
    .compile_only_info = CompileOnlyInfo,
    .target_name = KernelTarget,
    .compile = CompileKernel,
    .dump = DumpKernel,
};

}  // namespace
}  // namespace phal::amd

const phal::gpu_plugin::GpuVendor& phal::gpu_plugin::Vendor() {
  return amd::kVendor;
}

PHAL_GPU_PLUGIN_DEFINE_ENTRY()
