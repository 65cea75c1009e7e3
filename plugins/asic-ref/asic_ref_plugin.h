// The asic-ref plugin's slot functions, one per slot of phal_plugin_api_t
// (plugin.h), each defined in the concept file it belongs to and gathered
// into the function table by asic_ref_plugin.cc.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PLUGIN_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PLUGIN_H_

#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {
PHAL_DECLARE_PLUGIN_SLOTS()
}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PLUGIN_H_
