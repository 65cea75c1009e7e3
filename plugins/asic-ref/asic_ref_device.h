// The device: one simulated asic-ref chip (isa/asic_isa.h) in process, of
// the architecture PHAL_ASIC_REF_CONFIG describes, with its DRAM
// (asic_ref_dram.h), the simulator that runs its kernels, and the counters
// of what they did. PHAL_VIRTUAL_DEVICES=N makes N such chips, each with
// its own DRAM, simulator and counters, joined by the interconnect of the
// architecture (ArchConfig's links). Compile-only devices (plugin.h, ABI
// 1.4) are the same architecture description without DRAM or simulator.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DEVICE_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DEVICE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "asic_ref_counters.h"
#include "asic_ref_dram.h"
#include "isa/asic_isa.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "simulator/asic_simulator.h"

namespace phal::asic_ref {

// The one memory space of the device: its DRAM.
inline constexpr uint32_t kDramMemorySpace = 0;
inline constexpr uint32_t kMemorySpaceCount = 1;
// What the device promises of every buffer's address (a DMA burst; buffers
// actually start on kDramPageBytes boundaries).
inline constexpr uint64_t kMinAlignment = 64;

// The environment variable with the architecture of the simulated device,
// in ParseArchConfig's syntax ("sram=2M,array=16"); unset or empty: the
// defaults of ArchConfig.
inline constexpr const char* kConfigVariable = "PHAL_ASIC_REF_CONFIG";

// The targets the plugin compiles for without a device (plugin.h,
// target_get_names), the default first, and the architecture of each
// (kTargetConfigs[i] over ArchConfig's defaults). A kernel compiled for a
// target runs on a device whose architecture is the same.
inline constexpr const char* kTargets[] = {"asic-ref", "asic-ref-sram2m-a16",
                                           "asic-ref-sram16m-a64"};
inline constexpr const char* kTargetConfigs[] = {"", "sram=2M,array=16",
                                                 "sram=16M,array=64,lanes=128"};

// The architecture PHAL_ASIC_REF_CONFIG describes; INVALID_ARGUMENT naming
// the variable and what is wrong with its text.
StatusOr<ArchConfig> ConfigFromEnvironment();

// Every method may be called from any thread.
class Device {
 public:
  // Simulated chip `ordinal` of the `count` the plugin has, of `config`.
  Device(const ArchConfig& config, size_t ordinal, size_t count);
  // A compile-only device of `target`, one of kTargets (static storage), of
  // architecture `config`: it emits and serializes kernels and refuses
  // memory, streams and events.
  Device(const ArchConfig& config, const char* target);
  ~Device();

  const ArchConfig& config() const { return config_; }
  // ArchConfigToString(config()): what serialized kernels carry.
  const std::string& config_text() const { return config_text_; }

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;
  // OK on the simulated device; on a compile-only device, the
  // FAILED_PRECONDITION saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

  // The simulated device's DRAM; call only after CheckRunnable.
  Dram& dram() const { return *dram_; }

  // Runs `program` on the simulator with the argument area holding
  // `buffer_addresses`, one run at a time, and counts it under the
  // program's name. A fault is the returned status; nothing is counted.
  Status Run(const Program& program,
             std::span<const uint64_t> buffer_addresses);

  DeviceCounters& counters() { return counters_; }

 private:
  const ArchConfig config_;
  const std::string config_text_;
  const char* const target_ = nullptr;  // NULL: the simulated device
  const uint32_t ordinal_ = 0;
  const std::string name_;
  const std::array<uint8_t, 16> uuid_{};
  std::unique_ptr<Dram> dram_;  // NULL on a compile-only device
  std::mutex simulator_mutex_;
  std::unique_ptr<Simulator> simulator_;  // NULL on a compile-only device
  DeviceCounters counters_;
};

}  // namespace phal::asic_ref

// The opaque handle plugin.h declares is the device itself.
struct phal_plugin_device final : phal::asic_ref::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DEVICE_H_
