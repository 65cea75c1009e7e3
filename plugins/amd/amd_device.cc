#include "plugins/amd/amd_device.h"

#include <cctype>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/amd/amd_emulator.h"
#include "plugins/amd/amd_kernel.h"
#include "plugins/amd/amd_plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/extensible_struct.h"
#include "sdk/plugin_support/plugin_host.h"

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

// What the device reports of itself; an attribute the runtime cannot
// answer stays 0 and only a missing architecture refuses the device.
Status ReadDevice(const Hip& hip, int ordinal, DeviceInfo* out) {
  out->hip = &hip;
  out->device = ordinal;
  char name[256] = {};
  PHAL_RETURN_IF_ERROR(
      HipStatus(hip, hip.hipDeviceGetName(name, sizeof(name), ordinal),
                "hipDeviceGetName"));
  out->name = name;
  std::vector<char> properties(kDevicePropertiesBytes, '\0');
  PHAL_RETURN_IF_ERROR(
      HipStatus(hip, hip.hipGetDeviceProperties(properties.data(), ordinal),
                "hipGetDeviceProperties"));
  out->arch_name =
      FindArchName(std::string_view(properties.data(), properties.size()));
  out->arch = out->arch_name.substr(0, out->arch_name.find(':'));
  if (out->arch.empty()) {
    return FailedPrecondition(out->name + ": no gfx architecture reported");
  }
  const auto attribute = [&](hipDeviceAttribute_t which) {
    int value = 0;
    if (hip.hipDeviceGetAttribute(&value, which, ordinal) != hipSuccess) {
      value = 0;
    }
    return value;
  };
  out->compute_units = attribute(hipDeviceAttributeMultiprocessorCount);
  out->max_threads_per_block = attribute(hipDeviceAttributeMaxThreadsPerBlock);
  for (int d = 0; d < 3; ++d) {
    out->max_block[d] = attribute(
        static_cast<hipDeviceAttribute_t>(hipDeviceAttributeMaxBlockDimX + d));
    out->max_grid[d] = attribute(
        static_cast<hipDeviceAttribute_t>(hipDeviceAttributeMaxGridDimX + d));
  }
  out->lds_bytes_per_block =
      attribute(hipDeviceAttributeMaxSharedMemoryPerBlock);
  out->wave_size = attribute(hipDeviceAttributeWarpSize);
  out->clock_khz = attribute(hipDeviceAttributeClockRate);
  out->l2_bytes = attribute(hipDeviceAttributeL2CacheSize);
  size_t bytes = 0;
  PHAL_RETURN_IF_ERROR(HipStatus(hip, hip.hipDeviceTotalMem(&bytes, ordinal),
                                 "hipDeviceTotalMem"));
  out->memory_bytes = bytes;
  return OkStatus();
}

// What a compile-only device of `target` reports: the limits every
// supported architecture shares (amdgpu_target.h), its wavefront (64 on
// CDNA, 32 on RDNA), and no memory.
DeviceInfo CompileOnlyInfo(std::string_view target) {
  DeviceInfo info;
  info.emulated = target.starts_with("emulated-");
  info.arch = std::string(target.substr(target.find("gfx")));
  info.arch_name = info.arch;
  info.name = "amd target " + std::string(target) + " (compile only)";
  info.max_threads_per_block = 1024;
  for (int d = 0; d < 3; ++d) info.max_block[d] = 1024;
  info.max_grid[0] = 2147483647;
  info.max_grid[1] = 65535;
  info.max_grid[2] = 65535;
  info.lds_bytes_per_block = 64 * 1024;
  info.wave_size = info.arch.starts_with("gfx9") ? 64 : 32;
  return info;
}

bool EmulationRequested() {
  const char* value = std::getenv("PHAL_GPU_EMULATION");
  return value != nullptr && std::string(value) == "1";
}

struct Catalogue {
  std::mutex mutex;
  bool listed = false;
  std::vector<DeviceInfo> devices;
  std::string reason;  // why there are none
};

Catalogue& Devices() {
  static Catalogue* catalogue = new Catalogue();
  return *catalogue;
}

// The runtime's devices, or why there are none.
std::string ListRuntimeDevices(std::vector<DeviceInfo>* out) {
  StatusOr<const Hip*> hip = GetHip();
  if (!hip.ok()) return hip.status().message();
  int count = 0;
  const hipError_t result = (*hip)->hipGetDeviceCount(&count);
  if (result != hipSuccess) {
    return HipStatus(**hip, result, "hipGetDeviceCount").message();
  }
  if (count == 0) {
    return "the HIP runtime " + HipVersionText((*hip)->runtime_version) +
           " found no GPU";
  }
  std::string skipped;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    DeviceInfo info;
    const Status read = ReadDevice(**hip, ordinal, &info);
    if (read.ok()) {
      out->push_back(std::move(info));
    } else {
      skipped += " device " + std::to_string(ordinal) + ": " + read.message();
    }
  }
  return out->empty() ? "no HIP device is usable:" + skipped : "";
}

// Lists the devices once per process (until shutdown).
void ListDevices(Catalogue& catalogue) {
  if (catalogue.listed) return;
  const std::string runtime_reason = ListRuntimeDevices(&catalogue.devices);
  if (EmulationRequested()) {
    DeviceInfo emulated;
    const Status read = ReadDevice(EmulatedHip(), 0, &emulated);
    if (read.ok()) {
      emulated.emulated = true;
      catalogue.devices.push_back(std::move(emulated));
    } else {
      Log(PHAL_LOG_LEVEL_ERROR, read.message().c_str());
    }
  }
  if (catalogue.devices.empty()) {
    catalogue.reason =
        runtime_reason + " (PHAL_GPU_EMULATION=1 adds an emulated device)";
  } else if (!runtime_reason.empty()) {
    Log(PHAL_LOG_LEVEL_INFO,
        ("amd plugin: " + runtime_reason + "; the emulated device only")
            .c_str());
  }
  catalogue.listed = true;
}

}  // namespace

