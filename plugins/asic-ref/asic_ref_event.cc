#include "asic_ref_event.h"

#include "asic_ref_device.h"
#include "asic_ref_plugin.h"
#include "asic_ref_stream.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {

PHAL_DEFINE_FIRED_EVENT_SLOTS()

}  // namespace phal::asic_ref
