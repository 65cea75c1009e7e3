// Virtual devices: more devices than the hardware has, for testing
// multi-device programs on one machine, as XLA's
// --xla_force_host_platform_device_count does. One knob serves every plugin
// that can offer them:
//
//   PHAL_VIRTUAL_DEVICES=N   (1 <= N <= kMaxVirtualDevices)
//
// gives the plugin N devices where it would have its default (one host
// device, one simulated chip, one emulated GPU). Unset, the plugin keeps
// its default. Any other text (0, a negative number, letters, trailing
// characters, a count above the maximum) leaves the plugin with no device
// and a reason naming the variable, the text and what it accepts: a
// broken environment is never an error of the process.
//
// A plugin whose devices need nothing but their ordinal to open defines
// device_count and device_open with one line, PHAL_DEFINE_VIRTUAL_DEVICE_SLOTS
// below; the others read VirtualDeviceCount themselves. Virtual devices are
// distinct devices: each has its own handle, buffers, streams, ordinal, name
// (VirtualDeviceName) and UUID (VirtualDeviceUuid); they may share what
// the hardware under them shares (the host's cores, its memory).
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_VIRTUAL_DEVICES_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_VIRTUAL_DEVICES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal {

inline constexpr const char* kVirtualDevicesVariable = "PHAL_VIRTUAL_DEVICES";
// The most devices the knob may ask for.
inline constexpr size_t kMaxVirtualDevices = 64;

// The device count `text`, the knob's value, asks for: `default_count` when
// `text` is NULL (the variable is unset); its number when it is a decimal
// number from 1 to kMaxVirtualDevices; otherwise INVALID_ARGUMENT saying
// PHAL_VIRTUAL_DEVICES="<text>" is not a device count and what it accepts.
StatusOr<size_t> ParseVirtualDeviceCount(const char* text,
                                         size_t default_count);

// ParseVirtualDeviceCount of PHAL_VIRTUAL_DEVICES as the process's
// environment holds it now. Read at every call: a plugin that counts its
// devices in device_count and checks ordinals in device_open sees the same
// value as long as the environment does not change in between.
StatusOr<size_t> VirtualDeviceCount(size_t default_count);

// device_count's answer for a plugin of VirtualDeviceCount(default_count)
// devices: the count and a NULL reason, or none and the knob's error as
// the reason (static storage: the text of each distinct reason is kept for
// the process's life).
void CountVirtualDevices(size_t default_count, size_t* out_count,
                         const char** out_reason);

// A copy of `text` that lives as long as the process, for device_count's
// out_reason; equal texts share one copy. Thread-safe.
const char* StaticReason(const std::string& text);

// OK when `ordinal` names one of the VirtualDeviceCount(default_count)
// devices; otherwise INVALID_ARGUMENT, beginning with `plugin` ("acme
// plugin") and naming the knob when its value is what refuses the device.
Status CheckVirtualDeviceOrdinal(std::string_view plugin, size_t ordinal,
                                 size_t default_count);

// A name-based UUID (RFC 9562 version 8) of `identity`: the same text gives
// the same UUID in every run and process.
std::array<uint8_t, 16> NameBasedUuid(std::string_view identity);

// The UUID of virtual device `ordinal` of a device whose own UUID is `base`:
// `base` itself for device 0, so a plugin's default device keeps its
// identity; for the others a name-based UUID of `base` and the ordinal,
// distinct from each other's and stable across runs.
std::array<uint8_t, 16> VirtualDeviceUuid(const std::array<uint8_t, 16>& base,
                                          size_t ordinal);

// The name of virtual device `ordinal` of `count` of a device named `name`:
// `name` when the plugin has its one device, else "<name> (virtual device
// <ordinal> of <count>)".
std::string VirtualDeviceName(std::string_view name, size_t ordinal,
                              size_t count);

}  // namespace phal

// Defines device_count and device_open in the enclosing namespace for a
// plugin with one device of its own and PHAL_VIRTUAL_DEVICES of them when
// the knob is set: device_count answers CountVirtualDevices(1, ...), and
// device_open of an ordinal CheckVirtualDeviceOrdinal accepts takes the
// handle a function of the plugin's there makes,
//
//   phal::StatusOr<std::unique_ptr<phal_plugin_device>> OpenDevice(
//       size_t ordinal, size_t count);
//
// where `count` is the number of devices the plugin has now. `plugin`
// ("acme plugin") begins the messages. Use it after the device type is
// complete, in the plugin's device file.
#define PHAL_DEFINE_VIRTUAL_DEVICE_SLOTS(plugin)                          \
  phal_status_t* DeviceCount(size_t* out_count,                           \
                             const char** out_reason) noexcept {          \
    return ::phal::RunAtAbiBoundary([&] {                                 \
      ::phal::CountVirtualDevices(1, out_count, out_reason);              \
      return ::phal::OkStatus();                                          \
    });                                                                   \
  }                                                                       \
  phal_status_t* DeviceOpen(size_t ordinal,                               \
                            phal_plugin_device_t** out_device) noexcept { \
    return ::phal::RunAtAbiBoundary([&]() -> ::phal::Status {             \
      PHAL_RETURN_IF_ERROR(                                               \
          ::phal::CheckVirtualDeviceOrdinal(plugin, ordinal, 1));         \
      PHAL_ASSIGN_OR_RETURN(size_t count, ::phal::VirtualDeviceCount(1)); \
      return ::phal::ReleaseInto(OpenDevice(ordinal, count), out_device); \
    });                                                                   \
  }

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_VIRTUAL_DEVICES_H_
