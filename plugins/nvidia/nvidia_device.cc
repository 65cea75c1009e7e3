#include "plugins/nvidia/nvidia_device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/nvidia/nvidia_emulator.h"
#include "plugins/nvidia/nvidia_kernel.h"
#include "plugins/nvidia/nvidia_plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/extensible_struct.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::nvidia {
namespace {

// What the device reports of itself; an attribute the driver cannot answer
// stays 0 and only a missing compute capability refuses the device.
Status ReadDevice(const Cuda& cuda, int ordinal, DeviceInfo* out) {
  out->cuda = &cuda;
  PHAL_RETURN_IF_ERROR(
      CudaStatus(cuda, cuda.cuDeviceGet(&out->device, ordinal), "cuDeviceGet"));
  char name[256] = {};
  PHAL_RETURN_IF_ERROR(
      CudaStatus(cuda, cuda.cuDeviceGetName(name, sizeof(name), out->device),
                 "cuDeviceGetName"));
  out->name = name;
  const auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    if (cuda.cuDeviceGetAttribute(&value, which, out->device) != CUDA_SUCCESS) {
      value = 0;
    }
    return value;
  };
  const int major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  const int minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (major <= 0) {
    return FailedPrecondition(out->name + ": no compute capability reported");
  }
  out->compute_capability = major * 10 + minor;
  out->multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  out->max_threads_per_block =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  out->max_block[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  out->max_block[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  out->max_block[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  out->max_grid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  out->max_grid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  out->max_grid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  out->shared_bytes_per_block =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  out->shared_bytes_per_block_optin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  out->warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  out->clock_khz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  out->l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  size_t bytes = 0;
  PHAL_RETURN_IF_ERROR(CudaStatus(
      cuda, cuda.cuDeviceTotalMem(&bytes, out->device), "cuDeviceTotalMem"));
  out->memory_bytes = bytes;
  if (cuda.cuDeviceGetUuid != nullptr) {
    cuda.cuDeviceGetUuid(&out->uuid, out->device);
  }
  return OkStatus();
}

// What a compile-only device of `target` reports: the limits every GPU from
// sm_75 on has and the NVPTX target compiles for (nvptx_target.h), and no
// memory.
DeviceInfo CompileOnlyInfo(std::string_view target) {
  DeviceInfo info;
  info.emulated = target.starts_with("emulated-");
  info.name = "nvidia target " + std::string(target) + " (compile only)";
  info.compute_capability =
      std::atoi(std::string(target.substr(target.rfind('_') + 1)).c_str());
  info.max_threads_per_block = 1024;
  info.max_block[0] = 1024;
  info.max_block[1] = 1024;
  info.max_block[2] = 64;
  info.max_grid[0] = 2147483647;
  info.max_grid[1] = 65535;
  info.max_grid[2] = 65535;
  info.shared_bytes_per_block = 48 * 1024;
  info.warp_size = 32;
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

// The driver's devices, or why there are none.
std::string ListDriverDevices(std::vector<DeviceInfo>* out) {
  StatusOr<const Cuda*> cuda = GetCuda();
  if (!cuda.ok()) return cuda.status().message();
  int count = 0;
  const CUresult result = (*cuda)->cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    return CudaStatus(**cuda, result, "cuDeviceGetCount").message();
  }
  if (count == 0) {
    return "the CUDA driver " + DriverVersionText((*cuda)->driver_version) +
           " found no GPU";
  }
  std::string skipped;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    DeviceInfo info;
    const Status read = ReadDevice(**cuda, ordinal, &info);
    if (read.ok()) {
      out->push_back(std::move(info));
    } else {
      skipped += " device " + std::to_string(ordinal) + ": " + read.message();
    }
  }
  return out->empty() ? "no CUDA device is usable:" + skipped : "";
}

// Lists the devices once per process (until shutdown).
void ListDevices(Catalogue& catalogue) {
  if (catalogue.listed) return;
  const std::string driver_reason = ListDriverDevices(&catalogue.devices);
  if (EmulationRequested()) {
    DeviceInfo emulated;
    const Status read = ReadDevice(EmulatedCuda(), 0, &emulated);
    if (read.ok()) {
      emulated.emulated = true;
      catalogue.devices.push_back(std::move(emulated));
    } else {
      Log(PHAL_LOG_LEVEL_ERROR, read.message().c_str());
    }
  }
  if (catalogue.devices.empty()) {
    catalogue.reason =
        driver_reason + " (PHAL_GPU_EMULATION=1 adds an emulated device)";
  } else if (!driver_reason.empty()) {
    Log(PHAL_LOG_LEVEL_INFO,
        ("nvidia plugin: " + driver_reason + "; the emulated device only")
            .c_str());
  }
  catalogue.listed = true;
}

}  // namespace

Device::Device(const DeviceInfo& info, uint32_t ordinal)
    : info_(info),
      ordinal_(ordinal),
      disk_(DiskCacheConfigFromEnvironment("nvidia")) {
  driver_version_ =
      (info_.emulated ? "grid emulator, CUDA driver API " : "CUDA driver ") +
      DriverVersionText(cuda().driver_version);
  features_ = "cuda " + DriverVersionText(cuda().driver_version) + " " +
              LimitsText() + (info_.emulated ? " emulated" : "");
}

Device::Device(const char* target)
    : info_(CompileOnlyInfo(target)),
      target_(target),
      disk_(DiskCacheConfigFromEnvironment("nvidia")) {
  driver_version_ = "none (compile only)";
  features_ =
      LimitsText() + (info_.emulated ? " emulated" : "") + " compile_only";
}

Device::~Device() {
  if (context_ != nullptr) cuda().cuDevicePrimaryCtxRelease(info_.device);
}

Status Device::Open() {
  if (compile_only()) return OkStatus();
  return Check(cuda().cuDevicePrimaryCtxRetain(&context_, info_.device),
               "cuDevicePrimaryCtxRetain");
}

Status Device::CheckRunnable(const char* what) const {
  if (!compile_only()) return OkStatus();
  return CompileOnlyDeviceError("nvidia plugin", target_, what);
}

std::string Device::LimitsText() const {
  return arch() + " multiprocessors=" + std::to_string(info_.multiprocessors) +
         " warp_size=" + std::to_string(info_.warp_size) +
         " max_threads_per_block=" +
         std::to_string(info_.max_threads_per_block) +
         " shared_memory_per_block=" +
         std::to_string(info_.shared_bytes_per_block) +
         " shared_memory_per_block_optin=" +
         std::to_string(info_.shared_bytes_per_block_optin) +
         " max_grid=" + std::to_string(info_.max_grid[0]) + "x" +
         std::to_string(info_.max_grid[1]) + "x" +
         std::to_string(info_.max_grid[2]) +
         " clock_khz=" + std::to_string(info_.clock_khz) +
         " l2_bytes=" + std::to_string(info_.l2_bytes);
}

std::string Device::arch() const {
  return "sm_" + std::to_string(info_.compute_capability);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = info_.name.c_str();
  full.vendor = "NVIDIA";
  full.driver_version = driver_version_.c_str();
  full.features = features_.c_str();
  full.kind = PHAL_DEVICE_KIND_GPU;
  full.ordinal = ordinal_;
  full.compute_units = static_cast<uint32_t>(info_.multiprocessors);
  full.memory_space_count = 1;
  full.memory_bytes = info_.memory_bytes;
  full.max_allocation_bytes = info_.memory_bytes;
  full.min_alignment = kMinAlignment;
  full.element_types = kAllElementTypesMask;
  // The driver's streams run behind the caller; the emulator's finish each
  // operation before its call returns.
  full.flags = compile_only()   ? PHAL_DEVICE_FLAG_COMPILE_ONLY
               : info_.emulated ? 0
                                : PHAL_DEVICE_FLAG_ASYNC_STREAMS;
  full.kernel_kinds = SupportedKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  if (index != kDeviceMemorySpace) {
    return OutOfRange("nvidia plugin: memory space " + std::to_string(index) +
                      " does not exist; the device has 1 (index 0)");
  }
  phal_memory_space_info_t full{};
  full.name = info_.emulated ? "device (host memory)" : "device";
  full.kind = PHAL_MEMORY_KIND_DEVICE;
  full.capacity_bytes = info_.memory_bytes;
  return CopyFittingMembers(full, out);
}

ScopedContext::ScopedContext(const Device& device) : device_(device) {
  status_ = device_.Check(device_.cuda().cuCtxPushCurrent(device_.context()),
                          "cuCtxPushCurrent");
}

ScopedContext::~ScopedContext() {
  if (!status_.ok()) return;
  CUcontext popped = nullptr;
  device_.cuda().cuCtxPopCurrent(&popped);
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
    DeviceInfo info;
    {
      std::lock_guard<std::mutex> lock(catalogue.mutex);
      ListDevices(catalogue);
      if (ordinal >= catalogue.devices.size()) {
        return InvalidArgument("nvidia plugin: device ordinal " +
                               std::to_string(ordinal) + " does not exist; " +
                               std::to_string(catalogue.devices.size()) +
                               " devices");
      }
      info = catalogue.devices[ordinal];
    }
    auto device = std::make_unique<phal_plugin_device>(
        info, static_cast<uint32_t>(ordinal));
    PHAL_RETURN_IF_ERROR(device->Open());
    *out_device = device.release();
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
                          FindCompileTarget(kTargets, target, "nvidia plugin"));
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

}  // namespace phal::nvidia
