// phal_event: an application event, a thin owner of a plugin event.
#ifndef POLYHAL_CORE_RUNTIME_EVENT_H_
#define POLYHAL_CORE_RUNTIME_EVENT_H_

#include "core/runtime/device.h"

struct phal_event {
  phal_device* device = nullptr;
  phal_plugin_event_t* handle = nullptr;
};

namespace phal {
void DestroyEvent(phal_event* event);
}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_EVENT_H_
