#include "sdk/gpu_plugin/gpu_device.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::gpu_plugin {
namespace {

bool EmulationRequested() {
  const char* value = std::getenv("PHAL_GPU_EMULATION");
  return value != nullptr && std::string(value) == "1";
}

// The runtime's devices are listed once per process (until shutdown): a
// runtime is costly to ask and cannot always be initialised twice. The
// emulated devices are the environment's as it is at each count.
struct Catalogue {
  std::mutex mutex;
  bool listed = false;
  std::vector<GpuDeviceInfo> runtime_devices;
  std::string runtime_reason;          // why the runtime has none
  std::vector<GpuDeviceInfo> devices;  // as last counted
  const char* reason = nullptr;        // why there are none (StaticReason)
};

Catalogue& Devices() {
  static Catalogue* catalogue = new Catalogue();
  return *catalogue;
}

// The device `ordinal` of `driver`, or why it is refused.
Status ReadDevice(const GpuDriver& driver, int ordinal, bool emulated,
                  GpuDeviceInfo* out) {
  PHAL_RETURN_IF_ERROR(driver.ReadDevice(ordinal, out));
  out->driver = &driver;
  out->device = ordinal;
  out->emulated = emulated;
  return OkStatus();
}

// The runtime's devices, or why there are none.
std::string ListRuntimeDevices(std::vector<GpuDeviceInfo>* out) {
  StatusOr<const GpuDriver*> driver = Vendor().runtime();
  if (!driver.ok()) return driver.status().message();
  int count = 0;
  const Status counted = (*driver)->CountDevices(&count);
  if (!counted.ok()) return counted.message();
  if (count == 0) return (*driver)->Description() + " found no GPU";
  std::string skipped;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    GpuDeviceInfo info;
    const Status read = ReadDevice(**driver, ordinal, false, &info);
    if (read.ok()) {
      out->push_back(std::move(info));
    } else {
      skipped += " device " + std::to_string(ordinal) + ": " + read.message();
    }
  }
  if (!out->empty()) return "";
  return std::string("no ") + Vendor().api_name +
         " device is usable:" + skipped;
}

// The `count` emulated devices, appended to `out`, each named and
// identified as one of them; one the emulator refuses is left out, logged.
void AddEmulatedDevices(size_t count, std::vector<GpuDeviceInfo>* out) {
  for (size_t ordinal = 0; ordinal < count; ++ordinal) {
    GpuDeviceInfo emulated;
    const Status read = ReadDevice(Vendor().emulator(),
                                   static_cast<int>(ordinal), true, &emulated);
    if (!read.ok()) {
      Log(PHAL_LOG_LEVEL_ERROR, read.message().c_str());
      continue;
    }
    emulated.uuid = VirtualDeviceUuid(
        NameBasedUuid(std::string(Vendor().name) + " " + emulated.name),
        ordinal);
    emulated.name = VirtualDeviceName(emulated.name, ordinal, count);
    out->push_back(std::move(emulated));
  }
}

// Lists the runtime's devices the first time, and the emulated ones
// (PHAL_GPU_EMULATION=1, PHAL_VIRTUAL_DEVICES of them) each time.
void ListDevices(Catalogue& catalogue) {
  const bool first = !catalogue.listed;
  if (first) {
    catalogue.runtime_reason = ListRuntimeDevices(&catalogue.runtime_devices);
    catalogue.listed = true;
  }
  catalogue.devices = catalogue.runtime_devices;
  catalogue.reason = nullptr;
  if (EmulationRequested()) {
    StatusOr<size_t> count = VirtualDeviceCount(1);
    if (!count.ok()) {
      // A wrong PHAL_VIRTUAL_DEVICES leaves the plugin without devices, as
      // it does every plugin that reads it.
      catalogue.devices.clear();
      catalogue.reason = StaticReason(count.status().message());
      return;
    }
    AddEmulatedDevices(*count, &catalogue.devices);
    if (first && !catalogue.runtime_reason.empty()) {
      Log(PHAL_LOG_LEVEL_INFO,
          PluginMessage(catalogue.runtime_reason + "; emulated devices only")
              .c_str());
    }
  }
  if (catalogue.devices.empty()) {
    catalogue.reason =
        StaticReason(catalogue.runtime_reason +
                     " (PHAL_GPU_EMULATION=1 adds an emulated device)");
  }
}

}  // namespace

