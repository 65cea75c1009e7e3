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

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/host_queue.h"
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

// The memory a buffer handle stands for: what its member `buffer` points at,
// or the handle itself where it has no such member.
template <typename Handle>
auto& BufferMemory(Handle* handle) {
  if constexpr (requires { *handle->buffer; }) {
    return *handle->buffer;
  } else {
    return *handle;
  }
}

// *out = the handle `opened` holds, or `opened`'s error.
template <typename Handle>
Status ReleaseInto(StatusOr<std::unique_ptr<Handle>> opened, Handle** out) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Handle> handle, std::move(opened));
  *out = handle.release();
  return OkStatus();
}

// The body of a create slot (stream_create, event_create): a new Handle of
// `device` in *out. A device that may be compile-only refuses first
// (`device.CheckRunnable(what)`, where the device has it); the handle is
// made from the device where it takes one, and initialised (`Init()`)
// where it has that.
template <typename Handle, typename Device>
Status CreateDeviceHandle(Device& device, const char* what, Handle** out) {
  if constexpr (requires { device.CheckRunnable(what); }) {
    PHAL_RETURN_IF_ERROR(device.CheckRunnable(what));
  }
  std::unique_ptr<Handle> handle;
  if constexpr (std::is_constructible_v<Handle, Device&>) {
    handle = std::make_unique<Handle>(device);
  } else {
    handle = std::make_unique<Handle>();
  }
  if constexpr (requires { handle->Init(); }) {
    PHAL_RETURN_IF_ERROR(handle->Init());
  }
  *out = handle.release();
  return OkStatus();
}

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

// Defines device_count and device_open in the enclosing namespace for a
// plugin with one device that is always there (the host's processor):
// device_count gives 1, and device_open of ordinal 0 takes the handle
// `open` makes (an expression of type std::unique_ptr<phal_plugin_device>);
// another ordinal is INVALID_ARGUMENT (CheckDeviceOrdinal,
// device_queries.h; `plugin`, "acme plugin", begins the message).
#define PHAL_DEFINE_ONE_DEVICE_SLOTS(plugin, open)                          \
  phal_status_t* DeviceCount(size_t* out_count,                             \
                             const char** out_reason) noexcept {            \
    *out_count = 1;                                                         \
    if (out_reason != nullptr) *out_reason = nullptr;                       \
    return nullptr;                                                         \
  }                                                                         \
  phal_status_t* DeviceOpen(size_t ordinal,                                 \
                            phal_plugin_device_t** out_device) noexcept {   \
    return ::phal::RunAtAbiBoundary([&]() -> ::phal::Status {               \
      PHAL_RETURN_IF_ERROR(::phal::CheckDeviceOrdinal(plugin, ordinal, 1)); \
      *out_device = (open).release();                                       \
      return ::phal::OkStatus();                                            \
    });                                                                     \
  }

// Defines target_get_names and target_device_open (ABI 1.4,
// kPluginTargetSlots) in the enclosing namespace for a plugin that compiles
// for `targets` (an array or span of static strings, the default first),
// with a function of its there that opens a compile-only device of
// targets[index]:
//
//   phal::StatusOr<std::unique_ptr<phal_plugin_device>> OpenTargetDevice(
//       size_t index);
//
// A target the plugin does not know is NOT_FOUND, listing the targets
// (FindCompileTarget, compile_targets.h; `plugin`, "acme plugin", begins
// the message). Use it after the device type is complete, in the plugin's
// device file.
#define PHAL_DEFINE_TARGET_SLOTS(targets, plugin)                            \
  phal_status_t* TargetGetNames(const char* const** out_names,               \
                                size_t* out_count) noexcept {                \
    return ::phal::ListCompileTargets(targets, out_names, out_count);        \
  }                                                                          \
  phal_status_t* TargetDeviceOpen(                                           \
      const char* target, phal_plugin_device_t** out_device) noexcept {      \
    return ::phal::RunAtAbiBoundary([&]() -> ::phal::Status {                \
      PHAL_ASSIGN_OR_RETURN(                                                 \
          size_t index, ::phal::FindCompileTarget(targets, target, plugin)); \
      return ::phal::ReleaseInto(OpenTargetDevice(index), out_device);       \
    });                                                                      \
  }

