// Events: points in a stream's queue. A record runs the stream's batch and
// waits for it on the stream's fence (arm_stream.h), so an event has fired
// when its record returns, carrying the error of the work before it: the
// SDK's phal::HostEvent (sdk/plugin_support/host_queue.h).
#ifndef POLYHAL_PLUGINS_ARM_ARM_EVENT_H_
#define POLYHAL_PLUGINS_ARM_ARM_EVENT_H_

#include "polyhal/plugin.h"
#include "sdk/plugin_support/host_queue.h"

// Thread-safe.
struct phal_plugin_event final : phal::HostEvent {};

#endif  // POLYHAL_PLUGINS_ARM_ARM_EVENT_H_
