// The cpu plugin's device: the host CPU, with host memory as its only
// memory space; or PHAL_VIRTUAL_DEVICES devices sharing the host's cores and
// memory (sdk/plugin_support/virtual_devices.h).
#ifndef POLYHAL_PLUGINS_CPU_CPU_DEVICE_H_
#define POLYHAL_PLUGINS_CPU_CPU_DEVICE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "plugins/cpu/cpu_info.h"
#include "plugins/cpu/cpu_kernel_cache.h"
#include "plugins/cpu/cpu_thread_pool.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// The one target the plugin compiles for without opening its device
// (plugin.h, target_get_names): the host CPU, whose code runs only on a
// CPU with the same triple and features (cpu_kernel_blob.h).
inline constexpr const char* kTargets[] = {"host"};

// Immutable once built, so every method may run on many threads at once
// (the kernel cache and the thread pool synchronise themselves).
class Device {
 public:
  // The only memory space: host RAM, index 0.
  static constexpr uint32_t kHostMemorySpace = 0;
  static constexpr uint32_t kMemorySpaceCount = 1;

  // Device `ordinal` of the `count` the plugin has: the host CPU, or one of
  // the virtual devices sharing it.
  Device(CpuInfo info, size_t ordinal, size_t count);
  // A compile-only device of `target` (one of kTargets, static storage):
  // kernels are emitted and serialized, while memory, streams and events
  // are refused.
  Device(CpuInfo info, const char* target);

  // Fill `out` as far as out->struct_size reaches (see types.h).
  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  // Every buffer is aligned to this power of two.
  uint64_t min_alignment() const { return info_.cache_line_bytes; }
  // No single buffer may be larger than physical memory: a bigger request
  // would only succeed through overcommit and die later in the OOM killer.
  uint64_t max_allocation_bytes() const;

  // OK on the device; on a compile-only device, the FAILED_PRECONDITION
  // saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

  // Compiled kernels of this device, by KIR fingerprint.
  KernelCache& kernel_cache() const { return *kernel_cache_; }
  // The threads every kernel launched on this device shares, and on every
  // other device of the plugin open at the same time, so that virtual
  // devices share the cores instead of oversubscribing them:
  // PHAL_CPU_THREADS of them when set, else one per online core. Started at
  // the device's first launch; stopped when the last device using it closes.
  ThreadPool& thread_pool() const;

 private:
  CpuInfo info_;
  std::string driver_version_;    // "<plugin version> (Linux <release>)"
  const char* target_ = nullptr;  // NULL: not compile-only
  uint32_t ordinal_ = 0;
  std::string name_;  // the model name (VirtualDeviceName), or the
                      // compile-only name
  std::array<uint8_t, 16> uuid_{};
  std::unique_ptr<KernelCache> kernel_cache_ = std::make_unique<KernelCache>();
  mutable std::once_flag thread_pool_started_;
  mutable std::shared_ptr<ThreadPool> thread_pool_;
};

// The ABI slots of the device group (plugin.h); cpu_plugin.cc puts them in
// the table.

}  // namespace phal::cpu

// The opaque handle plugin.h declares is the device itself.
struct phal_plugin_device final : phal::cpu::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_CPU_CPU_DEVICE_H_
