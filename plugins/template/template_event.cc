#include "template_event.h"
#include "template_device.h"
#include "template_plugin.h"

#include "sdk/plugin_support/plugin_slots.h"
#include "template_stream.h"

namespace phal::template_plugin {

PHAL_DEFINE_FIRED_EVENT_SLOTS()

}  // namespace phal::template_plugin
