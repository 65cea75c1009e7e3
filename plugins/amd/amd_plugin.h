// The amd plugin's slot functions, one per slot of phal_plugin_api_t
// (plugin.h), each defined in the concept file it belongs to and gathered
// into the function table by amd_plugin.cc.
#ifndef POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_
#define POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_

#include "sdk/plugin_support/plugin_slots.h"

namespace phal::amd {
PHAL_DECLARE_PLUGIN_SLOTS()
}  // namespace phal::amd

#endif  // POLYHAL_PLUGINS_AMD_AMD_PLUGIN_H_
