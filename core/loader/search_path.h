// Where manifests are looked for, in a deterministic order:
//   1. PHAL_PLUGIN_PATH (or phal_client_options_t::plugin_path), when set,
//      replaces everything below: ':'-separated directories or manifest
//      files, read in the order given.
//   2. Otherwise: <dir of libpolyhal>/../share/polyhal/plugins.d (the build
//      tree, or the prefix libpolyhal is installed in), then the configured
//      install prefix's share/polyhal/plugins.d, then polyhal/plugins.d
//      under each XDG_DATA_DIRS entry (default /usr/local/share:/usr/share).
// Inside a directory, *.json files are read in byte order of their names.
#ifndef POLYHAL_CORE_LOADER_SEARCH_PATH_H_
#define POLYHAL_CORE_LOADER_SEARCH_PATH_H_

#include <string>
#include <vector>

#include "sdk/base/log.h"
#include "sdk/base/status.h"

namespace phal {

struct SearchPath {
  std::vector<std::string> entries;
  bool is_override = false;  // entries came from PHAL_PLUGIN_PATH or options
};

// A manifest file to read, or a search-path entry that could not be used.
struct ManifestLocation {
  std::string path;
  Status error;
};

// The search path given `override_path` (options, else PHAL_PLUGIN_PATH);
// empty override means the default path.
SearchPath MakeSearchPath(const std::string& override_path);

// Lists manifest files along `search`, each once (by canonical path). A
// missing default directory is skipped quietly; a missing or unreadable
// override entry is returned with an error so it can be reported.
std::vector<ManifestLocation> FindManifests(const SearchPath& search,
                                            const Logger& log);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_SEARCH_PATH_H_
