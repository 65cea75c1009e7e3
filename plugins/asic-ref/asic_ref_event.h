// Events: points in a stream's queue that other streams and the host wait
// for. Work on the device's streams has finished when it is queued
// (asic_ref_stream.h), so a record fires at once, carrying the error of the
// work before it: the SDK's phal::HostEvent
// (sdk/plugin_support/host_queue.h).
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_

#include "polyhal/plugin.h"
#include "sdk/plugin_support/host_queue.h"

// Thread-safe.
struct phal_plugin_event final : phal::HostEvent {};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_
