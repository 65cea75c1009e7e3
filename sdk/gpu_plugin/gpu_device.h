// Devices: every GPU the vendor's runtime reports, in its order, then, with
// PHAL_GPU_EMULATION=1, the grid emulator's device. A compile-only device
// of a target (plugin.h, ABI 1.4) needs neither runtime nor GPU.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_DEVICE_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_DEVICE_H_

#include <cstdint>
#include <string>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_driver.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::gpu_plugin {

// Thread-safe: every member is immutable once opened.
class Device {
 public:
  static constexpr uint32_t kDeviceMemorySpace = 0;
  // Both runtimes align every allocation to at least this.
  static constexpr uint64_t kMinAlignment = 256;

  Device(const GpuDeviceInfo& info, uint32_t ordinal);
  // A compile-only device of `target` (one of the vendor's targets, static
  // storage): kernels are emitted, serialized and deserialized, never
  // loaded, and memory, streams and events are refused.
  explicit Device(const char* target);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Makes what the driver needs before the first call (nothing on a
  // compile-only device).
  Status Open();

  bool compile_only() const { return target_ != nullptr; }
  // OK on a device that runs; on a compile-only device, the
  // FAILED_PRECONDITION saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  // Only on a device that runs.
  const GpuDriver& driver() const { return *info_.driver; }
  GpuPlace place() const { return {info_.device, context_}; }
  const GpuDeviceInfo& info() const { return info_; }
  const DiskCache& disk_cache() const { return disk_; }

 private:
  GpuDeviceInfo info_;
  uint32_t ordinal_ = 0;
  const char* target_ = nullptr;  // NULL: a device that runs
  void* context_ = nullptr;
  bool opened_ = false;
  std::string driver_version_, features_;
  DiskCache disk_;
};

// Makes the device current on the calling thread for the scope's life (the
// driver's calls act on the current device), restoring the caller's on
// exit.
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
  intptr_t saved_ = 0;
  Status status_;
};

// PHAL_KERNEL_KIND_BIT mask of the kinds the SPMD emitter compiles.
uint64_t SupportedKernelKinds();

}  // namespace phal::gpu_plugin

struct phal_plugin_device final : phal::gpu_plugin::Device {
  using Device::Device;
};

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_DEVICE_H_
