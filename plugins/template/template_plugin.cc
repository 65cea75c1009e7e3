// The plugin's entry point: its one function table, written once, and the
// exported phal_plugin_entry that sdk/plugin_support builds from it
// (version negotiation, host services, one table per ABI version).
#include "polyhal/plugin.h"
#include "sdk/plugin_support/plugin_entry.h"
#include "template_copy.h"
#include "template_device.h"
#include "template_event.h"
#include "template_kernel.h"
#include "template_memory.h"
#include "template_stream.h"

namespace phal::template_plugin {
namespace {

// Devices, buffers, streams, events and kernels are owned by their handles;
// the template keeps no global state. TODO(vendor): release what your
// driver holds for the whole process (contexts, caches) here.
void Shutdown() {}

// A slot left NULL is answered by the core with PHAL_UNIMPLEMENTED.
constexpr PluginDefinition kDefinition = {
    .name = PHAL_PLUGIN_NAME,
    .version = PHAL_PLUGIN_VERSION,
    .min_abi_version = PHAL_MAKE_VERSION(1, 0),
    .max_abi_version = PHAL_ABI_VERSION,
    .api =
        {
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
        },
};

}  // namespace
}  // namespace phal::template_plugin

PHAL_PLUGIN_DEFINE_ENTRY(phal::template_plugin::kDefinition)
