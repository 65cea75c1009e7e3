/*
 * Deliberately incomplete or broken plugins for the loader tests, written in
 * C to prove plugin.h serves C plugins. One source, one variant per build:
 *   PHAL_TEST_PLUGIN_MINIMAL     header only plus device_count: zero
 *                                devices with a reason; every other slot is
 *                                left to the core's stubs.
 *   PHAL_TEST_PLUGIN_FUTURE_ABI  speaks ABI 2.0-2.3 only.
 *   PHAL_TEST_PLUGIN_NEWER_MINOR speaks ABI 1.0-1.15, as a plugin built
 *                                against a later minor release does, and
 *                                answers with the newest version the core
 *                                speaks, in a table of that version's size.
 *   PHAL_TEST_PLUGIN_TINY_TABLE  returns a table smaller than the header.
 *   PHAL_TEST_PLUGIN_NO_ENTRY    exports no phal_plugin_entry.
 *   PHAL_TEST_PLUGIN_HOST_1_0    a working plugin of ABI 1.0 written with no
 *                                SDK helper, as a vendor's plugin built
 *                                before the slot list and the entry macro
 *                                were: one device whose buffers are host
 *                                memory, streams that copy at once, and a
 *                                table of ABI 1.0's size.
 *   PHAL_TEST_PLUGIN_HOST_1_5    the same plugin at ABI 1.5: its table also
 *                                has the counter slots (the last ones of
 *                                1.5), and its device counts the bytes it
 *                                copied.
 */
#include <stdlib.h>
#include <string.h>

#include "polyhal/plugin.h"

#if defined(PHAL_TEST_PLUGIN_MINIMAL)

static phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "no test hardware attached";
  return NULL;
}

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  /* A table built against an older, shorter ABI: it ends after
   * device_count, so everything beyond must be stubbed by the core. */
  static phal_plugin_api_t table;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(1, 0);
  if (negotiation->core_min_version > PHAL_MAKE_VERSION(1, 0)) return NULL;
  table.struct_size = (uint32_t)(offsetof(phal_plugin_api_t, device_count) +
                                 sizeof(table.device_count));
  table.abi_version = PHAL_MAKE_VERSION(1, 0);
  table.name = "minimal";
  table.version = "0.0.1";
  table.device_count = DeviceCount;
  /* Beyond struct_size: must never be called even though it is set. */
  table.device_open = (phal_status_t * (*)(size_t, phal_plugin_device_t**))1;
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_FUTURE_ABI)

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(2, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(2, 3);
  return NULL;
}

#elif defined(PHAL_TEST_PLUGIN_NEWER_MINOR)

static phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "a plugin of a later minor release";
  return NULL;
}

static uint32_t TableSize(uint32_t version) {
  switch (PHAL_VERSION_MINOR(version)) {
    case 0:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_0;
    case 1:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_1;
    case 2:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_2;
    case 3:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_3;
    case 4:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_4;
    case 5:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_5;
    case 6:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_6;
    case 7:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_7;
    case 8:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_8;
    case 9:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_9;
    case 10:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_10;
    case 11:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_11;
    case 12:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_12;
    case 13:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_13;
    default:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_14;
  }
}

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  static phal_plugin_api_t table;
  const uint32_t newest = PHAL_MAKE_VERSION(1, 15);
  uint32_t version = negotiation->core_max_version;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = newest;
  if (version > newest) version = newest;
  if (version < PHAL_MAKE_VERSION(1, 0) ||
      version < negotiation->core_min_version) {
    return NULL;
  }
  table.struct_size = TableSize(version);
  table.abi_version = version;
  table.name = "newer_minor";
  table.version = "1.15.0";
  table.device_count = DeviceCount;
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_TINY_TABLE)

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  static phal_plugin_api_t table;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(1, 0);
  table.struct_size = 8;
  table.abi_version = PHAL_MAKE_VERSION(1, 0);
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_NO_ENTRY)

PHAL_EXPORT int phal_plugin_entry_misspelled(void) { return 0; }

#elif defined(PHAL_TEST_PLUGIN_HOST_1_0) || defined(PHAL_TEST_PLUGIN_HOST_1_5)

