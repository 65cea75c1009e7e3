// The plugin's entry point and its function tables: ABI 1.2 (KIR with the
// 1.2 node ops) and 1.1 share one table, told apart by abi_version, which
// tells the core which KIR ops it may hand over; ABI 1.0 is the same table
// ending where 1.0's does, for a core that speaks only 1.0.
#include <cstddef>

#include "plugins/intel/intel_copy.h"
#include "plugins/intel/intel_device.h"
#include "plugins/intel/intel_event.h"
#include "plugins/intel/intel_kernel.h"
#include "plugins/intel/intel_memory.h"
#include "plugins/intel/intel_stream.h"
#include "polyhal/plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

constexpr uint32_t kMinAbiVersion = PHAL_MAKE_VERSION(1, 0);
constexpr uint32_t kKernelAbiVersion = PHAL_MAKE_VERSION(1, 1);
constexpr uint32_t kMaxAbiVersion = PHAL_MAKE_VERSION(1, 2);

// Devices, buffers, streams and events are owned by their handles; the
// OpenCL contexts the devices share, the freed buffers kept for reuse and
// the host services are the global state.
void Shutdown() {
  ReleaseCachedBuffers();
  ReleaseContexts();
  UninstallHostServices();
}

constexpr phal_plugin_api_t kApi12 = {
    .struct_size = sizeof(phal_plugin_api_t),
    .next = nullptr,
    .abi_version = kMaxAbiVersion,
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
    .kernel_emit = KernelEmit,
    .kernel_destroy = KernelDestroy,
    .kernel_serialize = KernelSerialize,
    .kernel_deserialize = KernelDeserialize,
    .stream_launch = StreamLaunch,
};

// ABI 1.2 added no slot after 1.1's: the table is 1.2's, and its version
// keeps a 1.1 core from expecting 1.2's KIR ops to be understood.
constexpr phal_plugin_api_t MakeAbi11Table() {
  phal_plugin_api_t api = kApi12;
  api.abi_version = kKernelAbiVersion;
  return api;
}
constexpr phal_plugin_api_t kApi11 = MakeAbi11Table();

// ABI 1.0's table is 1.1's cut where 1.0's ends; its kernel slots are
// beyond struct_size, so a 1.0 core never sees them.
constexpr phal_plugin_api_t MakeAbi10Table() {
  phal_plugin_api_t api = kApi12;
  api.struct_size = offsetof(phal_plugin_api_t, kernel_emit);
  api.abi_version = kMinAbiVersion;
  api.kernel_emit = nullptr;
  api.kernel_destroy = nullptr;
  api.kernel_serialize = nullptr;
  api.kernel_deserialize = nullptr;
  api.stream_launch = nullptr;
  return api;
}
constexpr phal_plugin_api_t kApi10 = MakeAbi10Table();

// True when the core's negotiation record reaches the members the plugin
// writes; a shorter record cannot carry the answer.
bool HasPluginVersionFields(const phal_plugin_negotiation_t* negotiation) {
  constexpr size_t kEnd =
      offsetof(phal_plugin_negotiation_t, plugin_max_version) +
      sizeof(uint32_t);
  return negotiation->struct_size >= kEnd;
}

}  // namespace
}  // namespace phal::intel

// The one exported symbol. The plugin speaks ABI 1.0 to 1.2: it answers
// with its range always, and with the table of the newest version both
// sides speak when the ranges meet and the core offers status_create.
extern "C" PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  using phal::intel::kMaxAbiVersion;
  using phal::intel::kMinAbiVersion;
  if (negotiation == nullptr ||
      !phal::intel::HasPluginVersionFields(negotiation)) {
    return nullptr;
  }
  negotiation->plugin_min_version = kMinAbiVersion;
  negotiation->plugin_max_version = kMaxAbiVersion;
  if (negotiation->core_min_version > kMaxAbiVersion ||
      negotiation->core_max_version < kMinAbiVersion) {
    return nullptr;
  }
  if (!phal::InstallHostServices(negotiation->host, PHAL_PLUGIN_NAME))
    return nullptr;
  if (negotiation->core_max_version >= kMaxAbiVersion) {
    return &phal::intel::kApi12;
  }
  if (negotiation->core_max_version >= phal::intel::kKernelAbiVersion) {
    return &phal::intel::kApi11;
  }
  return &phal::intel::kApi10;
}