std::string PluginName() { return std::string(Vendor().name) + " plugin"; }

std::string PluginMessage(const std::string& message) {
  return PluginName() + ": " + message;
}

uint64_t SupportedKernelKinds() {
  return llvm_emitter::SpmdSupportedKernelKinds();
}

Device::Device(const GpuDeviceInfo& info, uint32_t ordinal)
    : info_(info),
      ordinal_(ordinal),
      disk_(DiskCacheConfigFromEnvironment(Vendor().name)) {
  driver_version_ = driver().PropertiesVersion();
  features_ = driver().FeaturesVersion() + " " + info_.limits +
              (info_.emulated ? " emulated" : "");
  // The library that runs its collectives, where the runtime has one.
  if (const GpuCollectiveLibrary* library = driver().CollectiveLibrary()) {
    features_ += " collectives=" + library->Description();
  }
}

Device::Device(const char* target)
    : info_(Vendor().compile_only_info(target)),
      target_(target),
      disk_(DiskCacheConfigFromEnvironment(Vendor().name)) {
  driver_version_ = "none (compile only)";
  features_ =
      info_.limits + (info_.emulated ? " emulated" : "") + " compile_only";
}

Device::~Device() {
  if (opened_) driver().CloseDevice(info_.device);
}

Status Device::Open() {
  if (compile_only()) return OkStatus();
  PHAL_RETURN_IF_ERROR(driver().OpenDevice(info_.device, &context_));
  opened_ = true;
  return OkStatus();
}

Status Device::CheckRunnable(const char* what) const {
  if (!compile_only()) return OkStatus();
  return CompileOnlyDeviceError(PluginName(), target_, what);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = info_.name.c_str();
  full.vendor = Vendor().vendor_name;
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
  std::copy(info_.uuid.begin(), info_.uuid.end(), full.uuid);
  full.kernel_kinds = SupportedKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace(PluginName(), index, kDeviceMemorySpace,
                           info_.emulated ? "device (host memory)" : "device",
                           PHAL_MEMORY_KIND_DEVICE, info_.memory_bytes, out);
}

ScopedDevice::ScopedDevice(const Device& device) : device_(device) {
  status_ = device_.driver().Enter(device_.place(), &saved_);
}

ScopedDevice::~ScopedDevice() {
  if (status_.ok()) device_.driver().Leave(device_.place(), saved_);
}

namespace {

// A compile-only device of the vendor's target `index`.
StatusOr<std::unique_ptr<phal_plugin_device>> OpenTargetDevice(size_t index) {
  return std::make_unique<phal_plugin_device>(Vendor().targets[index]);
}

}  // namespace

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
      *out_reason = catalogue.reason;
    }
    return OkStatus();
  });
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    Catalogue& catalogue = Devices();
    GpuDeviceInfo info;
    {
      std::lock_guard<std::mutex> lock(catalogue.mutex);
      ListDevices(catalogue);
      PHAL_RETURN_IF_ERROR(
          CheckDeviceOrdinal(PluginName(), ordinal, catalogue.devices.size()));
      info = catalogue.devices[ordinal];
    }
    auto device = std::make_unique<phal_plugin_device>(
        info, static_cast<uint32_t>(ordinal));
    PHAL_RETURN_IF_ERROR(device->Open());
    *out_device = device.release();
    return OkStatus();
  });
}

PHAL_DEFINE_TARGET_SLOTS(Vendor().targets, PluginName())

// Every device has closed: the device list goes, so a plugin loaded again
// lists them afresh. The runtime stays loaded and initialised (CUDA cannot
// be initialised twice in one process).
void Shutdown() noexcept {
  Catalogue& catalogue = Devices();
  std::lock_guard<std::mutex> lock(catalogue.mutex);
  catalogue.runtime_devices.clear();
  catalogue.runtime_reason.clear();
  catalogue.devices.clear();
  catalogue.listed = false;
  catalogue.reason = nullptr;
}

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::gpu_plugin