#if defined(PHAL_TEST_PLUGIN_HOST_1_0)
#define HOST_PLUGIN_ABI PHAL_MAKE_VERSION(1, 0)
#define HOST_PLUGIN_TABLE_SIZE PHAL_PLUGIN_API_STRUCT_SIZE_1_0
#define HOST_PLUGIN_NAME "host_1_0"
#else
#define HOST_PLUGIN_ABI PHAL_MAKE_VERSION(1, 5)
#define HOST_PLUGIN_TABLE_SIZE PHAL_PLUGIN_API_STRUCT_SIZE_1_5
#define HOST_PLUGIN_NAME "host_1_5"
#endif

struct phal_plugin_device {
  uint64_t copied_bytes;
};
struct phal_plugin_buffer {
  phal_plugin_device_t* device;
  uint64_t byte_size;
  unsigned char* bytes;
};
struct phal_plugin_stream {
  phal_plugin_device_t* device;
};
struct phal_plugin_event {
  int unused;
};

static const phal_host_services_t* host;

static phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 1;
  *out_reason = NULL;
  return NULL;
}

static phal_status_t* DeviceOpen(size_t ordinal,
                                 phal_plugin_device_t** out_device) {
  if (ordinal != 0) return host->status_create(PHAL_OUT_OF_RANGE, "ordinal");
  *out_device = calloc(1, sizeof(phal_plugin_device_t));
  if (*out_device == NULL) {
    return host->status_create(PHAL_RESOURCE_EXHAUSTED, "device");
  }
  return NULL;
}

static void DeviceClose(phal_plugin_device_t* device) { free(device); }

static phal_status_t* DeviceGetProperties(phal_plugin_device_t* device,
                                          phal_device_properties_t* out) {
  phal_device_properties_t properties;
  uint32_t size = out->struct_size;
  (void)device;
  memset(&properties, 0, sizeof(properties));
  properties.name = "host memory";
  properties.vendor = "polyhal tests";
  properties.driver_version = "0";
  properties.features = "";
  properties.kind = PHAL_DEVICE_KIND_CPU;
  properties.compute_units = 1;
  properties.memory_space_count = 1;
  properties.memory_bytes = (uint64_t)1 << 30;
  properties.max_allocation_bytes = (uint64_t)1 << 30;
  properties.min_alignment = 16;
  properties.element_types = ~(uint64_t)0;
  properties.flags = PHAL_DEVICE_FLAG_HOST_ADDRESSABLE;
  if (size > sizeof(properties)) size = sizeof(properties);
  memcpy(out, &properties, size);
  out->struct_size = size;
  return NULL;
}

static phal_status_t* DeviceGetMemorySpace(phal_plugin_device_t* device,
                                           uint32_t index,
                                           phal_memory_space_info_t* out) {
  phal_memory_space_info_t space;
  uint32_t size = out->struct_size;
  (void)device;
  if (index != 0) return host->status_create(PHAL_OUT_OF_RANGE, "index");
  memset(&space, 0, sizeof(space));
  space.name = "host";
  space.kind = PHAL_MEMORY_KIND_HOST_SHARED;
  space.capacity_bytes = (uint64_t)1 << 30;
  if (size > sizeof(space)) size = sizeof(space);
  memcpy(out, &space, size);
  out->struct_size = size;
  return NULL;
}

static phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                                     uint32_t memory_space, uint64_t byte_size,
                                     phal_plugin_buffer_t** out_buffer) {
  phal_plugin_buffer_t* buffer = calloc(1, sizeof(phal_plugin_buffer_t));
  (void)memory_space;
  if (buffer == NULL) goto exhausted;
  buffer->bytes = malloc(byte_size == 0 ? 1 : byte_size);
  if (buffer->bytes == NULL) goto exhausted;
  buffer->device = device;
  buffer->byte_size = byte_size;
  *out_buffer = buffer;
  return NULL;
exhausted:
  free(buffer);
  return host->status_create(PHAL_RESOURCE_EXHAUSTED, "buffer");
}

static void BufferFree(phal_plugin_buffer_t* buffer) {
  free(buffer->bytes);
  free(buffer);
}

static phal_status_t* StreamCreate(phal_plugin_device_t* device,
                                   phal_plugin_stream_t** out_stream) {
  *out_stream = calloc(1, sizeof(phal_plugin_stream_t));
  if (*out_stream == NULL) {
    return host->status_create(PHAL_RESOURCE_EXHAUSTED, "stream");
  }
  (*out_stream)->device = device;
  return NULL;
}

