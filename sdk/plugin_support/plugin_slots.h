// The slot functions of a plugin, declared once. A plugin whose slot
// functions are named after their slots in CamelCase (device_count:
// DeviceCount, stream_launch: StreamLaunch), as
// PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME (plugin_entry.h) expects, declares
// them all in its namespace with one line,
//
//   namespace phal::acme { PHAL_DECLARE_PLUGIN_SLOTS() }
//
// and defines each, noexcept, in the concept file it belongs to. Each
// declaration has exactly the type of its slot in phal_plugin_api_t, so a
// definition with another exception specification fails to compile and
// one with other parameters leaves the slot undefined at link time: the
// signatures are written once, in plugin.h, and the list of slots once, in
// plugin_slot_list.h. A declared slot function that is never defined costs
// nothing until a table names it: a plugin without the ahead-of-time slots
// (ABI 1.4, kPluginTargetSlots) leaves TargetGetNames and TargetDeviceOpen
// undefined, one without counters (ABI 1.5, kPluginCounterSlots)
// DeviceGetCounters and DeviceResetCounters.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOTS_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOTS_H_

#include "polyhal/plugin.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slot_list.h"

namespace phal {

// The function type a slot's pointer points at, noexcept: no exception may
// cross the ABI.
template <typename Pointer>
struct PluginSlotFunction;
template <typename Result, typename... Parameters>
struct PluginSlotFunction<Result (*)(Parameters...)> {
  using type = Result(Parameters...) noexcept;
};

}  // namespace phal

#define PHAL_PLUGIN_SLOT_FUNCTION(slot) \
  ::phal::PluginSlotFunction<decltype(phal_plugin_api_t::slot)>::type

#define PHAL_DECLARE_PLUGIN_SLOT_(major, minor, slot, Function, group) \
  PHAL_PLUGIN_SLOT_FUNCTION(slot) Function;
#define PHAL_DECLARE_PLUGIN_SLOTS() PHAL_PLUGIN_SLOTS(PHAL_DECLARE_PLUGIN_SLOT_)

// Defines device_close, device_get_properties and device_get_memory_space
// in the enclosing namespace for a plugin whose device handle answers the
// queries itself:
//
//   struct phal_plugin_device {
//     phal::Status GetProperties(phal_device_properties_t* out) const;
//     phal::Status GetMemorySpace(uint32_t index,
//                                 phal_memory_space_info_t* out) const;
//   };
//
// device_close deletes the handle; the queries run at the ABI boundary
// (RunAtAbiBoundary, plugin_host.h). Use it after the handle type is
// complete, in the file that defines the device's other slots.
#define PHAL_DEFINE_DEVICE_QUERY_SLOTS()                                       \
  void DeviceClose(phal_plugin_device_t* device) noexcept { delete device; }   \
  phal_status_t* DeviceGetProperties(phal_plugin_device_t* device,             \
                                     phal_device_properties_t* out) noexcept { \
    return ::phal::RunAtAbiBoundary(                                           \
        [&] { return device->GetProperties(out); });                           \
  }                                                                            \
  phal_status_t* DeviceGetMemorySpace(                                         \
      phal_plugin_device_t* device, uint32_t index,                            \
      phal_memory_space_info_t* out) noexcept {                                \
    return ::phal::RunAtAbiBoundary(                                           \
        [&] { return device->GetMemorySpace(index, out); });                   \
  }

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOTS_H_