// Defines stream_copy_from_host, stream_copy_to_host and stream_copy_buffer
// in the enclosing namespace for a plugin whose buffer handle is its
// memory or holds it in a member `buffer` (BufferMemory), whose memory
// checks ranges, and whose stream handle queues the copies:
//
//   struct phal_plugin_buffer { Memory* buffer; };  // or a smart pointer,
//                                                   // or Memory itself
//   Memory:  phal::Status CheckRange(uint64_t offset, uint64_t size) const;
//   struct phal_plugin_stream {
//     phal::Status CopyFromHost(const void*, Memory&, uint64_t offset,
//                               uint64_t size);
//     phal::Status CopyToHost(Memory&, uint64_t offset, void*, uint64_t size);
//     phal::Status CopyBuffer(Memory&, uint64_t, Memory&, uint64_t,
//                             uint64_t size);
//   };
//
// phal::HostQueue (host_queue.h) has these copies for memory backed by host
// bytes. A range outside a buffer is refused before anything is queued.
// Use it after both handle types are complete, in the plugin's copy file.
#define PHAL_DEFINE_STREAM_COPY_SLOTS()                                       \
  phal_status_t* StreamCopyFromHost(                                          \
      phal_plugin_stream_t* stream, const void* source,                       \
      phal_plugin_buffer_t* buffer, uint64_t offset,                          \
      uint64_t byte_size) noexcept {                                          \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      PHAL_RETURN_IF_ERROR(                                                   \
          ::phal::BufferMemory(buffer).CheckRange(offset, byte_size));        \
      return stream->CopyFromHost(source, ::phal::BufferMemory(buffer),       \
                                  offset, byte_size);                         \
    });                                                                       \
  }                                                                           \
  phal_status_t* StreamCopyToHost(                                            \
      phal_plugin_stream_t* stream, phal_plugin_buffer_t* buffer,             \
      uint64_t offset, void* destination, uint64_t byte_size) noexcept {      \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      PHAL_RETURN_IF_ERROR(                                                   \
          ::phal::BufferMemory(buffer).CheckRange(offset, byte_size));        \
      return stream->CopyToHost(::phal::BufferMemory(buffer), offset,         \
                                destination, byte_size);                      \
    });                                                                       \
  }                                                                           \
  phal_status_t* StreamCopyBuffer(                                            \
      phal_plugin_stream_t* stream, phal_plugin_buffer_t* source,             \
      uint64_t source_offset, phal_plugin_buffer_t* destination,              \
      uint64_t destination_offset, uint64_t byte_size) noexcept {             \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      PHAL_RETURN_IF_ERROR(                                                   \
          ::phal::BufferMemory(source).CheckRange(source_offset, byte_size)); \
      PHAL_RETURN_IF_ERROR(::phal::BufferMemory(destination)                  \
                               .CheckRange(destination_offset, byte_size));   \
      return stream->CopyBuffer(::phal::BufferMemory(source), source_offset,  \
                                ::phal::BufferMemory(destination),            \
                                destination_offset, byte_size);               \
    });                                                                       \
  }

// Defines stream_create, stream_destroy and stream_synchronize in the
// enclosing namespace for a plugin whose stream handle is made as
// CreateDeviceHandle makes it and synchronizes itself:
//
//   struct phal_plugin_stream { phal::Status Synchronize(); };
//
// Destroying a stream deletes the handle, whose destructor waits for the
// work still queued. Use it after the handle types are complete, in the
// plugin's stream file.
#define PHAL_DEFINE_STREAM_HANDLE_SLOTS()                                      \
  phal_status_t* StreamCreate(phal_plugin_device_t* device,                    \
                              phal_plugin_stream_t** out_stream) noexcept {    \
    return ::phal::RunAtAbiBoundary([&] {                                      \
      return ::phal::CreateDeviceHandle(*device, "create streams",             \
                                        out_stream);                           \
    });                                                                        \
  }                                                                            \
  void StreamDestroy(phal_plugin_stream_t* stream) noexcept { delete stream; } \
  phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) noexcept {    \
    return ::phal::RunAtAbiBoundary([&] { return stream->Synchronize(); });    \
  }

// Defines event_create and event_destroy in the enclosing namespace for a
// plugin whose event handle is made as CreateDeviceHandle makes it. Use it
// after the handle types are complete, in the plugin's event file.
#define PHAL_DEFINE_EVENT_HANDLE_SLOTS()                                      \
  phal_status_t* EventCreate(phal_plugin_device_t* device,                    \
                             phal_plugin_event_t** out_event) noexcept {      \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      return ::phal::CreateDeviceHandle(*device, "create events", out_event); \
    });                                                                       \
  }                                                                           \
  void EventDestroy(phal_plugin_event_t* event) noexcept { delete event; }

