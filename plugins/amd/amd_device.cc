// Devices: every GPU the HIP runtime reports, then, with
// PHAL_GPU_EMULATION=1, "amd (emulated gfx90a)" of the emulator's table
// (amd_emulator.h); the catalogue, the properties and the compile-only
// devices are the GPU plugin layer's (sdk/gpu_plugin/gpu_device.h). Here:
// what HIP says of a device, and the current device around every call.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/amd/amd_plugin.h"

namespace phal::amd {
namespace {

// gcnArchName out of hipGetDeviceProperties' struct, whose layout depends
// on the runtime's version: the first string that starts a field with
// "gfx" and a processor number ("gfx90a:sramecc+:xnack-"). "" if none.
std::string FindArchName(std::string_view properties) {
  for (size_t at = properties.find("gfx"); at != std::string_view::npos;
       at = properties.find("gfx", at + 1)) {
    if (at > 0 && properties[at - 1] != '\0') continue;
    const size_t end = properties.find('\0', at);
    const std::string_view name = properties.substr(at, end - at);
    if (name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[3]))) {
      return std::string(name);
    }
  }
  return "";
}

// The limits the properties' features list after the runtime.
struct Limits {
  std::string arch_name;  // "gfx90a:sramecc+:xnack-"
  int compute_units = 0;
  int wave_size = 0;
  int max_threads_per_block = 0;
  int lds_bytes_per_block = 0;
  int max_grid[3] = {};
  int clock_khz = 0;
  int l2_bytes = 0;
};

std::string LimitsText(const Limits& limits) {
  return limits.arch_name +
         " compute_units=" + std::to_string(limits.compute_units) +
         " wave_size=" + std::to_string(limits.wave_size) +
         " max_threads_per_block=" +
         std::to_string(limits.max_threads_per_block) +
         " lds_per_block=" + std::to_string(limits.lds_bytes_per_block) +
         " max_grid=" + std::to_string(limits.max_grid[0]) + "x" +
         std::to_string(limits.max_grid[1]) + "x" +
         std::to_string(limits.max_grid[2]) +
         " clock_khz=" + std::to_string(limits.clock_khz) +
         " l2_bytes=" + std::to_string(limits.l2_bytes);
}

}  // namespace

std::string HipDriver::Description() const {
  return "the HIP runtime " + HipVersionText(hip_.runtime_version);
}

std::string HipDriver::PropertiesVersion() const {
  return (emulated_ ? "grid emulator, HIP " : "HIP ") +
         HipVersionText(hip_.runtime_version);
}

std::string HipDriver::FeaturesVersion() const {
  return "hip " + HipVersionText(hip_.runtime_version);
}

Status HipDriver::CountDevices(int* out_count) const {
  return Check(hip_.hipGetDeviceCount(out_count), "hipGetDeviceCount");
}

// An attribute the runtime cannot answer stays 0; only a missing
// architecture refuses the device.
Status HipDriver::ReadDevice(int ordinal, GpuDeviceInfo* out) const {
  char name[256] = {};
  PHAL_RETURN_IF_ERROR(Check(hip_.hipDeviceGetName(name, sizeof(name), ordinal),
                             "hipDeviceGetName"));
  out->name = name;
  std::vector<char> properties(kDevicePropertiesBytes, '\0');
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipGetDeviceProperties(properties.data(), ordinal),
            "hipGetDeviceProperties"));
  Limits limits;
  limits.arch_name =
      FindArchName(std::string_view(properties.data(), properties.size()));
  out->arch = limits.arch_name.substr(0, limits.arch_name.find(':'));
  if (out->arch.empty()) {
    return FailedPrecondition(out->name + ": no gfx architecture reported");
  }
  const auto attribute = [&](hipDeviceAttribute_t which) {
    int value = 0;
    if (hip_.hipDeviceGetAttribute(&value, which, ordinal) != hipSuccess) {
      value = 0;
    }
    return value;
  };
  limits.compute_units = attribute(hipDeviceAttributeMultiprocessorCount);
  limits.max_threads_per_block =
      attribute(hipDeviceAttributeMaxThreadsPerBlock);
  for (int d = 0; d < 3; ++d) {
    limits.max_grid[d] = attribute(
        static_cast<hipDeviceAttribute_t>(hipDeviceAttributeMaxGridDimX + d));
  }
  limits.lds_bytes_per_block =
      attribute(hipDeviceAttributeMaxSharedMemoryPerBlock);
  limits.wave_size = attribute(hipDeviceAttributeWarpSize);
  limits.clock_khz = attribute(hipDeviceAttributeClockRate);
  limits.l2_bytes = attribute(hipDeviceAttributeL2CacheSize);
  out->compute_units = limits.compute_units;
  out->limits = LimitsText(limits);
  size_t bytes = 0;
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipDeviceTotalMem(&bytes, ordinal), "hipDeviceTotalMem"));
  out->memory_bytes = bytes;
  return OkStatus();
}

// HIP has no context to make: a device's calls go to the current device.
Status HipDriver::OpenDevice(int /*device*/, void** out_context) const {
  *out_context = nullptr;
  return OkStatus();
}

void HipDriver::CloseDevice(int /*device*/) const {}

Status HipDriver::Enter(const GpuPlace& place, intptr_t* out_saved) const {
  int previous = -1;
  PHAL_RETURN_IF_ERROR(Check(hip_.hipGetDevice(&previous), "hipGetDevice"));
  *out_saved = previous;
  if (previous == place.device) return OkStatus();
  return Check(hip_.hipSetDevice(place.device), "hipSetDevice");
}

void HipDriver::Leave(const GpuPlace& place, intptr_t saved) const {
  if (saved != place.device) hip_.hipSetDevice(static_cast<int>(saved));
}

// The limits every supported architecture shares (amdgpu_target.h), its
// wavefront (64 on CDNA, 32 on RDNA), and no memory.
GpuDeviceInfo CompileOnlyInfo(std::string_view target) {
  GpuDeviceInfo info;
  info.emulated = target.starts_with("emulated-");
  info.arch = std::string(target.substr(target.find("gfx")));
  info.name = "amd target " + std::string(target) + " (compile only)";
  Limits limits;
  limits.arch_name = info.arch;
  limits.max_threads_per_block = 1024;
  limits.max_grid[0] = 2147483647;
  limits.max_grid[1] = 65535;
  limits.max_grid[2] = 65535;
  limits.lds_bytes_per_block = 64 * 1024;
  limits.wave_size = info.arch.starts_with("gfx9") ? 64 : 32;
  info.limits = LimitsText(limits);
  return info;
}

}  // namespace phal::amd