Device::Device(const DeviceInfo& info, uint32_t ordinal)
    : info_(info),
      ordinal_(ordinal),
      disk_(DiskCacheConfigFromEnvironment("amd")) {
  driver_version_ = (info_.emulated ? "grid emulator, HIP " : "HIP ") +
                    HipVersionText(hip().runtime_version);
  features_ = "hip " + HipVersionText(hip().runtime_version) + " " +
              LimitsText() + (info_.emulated ? " emulated" : "");
}

Device::Device(const char* target)
    : info_(CompileOnlyInfo(target)),
      target_(target),
      disk_(DiskCacheConfigFromEnvironment("amd")) {
  driver_version_ = "none (compile only)";
  features_ =
      LimitsText() + (info_.emulated ? " emulated" : "") + " compile_only";
}

Status Device::CheckRunnable(const char* what) const {
  if (!compile_only()) return OkStatus();
  return CompileOnlyDeviceError("amd plugin", target_, what);
}

std::string Device::LimitsText() const {
  return info_.arch_name +
         " compute_units=" + std::to_string(info_.compute_units) +
         " wave_size=" + std::to_string(info_.wave_size) +
         " max_threads_per_block=" +
         std::to_string(info_.max_threads_per_block) +
         " lds_per_block=" + std::to_string(info_.lds_bytes_per_block) +
         " max_grid=" + std::to_string(info_.max_grid[0]) + "x" +
         std::to_string(info_.max_grid[1]) + "x" +
         std::to_string(info_.max_grid[2]) +
         " clock_khz=" + std::to_string(info_.clock_khz) +
         " l2_bytes=" + std::to_string(info_.l2_bytes);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = info_.name.c_str();
  full.vendor = "AMD";
  full.driver_version = driver_version_.c_str();
  full.features = features_.c_str();
  full.kind = PHAL_DEVICE_KIND_GPU;
  full.ordinal = ordinal_;
  full.compute_units = static_cast<uint32_t>(info_.compute_units);
  full.memory_space_count = 1;
  full.memory_bytes = info_.memory_bytes;
  full.max_allocation_bytes = info_.memory_bytes;
  full.min_alignment = kMinAlignment;
  full.element_types = kAllElementTypesMask;
  // The runtime's streams run behind the caller; the emulator's finish
  // each operation before its call returns.
  full.flags = compile_only()   ? PHAL_DEVICE_FLAG_COMPILE_ONLY
               : info_.emulated ? 0
                                : PHAL_DEVICE_FLAG_ASYNC_STREAMS;
  full.kernel_kinds = SupportedKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  if (index != kDeviceMemorySpace) {
    return OutOfRange("amd plugin: memory space " + std::to_string(index) +
                      " does not exist; the device has 1 (index 0)");
  }
  phal_memory_space_info_t full{};
  full.name = info_.emulated ? "device (host memory)" : "device";
  full.kind = PHAL_MEMORY_KIND_DEVICE;
  full.capacity_bytes = info_.memory_bytes;
  return CopyFittingMembers(full, out);
}

ScopedDevice::ScopedDevice(const Device& device) : device_(device) {
  const Hip& hip = device_.hip();
  status_ = device_.Check(hip.hipGetDevice(&previous_), "hipGetDevice");
  if (status_.ok() && previous_ != device_.info().device) {
    status_ =
        device_.Check(hip.hipSetDevice(device_.info().device), "hipSetDevice");
  }
}

ScopedDevice::~ScopedDevice() {
  if (status_.ok() && previous_ != device_.info().device) {
    device_.hip().hipSetDevice(previous_);
  }
}

phal_status_t* DeviceCount(size_t* out_count,
                           const char** out_reason) noexcept {
  *out_count = 0;
  if (out_reason != nullptr) *out_reason = nullptr;
  return RunAtAbiBoundary([&]() -> Status {
    Catalogue& catalogue = Devices();
    std::lock_guard<std::mutex> lock(catalogue.mutex);
    ListDevices(catalogue);
    *out_count = catalogue.devices.size();
    if (*out_count == 0 && out_reason != nullptr) {
      *out_reason = catalogue.reason.c_str();
    }
    return OkStatus();
  });
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    Catalogue& catalogue = Devices();
    std::lock_guard<std::mutex> lock(catalogue.mutex);
    ListDevices(catalogue);
    if (ordinal >= catalogue.devices.size()) {
      return InvalidArgument("amd plugin: device ordinal " +
                             std::to_string(ordinal) + " does not exist; " +
                             std::to_string(catalogue.devices.size()) +
                             " devices");
    }
    *out_device =
        std::make_unique<phal_plugin_device>(catalogue.devices[ordinal],
                                             static_cast<uint32_t>(ordinal))
            .release();
    return OkStatus();
  });
}

phal_status_t* TargetGetNames(const char* const** out_names,
                              size_t* out_count) noexcept {
  *out_names = kTargets;
  *out_count = std::size(kTargets);
  return nullptr;
}

phal_status_t* TargetDeviceOpen(const char* target,
                                phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(size_t index,
                          FindCompileTarget(kTargets, target, "amd plugin"));
    *out_device =
        std::make_unique<phal_plugin_device>(kTargets[index]).release();
    return OkStatus();
  });
}

void ForgetDevices() {
  Catalogue& catalogue = Devices();
  std::lock_guard<std::mutex> lock(catalogue.mutex);
  catalogue.devices.clear();
  catalogue.listed = false;
  catalogue.reason.clear();
}

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::amd
