// Completes a plugin's function table: every slot the plugin left NULL, or
// that lies beyond the struct_size it was built with, is answered by a core
// stub that returns PHAL_UNIMPLEMENTED (or does nothing, for slots that
// return void). The rest of the core then calls any slot without checking.
#ifndef POLYHAL_CORE_LOADER_PLUGIN_STUBS_H_
#define POLYHAL_CORE_LOADER_PLUGIN_STUBS_H_

#include <string>
#include <vector>

#include "polyhal/plugin.h"

namespace phal {

// Copies the first min(provided->struct_size, sizeof) bytes of `provided`
// into a complete table and fills the gaps. `missing_slots` receives the
// names of the slots that were stubbed.
phal_plugin_api_t CompletePluginTable(const phal_plugin_api_t& provided,
                                      std::vector<std::string>* missing_slots);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_PLUGIN_STUBS_H_
