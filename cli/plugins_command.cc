// `polyhal plugins [--json]`: every manifest found, loaded or skipped.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/loader/manifest.h"
#include "polyhal/polyhal.hpp"

namespace phal::cli {
namespace {

const char* StateName(phal_plugin_state_t state) {
  return state == PHAL_PLUGIN_STATE_LOADED ? "loaded" : "skipped";
}

void PrintJson(const std::vector<phal_plugin_info_t>& plugins) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const phal_plugin_info_t& plugin : plugins) {
    nlohmann::ordered_json entry;
    entry["name"] = plugin.name;
    entry["version"] = plugin.version;
    entry["description"] = plugin.description;
    entry["state"] = StateName(plugin.state);
    entry["abi_version"] =
        plugin.abi_version ? VersionToString(plugin.abi_version) : "";
    entry["device_count"] = plugin.device_count;
    entry["manifest_path"] = plugin.manifest_path;
    entry["library_path"] = plugin.library_path;
    entry["reason"] = plugin.reason;
    list.push_back(entry);
  }
  nlohmann::ordered_json document;
  document["plugins"] = list;
  std::printf("%s\n", document.dump(2).c_str());
}

void PrintText(const std::vector<phal_plugin_info_t>& plugins) {
  if (plugins.empty()) {
    std::printf("no plugin manifests found (see 'polyhal help plugins')\n");
    return;
  }
  for (const phal_plugin_info_t& plugin : plugins) {
    const char* name = plugin.name[0] ? plugin.name : "(unnamed)";
    if (plugin.state == PHAL_PLUGIN_STATE_LOADED) {
      std::printf("%-12s %-8s loaded   ABI %s, %u device(s)\n", name,
                  plugin.version, VersionToString(plugin.abi_version).c_str(),
                  plugin.device_count);
    } else {
      std::printf("%-12s %-8s skipped\n", name, plugin.version);
    }
    std::printf("    manifest: %s\n", plugin.manifest_path);
    if (plugin.library_path[0]) {
      std::printf("    library:  %s\n", plugin.library_path);
    }
    if (plugin.reason[0]) std::printf("    reason:   %s\n", plugin.reason);
  }
}

}  // namespace

int RunPlugins(const Arguments& arguments) {
  ArgumentReader reader("plugins", arguments);
  bool json = reader.Flag("--json");
  if (!reader.Done()) return kExitUsage;
  Result<Client> client = OpenClient();
  if (!client.ok()) return kExitFailure;
  std::vector<phal_plugin_info_t> plugins = client->Plugins();
  if (json) {
    PrintJson(plugins);
  } else {
    PrintText(plugins);
  }
  return kExitSuccess;
}

}  // namespace phal::cli
