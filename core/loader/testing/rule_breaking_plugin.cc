// A plugin that breaks one rule of the ABI contract on request, the proof
// that the validation layer (core/loader/validation_layer.h) catches each,
// and that hangs on request, the proof that PHAL_EXECUTE_TIMEOUT bounds the
// wait (core/abi/stream_wait.h).
// It loads the cpu plugin and forwards every slot to it; the environment
// variable PHAL_TEST_BROKEN_RULE, read at every call, names the rule to
// break (unset: none, and the plugin behaves as cpu does):
//   null-buffer       buffer_allocate succeeds with a NULL buffer
//   reused-stream     stream_create returns a live stream again
//   event-is-buffer   event_create returns a live buffer as the event
//   bad-status-code   stream_synchronize fails with code 99
//   ok-status         stream_synchronize returns a status made with PHAL_OK
//   empty-message     stream_synchronize fails with an empty message
//   null-vendor       device_get_properties leaves vendor NULL
//   count-reason      device_count gives a reason with its devices
//   event-done        event_query sets *out_done to 7
//   empty-serialize   kernel_serialize succeeds with no bytes
//   bad-target-name   target_get_names lists "host,gpu"
//   bad-counters      device_get_counters gives one counter and no array
//   write-past-end    each launch writes 4 bytes past its last buffer
//   hung-launch       a stream that ran a launch never finishes its work as
//                     far as events tell (event_query says 0 for the events
//                     recorded on it); device_close releases such streams,
//                     which the core abandons
// Written in C++ against the C header and sdk/base; built as a module in
// lib/polyhal-testing/, outside the default search path.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "polyhal/plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/wrapped_plugin.h"

namespace {

const phal_plugin_api_t* cpu = nullptr;
const phal_host_services_t* host = nullptr;
phal_plugin_api_t table{};
std::mutex mutex;
phal_plugin_stream_t* last_stream = nullptr;
phal_plugin_buffer_t* last_buffer = nullptr;
// Per kernel, the byte size of the last buffer it binds.
std::unordered_map<phal_plugin_kernel_t*, uint64_t> last_binding_bytes;
// hung-launch: streams whose work never finishes, and the events recorded
// on them.
std::unordered_set<phal_plugin_stream_t*> hung_streams;
std::unordered_set<phal_plugin_event_t*> hung_events;
// Every buffer not freed yet, for device_close to release what the core
// abandoned with a hung stream.
std::unordered_set<phal_plugin_buffer_t*> live_buffers;

bool Breaking(const char* rule) {
  const char* broken = std::getenv("PHAL_TEST_BROKEN_RULE");
  return broken != nullptr && std::strcmp(broken, rule) == 0;
}

phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  phal_status_t* status = cpu->device_count(out_count, out_reason);
  if (status == nullptr && Breaking("count-reason")) {
    *out_reason = "no device, says the plugin that has one";
  }
  return status;
}

phal_status_t* DeviceGetProperties(phal_plugin_device_t* device,
                                   phal_device_properties_t* out) {
  phal_status_t* status = cpu->device_get_properties(device, out);
  if (status == nullptr && Breaking("null-vendor")) out->vendor = nullptr;
  return status;
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) {
  if (Breaking("null-buffer")) {
    *out_buffer = nullptr;
    return nullptr;
  }
  phal_status_t* status =
      cpu->buffer_allocate(device, memory_space, byte_size, out_buffer);
  if (status == nullptr) {
    std::lock_guard<std::mutex> lock(mutex);
    last_buffer = *out_buffer;
    live_buffers.insert(*out_buffer);
  }
  return status;
}

phal_status_t* StreamCreate(phal_plugin_device_t* device,
                            phal_plugin_stream_t** out_stream) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (Breaking("reused-stream") && last_stream != nullptr) {
      *out_stream = last_stream;
      return nullptr;
    }
  }
  phal_status_t* status = cpu->stream_create(device, out_stream);
  if (status == nullptr) {
    std::lock_guard<std::mutex> lock(mutex);
    last_stream = *out_stream;
  }
  return status;
}

void StreamDestroy(phal_plugin_stream_t* stream) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stream == last_stream) last_stream = nullptr;
    hung_streams.erase(stream);
  }
  cpu->stream_destroy(stream);
}

void BufferFree(phal_plugin_buffer_t* buffer) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (buffer == last_buffer) last_buffer = nullptr;
    live_buffers.erase(buffer);
  }
  cpu->buffer_free(buffer);
}

phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) {
  phal_status_t* status = cpu->stream_synchronize(stream);
  if (status != nullptr) return status;
  if (Breaking("bad-status-code")) {
    return host->status_create(static_cast<phal_status_code_t>(99),
                               "a code no enum has");
  }
  if (Breaking("ok-status")) return host->status_create(PHAL_OK, "all fine");
  if (Breaking("empty-message")) return host->status_create(PHAL_INTERNAL, "");
  return nullptr;
}

phal_status_t* EventCreate(phal_plugin_device_t* device,
                           phal_plugin_event_t** out_event) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (Breaking("event-is-buffer") && last_buffer != nullptr) {
      *out_event = reinterpret_cast<phal_plugin_event_t*>(last_buffer);
      return nullptr;
    }
  }
  return cpu->event_create(device, out_event);
}

phal_status_t* EventQuery(phal_plugin_event_t* event, int* out_done) {
  phal_status_t* status = cpu->event_query(event, out_done);
  if (status != nullptr) return status;
  if (Breaking("event-done")) *out_done = 7;
  std::lock_guard<std::mutex> lock(mutex);
  if (hung_events.count(event) > 0) *out_done = 0;
  return nullptr;
}

phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,
                                 phal_plugin_event_t* event) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (hung_streams.count(stream) > 0) hung_events.insert(event);
  }
  return cpu->stream_record_event(stream, event);
}

void EventDestroy(phal_plugin_event_t* event) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    hung_events.erase(event);
  }
  cpu->event_destroy(event);
}

// Releases what the core abandoned on hung streams before the device goes.
void DeviceClose(phal_plugin_device_t* device) {
  std::unordered_set<phal_plugin_stream_t*> streams;
  std::unordered_set<phal_plugin_event_t*> events;
  std::unordered_set<phal_plugin_buffer_t*> buffers;
  {
    std::lock_guard<std::mutex> lock(mutex);
    streams.swap(hung_streams);
    events.swap(hung_events);
    if (!streams.empty()) buffers.swap(live_buffers);
  }
  for (phal_plugin_event_t* event : events) cpu->event_destroy(event);
  for (phal_plugin_stream_t* stream : streams) cpu->stream_destroy(stream);
  for (phal_plugin_buffer_t* buffer : buffers) cpu->buffer_free(buffer);
  cpu->device_close(device);
}

phal_status_t* KernelEmit(phal_plugin_device_t* device,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t* options,
                          phal_plugin_kernel_t** out_kernel) {
  phal_status_t* status = cpu->kernel_emit(device, kernel, options, out_kernel);
  if (status != nullptr || kernel->buffer_count == 0) return status;
  const phal_kir_buffer_t& last = kernel->buffers[kernel->buffer_count - 1];
  uint64_t bytes = phal::ElementTypeByteSize(last.element_type);
  for (uint32_t d = 0; d < last.rank; ++d) {
    bytes *= static_cast<uint64_t>(last.dims[d]);
  }
  std::lock_guard<std::mutex> lock(mutex);
  last_binding_bytes[*out_kernel] = bytes;
  return nullptr;
}

void KernelDestroy(phal_plugin_kernel_t* kernel) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    last_binding_bytes.erase(kernel);
  }
  cpu->kernel_destroy(kernel);
}

phal_status_t* KernelSerialize(phal_plugin_kernel_t* kernel, void** out_data,
                               uint64_t* out_size) {
  phal_status_t* status = cpu->kernel_serialize(kernel, out_data, out_size);
  if (status == nullptr && Breaking("empty-serialize")) {
    host->host_free(*out_data);
    *out_data = nullptr;
    *out_size = 0;
  }
  return status;
}

phal_status_t* StreamLaunch(phal_plugin_stream_t* stream,
                            phal_plugin_kernel_t* kernel,
                            phal_plugin_buffer_t* const* buffers,
                            uint32_t buffer_count) {
  phal_status_t* status =
      cpu->stream_launch(stream, kernel, buffers, buffer_count);
  if (status == nullptr && Breaking("hung-launch")) {
    std::lock_guard<std::mutex> lock(mutex);
    hung_streams.insert(stream);
  }
  if (status != nullptr || !Breaking("write-past-end") || buffer_count == 0) {
    return status;
  }
  uint64_t end = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    end = last_binding_bytes[kernel];
  }
  // What an off-by-one store at the buffer's end does, queued after the
  // kernel as its own last write would be.
  static const uint8_t stray[4] = {0, 0, 0, 0};
  return cpu->stream_copy_from_host(stream, stray, buffers[buffer_count - 1],
                                    end, sizeof(stray));
}

phal_status_t* TargetGetNames(const char* const** out_names,
                              size_t* out_count) {
  static const char* const kBadNames[] = {"host,gpu"};
  if (Breaking("bad-target-name")) {
    *out_names = kBadNames;
    *out_count = 1;
    return nullptr;
  }
  return cpu->target_get_names(out_names, out_count);
}

phal_status_t* DeviceGetCounters(phal_plugin_device_t* device,
                                 phal_device_counter_t** out_counters,
                                 size_t* out_count) {
  if (Breaking("bad-counters")) {
    *out_counters = nullptr;
    *out_count = 1;
    return nullptr;
  }
  return cpu->device_get_counters(device, out_counters, out_count);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const phal_plugin_api_t*
phal_plugin_entry(phal_plugin_negotiation_t* negotiation) {
  cpu = phal::OpenWrappedPlugin(PHAL_RULE_BREAKING_WRAPPED_PLUGIN, negotiation,
                                &table);
  if (cpu == nullptr) return nullptr;
  host = negotiation->host;
  // The whole table of the headers' ABI, so the slots cpu leaves empty
  // (counters) can break their rules too.
  if (negotiation->core_max_version < PHAL_ABI_VERSION) return nullptr;
  negotiation->plugin_max_version = PHAL_ABI_VERSION;
  table.struct_size = static_cast<uint32_t>(sizeof(table));
  table.abi_version = PHAL_ABI_VERSION;
  table.name = "rule-breaking";
  table.device_count = DeviceCount;
  table.device_get_properties = DeviceGetProperties;
  table.buffer_allocate = BufferAllocate;
  table.buffer_free = BufferFree;
  table.stream_create = StreamCreate;
  table.stream_destroy = StreamDestroy;
  table.stream_synchronize = StreamSynchronize;
  table.event_create = EventCreate;
  table.event_query = EventQuery;
  table.stream_record_event = StreamRecordEvent;
  table.event_destroy = EventDestroy;
  table.device_close = DeviceClose;
  table.kernel_emit = KernelEmit;
  table.kernel_destroy = KernelDestroy;
  table.kernel_serialize = KernelSerialize;
  table.stream_launch = StreamLaunch;
  table.target_get_names = TargetGetNames;
  table.device_get_counters = DeviceGetCounters;
  return &table;
}
