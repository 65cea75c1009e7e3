// Discovery: turns the search path into one record per manifest found,
// loaded or skipped with the exact reason, in search order.
#ifndef POLYHAL_CORE_LOADER_PLUGIN_REGISTRY_H_
#define POLYHAL_CORE_LOADER_PLUGIN_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "core/loader/manifest.h"
#include "core/loader/plugin_library.h"
#include "core/loader/search_path.h"
#include "polyhal/runtime.h"

namespace phal {

struct PluginRecord {
  // What the manifest said; only manifest_path is set when it was unreadable.
  PluginManifest manifest;
  phal_plugin_state_t state = PHAL_PLUGIN_STATE_SKIPPED;
  std::string reason;
  std::shared_ptr<PluginLibrary> library;  // set when loaded
};

// Finds and loads plugins. `filter` is a comma-separated list of names to
// keep ("" keeps all). Two manifests with one name: the first in search
// order wins, the later one is skipped naming the winner.
std::vector<PluginRecord> DiscoverPlugins(const SearchPath& search,
                                          const std::string& filter,
                                          const Logger& log);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_PLUGIN_REGISTRY_H_
