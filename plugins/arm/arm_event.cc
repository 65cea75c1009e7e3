#include "plugins/arm/arm_event.h"

#include "plugins/arm/arm_plugin.h"
#include "plugins/arm/arm_stream.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::arm {

PHAL_DEFINE_FIRED_EVENT_SLOTS()

}  // namespace phal::arm
