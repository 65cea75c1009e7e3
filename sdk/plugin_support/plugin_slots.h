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

// Defines stream_copy_from_host, stream_copy_to_host and stream_copy_buffer
// in the enclosing namespace for a plugin whose buffer handle holds its
// memory in a member `buffer` that checks ranges, and whose stream handle
// queues the copies:
//
//   struct phal_plugin_buffer { Memory* buffer; };  // or a smart pointer
//   Memory:  phal::Status CheckRange(uint64_t offset, uint64_t size) const;
//   struct phal_plugin_stream {
//     phal::Status CopyFromHost(const void*, Memory&, uint64_t offset,
//                               uint64_t size);
//     phal::Status CopyToHost(Memory&, uint64_t offset, void*, uint64_t size);
//     phal::Status CopyBuffer(Memory&, uint64_t, Memory&, uint64_t,
//                             uint64_t size);
//   };
//
// A range outside a buffer is refused before anything is queued. Use it
// after both handle types are complete, in the plugin's copy file.
#define PHAL_DEFINE_STREAM_COPY_SLOTS()                                        \
  phal_status_t* StreamCopyFromHost(                                           \
      phal_plugin_stream_t* stream, const void* source,                        \
      phal_plugin_buffer_t* buffer, uint64_t offset,                           \
      uint64_t byte_size) noexcept {                                           \
    return ::phal::RunAtAbiBoundary([&] {                                      \
      PHAL_RETURN_IF_ERROR(buffer->buffer->CheckRange(offset, byte_size));     \
      return stream->CopyFromHost(source, *buffer->buffer, offset, byte_size); \
    });                                                                        \
  }                                                                            \
  phal_status_t* StreamCopyToHost(                                             \
      phal_plugin_stream_t* stream, phal_plugin_buffer_t* buffer,              \
      uint64_t offset, void* destination, uint64_t byte_size) noexcept {       \
    return ::phal::RunAtAbiBoundary([&] {                                      \
      PHAL_RETURN_IF_ERROR(buffer->buffer->CheckRange(offset, byte_size));     \
      return stream->CopyToHost(*buffer->buffer, offset, destination,          \
                                byte_size);                                    \
    });                                                                        \
  }                                                                            \
  phal_status_t* StreamCopyBuffer(                                             \
      phal_plugin_stream_t* stream, phal_plugin_buffer_t* source,              \
      uint64_t source_offset, phal_plugin_buffer_t* destination,               \
      uint64_t destination_offset, uint64_t byte_size) noexcept {              \
    return ::phal::RunAtAbiBoundary([&] {                                      \
      PHAL_RETURN_IF_ERROR(                                                    \
          source->buffer->CheckRange(source_offset, byte_size));               \
      PHAL_RETURN_IF_ERROR(                                                    \
          destination->buffer->CheckRange(destination_offset, byte_size));     \
      return stream->CopyBuffer(*source->buffer, source_offset,                \
                                *destination->buffer, destination_offset,      \
                                byte_size);                                    \
    });                                                                        \
  }

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOTS_H_
