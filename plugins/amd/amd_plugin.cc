// The plugin's entry point and its vendor: the GPU plugin layer
// (sdk/gpu_plugin) builds phal_plugin_entry and every slot (ABI 1.0 to
// 1.4) from the HIP runtime's and the emulator's drivers and the AMDGPU
// compiler named here.
#include "plugins/amd/amd_plugin.h"

#include <span>
#include <string>
#include <string_view>

#include "plugins/amd/amd_emulator.h"
#include "sdk/gpu_plugin/gpu_plugin.h"

namespace phal::amd {
namespace {

class AmdVendor final : public gpu_plugin::GpuVendor {
 public:
  const char* Name() const override { return "amd"; }
  const char* VendorName() const override { return "AMD"; }
  const char* ApiName() const override { return "HIP"; }
  const char* Version() const override { return PHAL_PLUGIN_VERSION; }
  std::string_view SerializationMagic() const override { return "PHALAMK1"; }
  std::span<const char* const> Targets() const override { return kTargets; }

  StatusOr<const gpu_plugin::GpuDriver*> Runtime() const override {
    PHAL_ASSIGN_OR_RETURN(const Hip* hip, GetHip());
    // GetHip answers the same table for the process's life.
    static const HipDriver* driver = new HipDriver(*hip, false);
    return driver;
  }
  const gpu_plugin::GpuDriver& Emulator() const override {
    static const HipDriver* driver = new HipDriver(EmulatedHip(), true);
    return *driver;
  }

  GpuDeviceInfo CompileOnlyInfo(std::string_view target) const override {
    return amd::CompileOnlyInfo(target);
  }
  std::string TargetName(const GpuDeviceInfo& device) const override {
    return KernelTarget(device);
  }
  StatusOr<gpu_plugin::GpuImage> Compile(
      const phal_kernel_desc_t& kernel,
      const GpuDeviceInfo& device) const override {
    return CompileKernel(kernel, device);
  }
  Status Dump(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
              const std::string& image, std::string_view directory,
              const std::string& name) const override {
    return DumpKernel(kernel, device, image, directory, name);
  }
};

}  // namespace
}  // namespace phal::amd

const phal::gpu_plugin::GpuVendor& phal::gpu_plugin::Vendor() {
  static const auto* vendor = new amd::AmdVendor();
  return *vendor;
}

PHAL_GPU_PLUGIN_DEFINE_ENTRY()
