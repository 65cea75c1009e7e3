// The plugin's entry point and its ABI 1.0 function table. The table ends
// where ABI 1.0's does, so the core answers the 1.1 kernel slots with its
// stubs until this plugin implements them.
#include <cstddef>

#include "plugins/cpu/cpu_copy.h"
#include "plugins/cpu/cpu_device.h"
#include "plugins/cpu/cpu_event.h"
#include "plugins/cpu/cpu_host.h"
#include "plugins/cpu/cpu_memory.h"
#include "plugins/cpu/cpu_stream.h"
#include "polyhal/plugin.h"

namespace phal::cpu {
namespace {

constexpr uint32_t kAbiVersion = PHAL_MAKE_VERSION(1, 0);

// The plugin holds no global state beyond the host services: devices,
// buffers, streams and events are owned by their handles.
void Shutdown() { UninstallHostServices(); }

constexpr phal_plugin_api_t kApi = {
    .struct_size = offsetof(phal_plugin_api_t, kernel_emit),
    .next = nullptr,
    .abi_version = kAbiVersion,
    .name = PHAL_PLUGIN_NAME,
    .version = PHAL_PLUGIN_VERSION,
    .shutdown = Shutdown,
    .device_count = DeviceCount,
    .device_open = DeviceOpen,
    .device_close = DeviceClose,
    .device_get_properties = DeviceGetProperties,
    .device_get_memory_space = DeviceGetMemorySpace,
    .buffer_allocate = BufferAllocate,
    .buffer_free = BufferFree,
    .stream_create = StreamCreate,
    .stream_destroy = StreamDestroy,
    .stream_synchronize = StreamSynchronize,
    .stream_copy_from_host = StreamCopyFromHost,
    .stream_copy_to_host = StreamCopyToHost,
    .stream_copy_buffer = StreamCopyBuffer,
    .event_create = EventCreate,
    .event_destroy = EventDestroy,
    .stream_record_event = StreamRecordEvent,
    .stream_wait_event = StreamWaitEvent,
    .event_synchronize = EventSynchronize,
    .event_query = EventQuery,
    .kernel_emit = nullptr,
    .kernel_destroy = nullptr,
    .kernel_serialize = nullptr,
    .kernel_deserialize = nullptr,
    .stream_launch = nullptr,
};

// True when the core's negotiation record reaches the members the plugin
// writes; a shorter record cannot carry the answer.
bool HasPluginVersionFields(const phal_plugin_negotiation_t* negotiation) {
  constexpr size_t kEnd =
      offsetof(phal_plugin_negotiation_t, plugin_max_version) +
      sizeof(uint32_t);
  return negotiation->struct_size >= kEnd;
}

}  // namespace
}  // namespace phal::cpu

// The one exported symbol. The plugin speaks exactly ABI 1.0: it answers
// with its range always, and with its table only when the core's range
// contains 1.0 and the core offers status_create.
extern "C" PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  using phal::cpu::kAbiVersion;
  if (negotiation == nullptr ||
      !phal::cpu::HasPluginVersionFields(negotiation)) {
    return nullptr;
  }
  negotiation->plugin_min_version = kAbiVersion;
  negotiation->plugin_max_version = kAbiVersion;
  if (negotiation->core_min_version > kAbiVersion ||
      negotiation->core_max_version < kAbiVersion) {
    return nullptr;
  }
  if (!phal::cpu::InstallHostServices(negotiation->host)) return nullptr;
  return &phal::cpu::kApi;
}
