// The template plugin's slot functions, one per slot of phal_plugin_api_t
// (plugin.h), each defined in the concept file it belongs to and gathered
// into the function table by template_plugin.cc.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PLUGIN_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PLUGIN_H_

#include "sdk/plugin_support/plugin_slots.h"

namespace phal::template_plugin {
PHAL_DECLARE_PLUGIN_SLOTS()
}  // namespace phal::template_plugin

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PLUGIN_H_
