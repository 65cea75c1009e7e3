// Devices: every GPU the HIP runtime reports, in its order, then, with
// PHAL_GPU_EMULATION=1, "amd (emulated gfx90a)", a device of the grid
// emulator's runtime (amd_emulator.h). HIP acts on the calling thread's
// current device, which the plugin sets around every call (ScopedDevice).
// A compile-only device of a target (plugin.h, ABI 1.4) needs neither
// runtime nor GPU.
#ifndef POLYHAL_PLUGINS_AMD_AMD_DEVICE_H_
#define POLYHAL_PLUGINS_AMD_AMD_DEVICE_H_

#include <cstdint>
#include <string>

#include "plugins/amd/amd_hip.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::amd {

// The targets the plugin compiles for without a GPU (plugin.h,
// target_get_names): code objects for CDNA (gfx90a, the default: MI200;
// gfx908: MI100; gfx940: MI300, as LLVM 16 names it) and RDNA (gfx1030,
// gfx1100), and emulated-gfx90a, the emulated device's host code, which
// `polyhal run` loads on it (PHAL_GPU_EMULATION=1). Serialized kernels
// load only on a device of the target they were compiled for.
inline constexpr const char* kTargets[] = {
    "gfx90a", "gfx908", "gfx940", "gfx1030", "gfx1100", "emulated-gfx90a"};

// What the plugin reads of a device once, when it lists them.
struct DeviceInfo {
  // The runtime's table or the emulator's; NULL on a compile-only device.
  const Hip* hip = nullptr;
  int device = 0;  // the ordinal in that table
  bool emulated = false;
  std::string name;
  // The processor ("gfx90a") and the runtime's full name for it, with its
  // target features ("gfx90a:sramecc+:xnack-").
  std::string arch;
  std::string arch_name;
  int compute_units = 0;
  int max_threads_per_block = 0;
  int max_block[3] = {};
  int max_grid[3] = {};
  int lds_bytes_per_block = 0;
  int wave_size = 0;
  int clock_khz = 0;
  int l2_bytes = 0;
  uint64_t memory_bytes = 0;
};

// Thread-safe: every member is immutable once made.
class Device {
 public:
  static constexpr uint32_t kDeviceMemorySpace = 0;
  // hipMalloc aligns every allocation to at least this.
  static constexpr uint64_t kMinAlignment = 256;

  Device(const DeviceInfo& info, uint32_t ordinal);
  // A compile-only device of `target` (one of kTargets, static storage):
  // kernels are emitted, serialized and deserialized, never loaded, and
  // memory, streams and events are refused.
  explicit Device(const char* target);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  bool compile_only() const { return target_ != nullptr; }
  // OK on a device that runs; on a compile-only device, the
  // FAILED_PRECONDITION saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  // Only on a device that runs.
  const Hip& hip() const { return *info_.hip; }
  const DeviceInfo& info() const { return info_; }
  const DiskCache& disk_cache() const { return disk_; }

  // OK, or why `result` of `what` failed, with the runtime's names.
  Status Check(hipError_t result, const std::string& what) const {
    return HipStatus(hip(), result, what);
  }

 private:
  // "gfx90a compute_units=... l2_bytes=...": the features after the
  // runtime.
  std::string LimitsText() const;

  DeviceInfo info_;
  uint32_t ordinal_ = 0;
  const char* target_ = nullptr;  // NULL: a device that runs
  std::string driver_version_, features_;
  DiskCache disk_;
};

// Makes the device the calling thread's current HIP device for the
// scope's life (allocations, streams, events and modules belong to the
// current device), restoring the caller's on exit.
class ScopedDevice {
 public:
  explicit ScopedDevice(const Device& device);
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

  // Whether the device was made current.
  const Status& status() const { return status_; }

 private:
  const Device& device_;
  int previous_ = -1;
  Status status_;
};

// Forgets the listed devices (shutdown, after every device has closed).
void ForgetDevices();

}  // namespace phal::amd

struct phal_plugin_device final : phal::amd::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_AMD_AMD_DEVICE_H_
