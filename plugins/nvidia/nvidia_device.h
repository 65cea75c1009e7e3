// Devices: every GPU the CUDA driver reports, in the driver's order, then,
// with PHAL_GPU_EMULATION=1, "nvidia (emulated sm_90)", a device of the grid
// emulator's driver (nvidia_emulator.h). Each open retains the device's
// primary context, the one every CUDA runtime user of the process shares,
// so buffers the plugin allocates are valid there too. A compile-only
// device of a target (plugin.h, ABI 1.4) needs neither driver nor GPU.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_DEVICE_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_DEVICE_H_

#include <cstdint>
#include <string>

#include "plugins/nvidia/nvidia_cuda.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::nvidia {

// The targets the plugin compiles for without a GPU (plugin.h,
// target_get_names): PTX for a compute capability, the default sm_80 (the
// A100's, the common data-centre baseline) first, and emulated-sm_90, the
// emulated device's host code, which `polyhal run` loads on it
// (PHAL_GPU_EMULATION=1). Serialized kernels load only on a device of the
// target they were compiled for.
inline constexpr const char* kTargets[] = {"sm_80", "sm_75", "sm_86",
                                           "sm_89", "sm_90", "emulated-sm_90"};

// What the plugin reads of a device once, when it lists them.
struct DeviceInfo {
  // The driver's table or the emulator's; NULL on a compile-only device.
  const Cuda* cuda = nullptr;
  CUdevice device = 0;  // the ordinal in that table
  bool emulated = false;
  std::string name;
  // major * 10 + minor: 90 for sm_90.
  int compute_capability = 0;
  int multiprocessors = 0;
  int max_threads_per_block = 0;
  int max_block[3] = {};
  int max_grid[3] = {};
  int shared_bytes_per_block = 0;
  int shared_bytes_per_block_optin = 0;
  int warp_size = 0;
  int clock_khz = 0;
  int l2_bytes = 0;
  uint64_t memory_bytes = 0;
  CUuuid uuid{};
};

// Thread-safe: every member is immutable once opened.
class Device {
 public:
  static constexpr uint32_t kDeviceMemorySpace = 0;
  // cuMemAlloc aligns every allocation to at least this.
  static constexpr uint64_t kMinAlignment = 256;

  Device(const DeviceInfo& info, uint32_t ordinal);
  // A compile-only device of `target` (one of kTargets, static storage):
  // kernels are emitted, serialized and deserialized, never loaded, and
  // memory, streams and events are refused.
  explicit Device(const char* target);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Retains the primary context (nothing on a compile-only device).
  Status Open();

  bool compile_only() const { return target_ != nullptr; }
  // OK on a device that runs; on a compile-only device, the
  // FAILED_PRECONDITION saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  // Only on a device that runs.
  const Cuda& cuda() const { return *info_.cuda; }
  const DeviceInfo& info() const { return info_; }
  CUcontext context() const { return context_; }
  // "sm_90".
  std::string arch() const;
  const DiskCache& disk_cache() const { return disk_; }

  // OK, or why `status` of `what` failed, with the driver's names.
  Status Check(CUresult result, const std::string& what) const {
    return CudaStatus(cuda(), result, what);
  }

 private:
  // "sm_90 multiprocessors=... l2_bytes=...": the features after the driver.
  std::string LimitsText() const;

  DeviceInfo info_;
  uint32_t ordinal_ = 0;
  const char* target_ = nullptr;  // NULL: a device that runs
  CUcontext context_ = nullptr;
  std::string driver_version_, features_;
  DiskCache disk_;
};

// Makes the device's primary context current on the calling thread for the
// scope's life (the driver's calls act on the current context), restoring
// the caller's on exit.
class ScopedContext {
 public:
  explicit ScopedContext(const Device& device);
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

  // Whether the context was made current.
  const Status& status() const { return status_; }

 private:
  const Device& device_;
  Status status_;
};

// Forgets the listed devices (shutdown, after every device has closed).
void ForgetDevices();

}  // namespace phal::nvidia

struct phal_plugin_device final : phal::nvidia::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_DEVICE_H_
