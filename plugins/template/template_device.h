// The device: what the plugin tells the core about the hardware it drives.
// The template drives one device made of host memory and the host CPU, or
// PHAL_VIRTUAL_DEVICES of them (sdk/plugin_support/virtual_devices.h).
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_DEVICE_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_DEVICE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::template_plugin {

// The one memory space of the device: host memory.
inline constexpr uint32_t kHostMemorySpace = 0;
inline constexpr uint32_t kMemorySpaceCount = 1;
// Buffers are aligned to 64 bytes, a cache line.
inline constexpr uint64_t kMinAlignment = 64;

// The targets the plugin compiles for without a device (plugin.h,
// target_get_names), the default first. TODO(vendor): name the
// architectures your compiler emits code for ("gfx90a", "sm_80").
inline constexpr const char* kTargets[] = {"host"};

// Immutable once opened, so every method may be called from any thread.
// TODO(vendor): hold your driver's device handle here and read the
// properties below from it.
class Device {
 public:
  // Device `ordinal` of the `count` the plugin has.
  Device(size_t ordinal, size_t count);
  // A compile-only device of `target`, one of kTargets (static storage):
  // it emits and serializes kernels and refuses memory, streams and events.
  explicit Device(const char* target);

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;
  uint64_t memory_bytes() const { return memory_bytes_; }
  // OK on a device of the hardware; on a compile-only device, the
  // FAILED_PRECONDITION saying it cannot `what`.
  Status CheckRunnable(const char* what) const;

 private:
  uint64_t memory_bytes_;
  uint32_t compute_units_;
  const char* target_ = nullptr;  // NULL: not compile-only
  uint32_t ordinal_ = 0;
  std::string name_;
  std::array<uint8_t, 16> uuid_{};
};

// The table's device slots (plugin.h documents each).

}  // namespace phal::template_plugin

// The opaque handle plugin.h declares is the device itself.
struct phal_plugin_device final : phal::template_plugin::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_DEVICE_H_