static void StreamDestroy(phal_plugin_stream_t* stream) { free(stream); }

static phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) {
  (void)stream;
  return NULL;
}

static phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                         const void* source,
                                         phal_plugin_buffer_t* buffer,
                                         uint64_t offset, uint64_t byte_size) {
  memcpy(buffer->bytes + offset, source, byte_size);
  stream->device->copied_bytes += byte_size;
  return NULL;
}

static phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                       phal_plugin_buffer_t* buffer,
                                       uint64_t offset, void* destination,
                                       uint64_t byte_size) {
  memcpy(destination, buffer->bytes + offset, byte_size);
  stream->device->copied_bytes += byte_size;
  return NULL;
}

static phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                       phal_plugin_buffer_t* source,
                                       uint64_t source_offset,
                                       phal_plugin_buffer_t* destination,
                                       uint64_t destination_offset,
                                       uint64_t byte_size) {
  memcpy(destination->bytes + destination_offset, source->bytes + source_offset,
         byte_size);
  stream->device->copied_bytes += byte_size;
  return NULL;
}

static phal_status_t* EventCreate(phal_plugin_device_t* device,
                                  phal_plugin_event_t** out_event) {
  (void)device;
  *out_event = calloc(1, sizeof(phal_plugin_event_t));
  if (*out_event == NULL) {
    return host->status_create(PHAL_RESOURCE_EXHAUSTED, "event");
  }
  return NULL;
}

static void EventDestroy(phal_plugin_event_t* event) { free(event); }

/* Streams finish their work as it is queued: every event has fired. */
static phal_status_t* StreamEvent(phal_plugin_stream_t* stream,
                                  phal_plugin_event_t* event) {
  (void)stream;
  (void)event;
  return NULL;
}

static phal_status_t* EventSynchronize(phal_plugin_event_t* event) {
  (void)event;
  return NULL;
}

static phal_status_t* EventQuery(phal_plugin_event_t* event, int* out_done) {
  (void)event;
  *out_done = 1;
  return NULL;
}

#if defined(PHAL_TEST_PLUGIN_HOST_1_5)
/* One counter, "copy.bytes", in one block with its strings. */
static phal_status_t* DeviceGetCounters(phal_plugin_device_t* device,
                                        phal_device_counter_t** out_counters,
                                        size_t* out_count) {
  static const char kStrings[] = "copy.bytes\0\0bytes";
  char* block =
      host->host_allocate(sizeof(phal_device_counter_t) + sizeof(kStrings), 16);
  phal_device_counter_t* counter = (phal_device_counter_t*)block;
  char* strings = block + sizeof(phal_device_counter_t);
  if (block == NULL) {
    return host->status_create(PHAL_RESOURCE_EXHAUSTED, "counters");
  }
  memcpy(strings, kStrings, sizeof(kStrings));
  counter->name = strings;
  counter->kernel = strings + 11;
  counter->unit = strings + 12;
  counter->value = (double)device->copied_bytes;
  *out_counters = counter;
  *out_count = 1;
  return NULL;
}

static phal_status_t* DeviceResetCounters(phal_plugin_device_t* device) {
  device->copied_bytes = 0;
  return NULL;
}
#endif

static const phal_plugin_api_t kTable = {
    .struct_size = (uint32_t)HOST_PLUGIN_TABLE_SIZE,
    .abi_version = HOST_PLUGIN_ABI,
    .name = HOST_PLUGIN_NAME,
    .version = "1.0.0",
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
    .stream_record_event = StreamEvent,
    .stream_wait_event = StreamEvent,
    .event_synchronize = EventSynchronize,
    .event_query = EventQuery,
#if defined(PHAL_TEST_PLUGIN_HOST_1_5)
    .device_get_counters = DeviceGetCounters,
    .device_reset_counters = DeviceResetCounters,
#endif
};

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  negotiation->plugin_min_version = HOST_PLUGIN_ABI;
  negotiation->plugin_max_version = HOST_PLUGIN_ABI;
  if (negotiation->core_min_version > HOST_PLUGIN_ABI ||
      negotiation->core_max_version < HOST_PLUGIN_ABI) {
    return NULL;
  }
  host = negotiation->host;
  return &kTable;
}

#else
#error "define one PHAL_TEST_PLUGIN_* variant"
#endif
