#include "asic_ref_device.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "asic_ref_plugin.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/device_counters.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::asic_ref {
namespace {

// The element types the machine has (IsMachineType): kernels of any other
// are refused, and the conformance suite reports them NotSupported.
uint64_t MachineElementTypes() {
  uint64_t mask = 0;
  for (uint32_t type = 1; type < PHAL_ELEMENT_TYPE_COUNT; ++type) {
    if (IsMachineType(static_cast<phal_element_type_t>(type))) {
      mask |= PHAL_ELEMENT_TYPE_BIT(type);
    }
  }
  return mask;
}

// "4 MiB", "512 KiB", "16 GiB", or "1000 bytes" when no unit divides it.
std::string SizeText(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; ++i) {
    const uint64_t unit = uint64_t{1} << (10 * (3 - i));
    if (bytes >= unit && bytes % unit == 0) {
      return std::to_string(bytes / unit) + " " + kUnits[i];
    }
  }
  return std::to_string(bytes) + " bytes";
}

// "4 MiB SRAM, 32x32 array, 1000 MHz".
std::string Summary(const ArchConfig& config) {
  return SizeText(config.sram_bytes) + " SRAM, " +
         std::to_string(config.array_size) + "x" +
         std::to_string(config.array_size) + " array, " +
         std::to_string(config.clock_mhz) + " MHz";
}

std::string DeviceName(const ArchConfig& config, const char* target) {
  if (target == nullptr) return "asic-ref (simulated: " + Summary(config) + ")";
  return "asic-ref target " + std::string(target) +
         " (compile only: " + Summary(config) + ")";
}

// The architecture of target kTargets[index].
StatusOr<ArchConfig> TargetConfig(size_t index) {
  ArchConfig config;
  PHAL_RETURN_IF_ERROR(ParseArchConfig(kTargetConfigs[index], &config));
  return config;
}

}  // namespace

StatusOr<ArchConfig> ConfigFromEnvironment() {
  ArchConfig config;
  const char* text = std::getenv(kConfigVariable);
  if (text == nullptr || *text == '\0') return config;
  Status parsed = ParseArchConfig(text, &config);
  if (!parsed.ok()) {
    return InvalidArgument(
        std::string(kConfigVariable) + "=\"" + text +
        "\" is not an asic-ref architecture: " + parsed.message());
  }
  return config;
}

Device::Device(const ArchConfig& config, size_t ordinal, size_t count)
    : config_(config),
      config_text_(ArchConfigToString(config)),
      ordinal_(static_cast<uint32_t>(ordinal)),
      name_(VirtualDeviceName(DeviceName(config, nullptr), ordinal, count)),
      uuid_(VirtualDeviceUuid(NameBasedUuid("asic-ref " + config_text_),
                              ordinal)),
      dram_(std::make_unique<Dram>(config.dram_bytes)),
      simulator_(std::make_unique<Simulator>(config)),
      counters_(config) {}

Device::Device(const ArchConfig& config, const char* target)
    : config_(config),
      config_text_(ArchConfigToString(config)),
      target_(target),
      name_(DeviceName(config, target)),
      counters_(config) {}

Device::~Device() = default;

Status Device::CheckRunnable(const char* what) const {
  if (target_ == nullptr) return OkStatus();
  return CompileOnlyDeviceError("asic-ref plugin", target_, what);
}

Status Device::Run(const Program& program,
                   std::span<const uint64_t> buffer_addresses) {
  StatusOr<KernelCounters> run = [&] {
    std::lock_guard<std::mutex> lock(simulator_mutex_);
    return simulator_->Run(program, *dram_, buffer_addresses);
  }();
  // The simulator's message names the program, the instruction and its
  // text.
  if (!run.ok()) {
    return Status(run.status().code(),
                  "asic-ref plugin: " + run.status().message());
  }
  counters_.Add(program.name, *run);
  return OkStatus();
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = name_.c_str();
  full.vendor = "Polyhal";
  full.driver_version = PHAL_PLUGIN_VERSION " (asic-ref simulator)";
  full.features = config_text_.c_str();
  full.kind = PHAL_DEVICE_KIND_ACCELERATOR;
  full.ordinal = ordinal_;
  full.compute_units = 1;
  full.memory_space_count = kMemorySpaceCount;
  full.memory_bytes = config_.dram_bytes;
  full.max_allocation_bytes = config_.dram_bytes;
  full.min_alignment = kMinAlignment;
  full.element_types = MachineElementTypes();
  // Streams run their work before their calls return (asic_ref_stream.h),
  // so the device does not claim PHAL_DEVICE_FLAG_ASYNC_STREAMS; its DRAM
  // is not host memory.
  full.flags = target_ == nullptr ? 0 : PHAL_DEVICE_FLAG_COMPILE_ONLY;
  std::copy(uuid_.begin(), uuid_.end(), full.uuid);
  // Every kernel kind: the compiler takes each (compiler/asic_compiler.h).
  full.kernel_kinds = kAllKernelKinds;
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace("asic-ref plugin", index, kDramMemorySpace, "dram",
                           PHAL_MEMORY_KIND_DEVICE, config_.dram_bytes, out);
}

namespace {

// A compile-only device of kTargets[index], of that target's architecture.
StatusOr<std::unique_ptr<phal_plugin_device>> OpenTargetDevice(size_t index) {
  PHAL_ASSIGN_OR_RETURN(ArchConfig config, TargetConfig(index));
  return std::make_unique<phal_plugin_device>(config, kTargets[index]);
}

}  // namespace

// One chip, or PHAL_VIRTUAL_DEVICES of them, when PHAL_ASIC_REF_CONFIG
// describes an architecture (or is unset); none, saying why, when either
// variable is wrong: a broken environment is not an error of the process.
phal_status_t* DeviceCount(size_t* out_count,
                           const char** out_reason) noexcept {
  *out_count = 0;
  if (out_reason != nullptr) *out_reason = nullptr;
  return RunAtAbiBoundary([&]() -> Status {
    StatusOr<ArchConfig> config = ConfigFromEnvironment();
    if (!config.ok()) {
      if (out_reason != nullptr) {
        *out_reason = StaticReason(config.status().message());
      }
      return OkStatus();
    }
    CountVirtualDevices(1, out_count, out_reason);
    return OkStatus();
  });
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(
        CheckVirtualDeviceOrdinal("asic-ref plugin", ordinal, 1));
    PHAL_ASSIGN_OR_RETURN(size_t count, VirtualDeviceCount(1));
    PHAL_ASSIGN_OR_RETURN(ArchConfig config, ConfigFromEnvironment());
    *out_device =
        std::make_unique<phal_plugin_device>(config, ordinal, count).release();
    return OkStatus();
  });
}

PHAL_DEFINE_TARGET_SLOTS(kTargets, "asic-ref plugin")

phal_status_t* DeviceGetCounters(phal_plugin_device_t* device,
                                 phal_device_counter_t** out_counters,
                                 size_t* out_count) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const std::vector<NamedCounter> counters = device->counters().Snapshot();
    std::vector<CounterView> views;
    views.reserve(counters.size());
    for (const NamedCounter& counter : counters) {
      views.push_back(
          {counter.name, counter.kernel, counter.unit, counter.value});
    }
    return ReturnDeviceCounters(views, out_counters, out_count);
  });
}

phal_status_t* DeviceResetCounters(phal_plugin_device_t* device) noexcept {
  return RunAtAbiBoundary([&] {
    device->counters().Reset();
    return OkStatus();
  });
}

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::asic_ref