// Defines every event slot (PHAL_DEFINE_EVENT_HANDLE_SLOTS and
// stream_record_event, stream_wait_event, event_synchronize, event_query)
// in the enclosing namespace for a plugin whose events have fired when
// their record returns, carrying the error of the work before them
// (phal::HostEvent, host_queue.h):
//
//   struct phal_plugin_event : phal::HostEvent {};
//   struct phal_plugin_stream {
//     // Waits for the queued work; the error Synchronize would return.
//     phal::Status Drain();
//     // Makes `status` the stream's error if it has none.
//     void AddError(phal::Status status);
//   };
//
// Work queued on a stream after a wait inherits the error of the work the
// event waited for, so the stream's next synchronize reports it too.
#define PHAL_DEFINE_FIRED_EVENT_SLOTS()                                       \
  PHAL_DEFINE_EVENT_HANDLE_SLOTS()                                            \
  phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,              \
                                   phal_plugin_event_t* event) noexcept {     \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      event->Fire(stream->Drain());                                           \
      return ::phal::OkStatus();                                              \
    });                                                                       \
  }                                                                           \
  phal_status_t* StreamWaitEvent(phal_plugin_stream_t* stream,                \
                                 phal_plugin_event_t* event) noexcept {       \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      stream->AddError(event->carried_status());                              \
      return ::phal::OkStatus();                                              \
    });                                                                       \
  }                                                                           \
  phal_status_t* EventSynchronize(phal_plugin_event_t* event) noexcept {      \
    return ::phal::RunAtAbiBoundary([&] { return event->carried_status(); }); \
  }                                                                           \
  phal_status_t* EventQuery(phal_plugin_event_t* /*event*/,                   \
                            int* out_done) noexcept {                         \
    *out_done = 1;                                                            \
    return nullptr;                                                           \
  }

// Defines kernel_emit, kernel_destroy, kernel_serialize and stream_launch
// in the enclosing namespace from three functions of the plugin's there,
// each run at the ABI boundary:
//
//   phal::Status Emit(phal_plugin_device&, const phal_kernel_desc_t*,
//                     const phal_kernel_options_t*, phal_plugin_kernel_t**);
//   std::string Encode(const phal_plugin_kernel&);  // the serialized bytes,
//                                                   // or a reference to them
//   phal::Status Launch(phal_plugin_stream&, phal_plugin_kernel&,
//                       phal_plugin_buffer_t* const*, uint32_t);
//
// `plugin` ("acme plugin") names the plugin in the error of a serialize
// that finds no host memory. kernel_deserialize is the plugin's own. Use it
// after the handle types are complete, in the plugin's kernel file.
#define PHAL_DEFINE_KERNEL_SLOTS(plugin)                                       \
  phal_status_t* KernelEmit(phal_plugin_device_t* device,                      \
                            const phal_kernel_desc_t* kernel,                  \
                            const phal_kernel_options_t* options,              \
                            phal_plugin_kernel_t** out_kernel) noexcept {      \
    return ::phal::RunAtAbiBoundary(                                           \
        [&] { return Emit(*device, kernel, options, out_kernel); });           \
  }                                                                            \
  void KernelDestroy(phal_plugin_kernel_t* kernel) noexcept { delete kernel; } \
  phal_status_t* KernelSerialize(phal_plugin_kernel_t* kernel,                 \
                                 void** out_data,                              \
                                 uint64_t* out_size) noexcept {                \
    return ::phal::RunAtAbiBoundary([&] {                                      \
      return ::phal::ReturnHostBytes(                                          \
          Encode(*kernel), std::string(plugin) + ": serialized kernel",        \
          out_data, out_size);                                                 \
    });                                                                        \
  }                                                                            \
  phal_status_t* StreamLaunch(                                                 \
      phal_plugin_stream_t* stream, phal_plugin_kernel_t* kernel,              \
      phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) noexcept {  \
    return ::phal::RunAtAbiBoundary(                                           \
        [&] { return Launch(*stream, *kernel, buffers, buffer_count); });      \
  }

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOTS_H_
