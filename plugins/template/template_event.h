// Events: points in a stream's queue that other streams and the host wait
// for. Work on the template's streams has finished when it is queued, so a
// record fires at once, carrying the error of the work before it: the
// SDK's phal::HostEvent (sdk/plugin_support/host_queue.h), whose slots
// PHAL_DEFINE_FIRED_EVENT_SLOTS writes.
// TODO(vendor): map an event to your hardware's (a CUDA event, a Vulkan
// timeline semaphore value); the cpu plugin's cpu_event.h keeps the
// generation bookkeeping an asynchronous queue needs.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_EVENT_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_EVENT_H_

#include "polyhal/plugin.h"
#include "sdk/plugin_support/host_queue.h"

// Thread-safe.
struct phal_plugin_event final : phal::HostEvent {};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_EVENT_H_
