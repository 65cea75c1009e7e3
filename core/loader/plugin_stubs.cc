#include "core/loader/plugin_stubs.h"

#include <cstddef>
#include <cstring>

#include "core/loader/c_status.h"

namespace phal {
namespace {

phal_status_t* Unimplemented(const char* slot) {
  std::string message = std::string("the plugin does not implement ") + slot;
  return MakeCStatus(PHAL_UNIMPLEMENTED, message.c_str());
}

void ShutdownStub() {}
phal_status_t* DeviceCountStub(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "the plugin does not implement device_count";
  return nullptr;
}
phal_status_t* DeviceOpenStub(size_t, phal_plugin_device_t**) {
  return Unimplemented("device_open");
}
void DeviceCloseStub(phal_plugin_device_t*) {}
phal_status_t* DeviceGetPropertiesStub(phal_plugin_device_t*,
                                       phal_device_properties_t*) {
  return Unimplemented("device_get_properties");
}
phal_status_t* DeviceGetMemorySpaceStub(phal_plugin_device_t*, uint32_t,
                                        phal_memory_space_info_t*) {
  return Unimplemented("device_get_memory_space");
}
phal_status_t* BufferAllocateStub(phal_plugin_device_t*, uint32_t, uint64_t,
                                  phal_plugin_buffer_t**) {
  return Unimplemented("buffer_allocate");
}
void BufferFreeStub(phal_plugin_buffer_t*) {}
phal_status_t* StreamCreateStub(phal_plugin_device_t*, phal_plugin_stream_t**) {
  return Unimplemented("stream_create");
}
void StreamDestroyStub(phal_plugin_stream_t*) {}
phal_status_t* StreamSynchronizeStub(phal_plugin_stream_t*) {
  return Unimplemented("stream_synchronize");
}
phal_status_t* StreamCopyFromHostStub(phal_plugin_stream_t*, const void*,
                                      phal_plugin_buffer_t*, uint64_t,
                                      uint64_t) {
  return Unimplemented("stream_copy_from_host");
}
phal_status_t* StreamCopyToHostStub(phal_plugin_stream_t*,
                                    phal_plugin_buffer_t*, uint64_t, void*,
                                    uint64_t) {
  return Unimplemented("stream_copy_to_host");
}
phal_status_t* StreamCopyBufferStub(phal_plugin_stream_t*,
                                    phal_plugin_buffer_t*, uint64_t,
                                    phal_plugin_buffer_t*, uint64_t, uint64_t) {
  return Unimplemented("stream_copy_buffer");
}
phal_status_t* EventCreateStub(phal_plugin_device_t*, phal_plugin_event_t**) {
  return Unimplemented("event_create");
}
void EventDestroyStub(phal_plugin_event_t*) {}
phal_status_t* StreamRecordEventStub(phal_plugin_stream_t*,
                                     phal_plugin_event_t*) {
  return Unimplemented("stream_record_event");
}
phal_status_t* StreamWaitEventStub(phal_plugin_stream_t*,
                                   phal_plugin_event_t*) {
  return Unimplemented("stream_wait_event");
}
phal_status_t* EventSynchronizeStub(phal_plugin_event_t*) {
  return Unimplemented("event_synchronize");
}
phal_status_t* EventQueryStub(phal_plugin_event_t*, int*) {
  return Unimplemented("event_query");
}
phal_status_t* KernelEmitStub(phal_plugin_device_t*, const phal_kernel_desc_t*,
                              const phal_kernel_options_t*,
                              phal_plugin_kernel_t**) {
  return Unimplemented("kernel_emit");
}
void KernelDestroyStub(phal_plugin_kernel_t*) {}
phal_status_t* KernelSerializeStub(phal_plugin_kernel_t*, void**, uint64_t*) {
  return Unimplemented("kernel_serialize");
}
phal_status_t* KernelDeserializeStub(phal_plugin_device_t*, const void*,
                                     uint64_t, phal_plugin_kernel_t**) {
  return Unimplemented("kernel_deserialize");
}
phal_status_t* StreamLaunchStub(phal_plugin_stream_t*, phal_plugin_kernel_t*,
                                phal_plugin_buffer_t* const*, uint32_t) {
  return Unimplemented("stream_launch");
}

// A plugin without the ahead-of-time slots compiles for no target.
phal_status_t* TargetGetNamesStub(const char* const** out_names,
                                  size_t* out_count) {
  *out_names = nullptr;
  *out_count = 0;
  return nullptr;
}
phal_status_t* TargetDeviceOpenStub(const char*, phal_plugin_device_t**) {
  return MakeCStatus(PHAL_UNIMPLEMENTED,
                     "the plugin does not implement target_device_open: it "
                     "compiles only for the devices it has opened");
}

// A plugin without the counter slots keeps no counters: its devices report
// none, and there is nothing to reset.
phal_status_t* DeviceGetCountersStub(phal_plugin_device_t*,
                                     phal_device_counter_t** out_counters,
                                     size_t* out_count) {
  *out_counters = nullptr;
  *out_count = 0;
  return nullptr;
}
phal_status_t* DeviceResetCountersStub(phal_plugin_device_t*) {
  return nullptr;
}

// Replaces `slot` with `stub` when the plugin's table ends before the slot
// or leaves it NULL.
template <typename Slot>
void FillSlot(Slot& slot, Slot stub, size_t offset, size_t provided_size,
              const char* name, std::vector<std::string>* missing) {
  if (offset + sizeof(Slot) <= provided_size && slot != nullptr) return;
  slot = stub;
  if (missing != nullptr) missing->push_back(name);
}

}  // namespace

phal_plugin_api_t CompletePluginTable(const phal_plugin_api_t& provided,
                                      std::vector<std::string>* missing) {
  phal_plugin_api_t table;
  std::memset(&table, 0, sizeof(table));
  size_t provided_size = provided.struct_size;
  std::memcpy(&table, &provided,
              provided_size < sizeof(table) ? provided_size : sizeof(table));
  table.struct_size = sizeof(table);

#define PHAL_FILL_SLOT(slot, stub)                               \
  FillSlot(table.slot, &stub, offsetof(phal_plugin_api_t, slot), \
           provided_size, #slot, missing)
  PHAL_FILL_SLOT(shutdown, ShutdownStub);
  PHAL_FILL_SLOT(device_count, DeviceCountStub);
  PHAL_FILL_SLOT(device_open, DeviceOpenStub);
  PHAL_FILL_SLOT(device_close, DeviceCloseStub);
  PHAL_FILL_SLOT(device_get_properties, DeviceGetPropertiesStub);
  PHAL_FILL_SLOT(device_get_memory_space, DeviceGetMemorySpaceStub);
  PHAL_FILL_SLOT(buffer_allocate, BufferAllocateStub);
  PHAL_FILL_SLOT(buffer_free, BufferFreeStub);
  PHAL_FILL_SLOT(stream_create, StreamCreateStub);
  PHAL_FILL_SLOT(stream_destroy, StreamDestroyStub);
  PHAL_FILL_SLOT(stream_synchronize, StreamSynchronizeStub);
  PHAL_FILL_SLOT(stream_copy_from_host, StreamCopyFromHostStub);
  PHAL_FILL_SLOT(stream_copy_to_host, StreamCopyToHostStub);
  PHAL_FILL_SLOT(stream_copy_buffer, StreamCopyBufferStub);
  PHAL_FILL_SLOT(event_create, EventCreateStub);
  PHAL_FILL_SLOT(event_destroy, EventDestroyStub);
  PHAL_FILL_SLOT(stream_record_event, StreamRecordEventStub);
  PHAL_FILL_SLOT(stream_wait_event, StreamWaitEventStub);
  PHAL_FILL_SLOT(event_synchronize, EventSynchronizeStub);
  PHAL_FILL_SLOT(event_query, EventQueryStub);
  PHAL_FILL_SLOT(kernel_emit, KernelEmitStub);
  PHAL_FILL_SLOT(kernel_destroy, KernelDestroyStub);
  PHAL_FILL_SLOT(kernel_serialize, KernelSerializeStub);
  PHAL_FILL_SLOT(kernel_deserialize, KernelDeserializeStub);
  PHAL_FILL_SLOT(stream_launch, StreamLaunchStub);
  PHAL_FILL_SLOT(target_get_names, TargetGetNamesStub);
  PHAL_FILL_SLOT(target_device_open, TargetDeviceOpenStub);
  PHAL_FILL_SLOT(device_get_counters, DeviceGetCountersStub);
  PHAL_FILL_SLOT(device_reset_counters, DeviceResetCountersStub);
#undef PHAL_FILL_SLOT
  static_assert(sizeof(phal_plugin_api_t) ==
                    offsetof(phal_plugin_api_t, device_reset_counters) +
                        sizeof(table.device_reset_counters),
                "a slot was appended to phal_plugin_api_t without a stub");
  return table;
}

}  // namespace phal
