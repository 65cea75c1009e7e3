#include "core/loader/plugin_registry.h"

#include <map>
#include <set>
#include <sstream>

namespace phal {
namespace {

std::set<std::string> ParseFilter(const std::string& filter) {
  std::set<std::string> names;
  std::stringstream stream(filter);
  std::string name;
  while (std::getline(stream, name, ',')) {
    size_t begin = name.find_first_not_of(" \t");
    size_t end = name.find_last_not_of(" \t");
    if (begin != std::string::npos) {
      names.insert(name.substr(begin, end - begin + 1));
    }
  }
  return names;
}

class Discovery {
 public:
  Discovery(const std::string& filter, const Logger& log)
      : filter_text_(filter), filter_(ParseFilter(filter)), log_(log) {}

  PluginRecord Load(const ManifestLocation& location) {
    PluginRecord record;
    record.manifest.manifest_path = location.path;
    if (!location.error.ok()) return Skip(std::move(record), location.error);
    StatusOr<PluginManifest> manifest = ReadManifest(location.path);
    if (!manifest.ok()) return Skip(std::move(record), manifest.status());
    record.manifest = *manifest;
    const std::string& name = record.manifest.name;
    if (!filter_.empty() && filter_.count(name) == 0) {
      return Skip(std::move(record),
                  NotFound("not selected by PHAL_PLUGINS=" + filter_text_));
    }
    auto [winner, inserted] = first_by_name_.emplace(name, location.path);
    if (!inserted) {
      return Skip(
          std::move(record),
          Status(PHAL_ALREADY_EXISTS, "duplicate plugin name '" + name +
                                          "': the manifest " + winner->second +
                                          " comes first in the search order"));
    }
    uint32_t declared = record.manifest.abi_version;
    if (PHAL_VERSION_MAJOR(declared) !=
        PHAL_VERSION_MAJOR(kCoreMaxAbiVersion)) {
      return Skip(
          std::move(record),
          FailedPrecondition("manifest declares ABI " +
                             VersionToString(declared) + ", core speaks ABI " +
                             VersionToString(kCoreMinAbiVersion) + "-" +
                             VersionToString(kCoreMaxAbiVersion)));
    }
    StatusOr<std::shared_ptr<PluginLibrary>> library =
        PluginLibrary::Open(record.manifest, log_);
    if (!library.ok()) return Skip(std::move(record), library.status());
    record.library = *library;
    record.state = PHAL_PLUGIN_STATE_LOADED;
    std::string table_name = record.library->api().name;
    if (!table_name.empty() && table_name != name) {
      log_.Warning("plugin " + name + ": its library calls itself '" +
                   table_name + "'; the manifest's name is used");
    }
    log_.Debug("loaded plugin " + name + " from " +
               record.manifest.library_path);
    return record;
  }

 private:
  PluginRecord Skip(PluginRecord record, const Status& why) {
    record.state = PHAL_PLUGIN_STATE_SKIPPED;
    record.reason = why.message();
    log_.Debug("skipped " + record.manifest.manifest_path + ": " +
               record.reason);
    return record;
  }

  std::string filter_text_;
  std::set<std::string> filter_;
  std::map<std::string, std::string> first_by_name_;
  const Logger& log_;
};

}  // namespace

std::vector<PluginRecord> DiscoverPlugins(const SearchPath& search,
                                          const std::string& filter,
                                          const Logger& log) {
  Discovery discovery(filter, log);
  std::vector<PluginRecord> records;
  for (const ManifestLocation& location : FindManifests(search, log)) {
    records.push_back(discovery.Load(location));
  }
  return records;
}

}  // namespace phal
