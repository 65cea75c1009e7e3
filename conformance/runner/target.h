// The plugin under test: a client that loaded only that plugin, and its
// devices. `--plugin` names it (a manifest's plugin name) or gives a path:
// a manifest .json, a directory of manifests, or a plugin library .so (for
// which a manifest is written next to the report).
#ifndef POLYHAL_CONFORMANCE_RUNNER_TARGET_H_
#define POLYHAL_CONFORMANCE_RUNNER_TARGET_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal::conformance {

// How to reach the plugin: the client options' plugin path and filter.
struct PluginLocation {
  std::string plugin_path;    // "" keeps the default search path
  std::string plugin_filter;  // "" keeps every plugin found on the path
  std::string display_name;   // what --plugin said
};

// Interprets --plugin. A .so gets a manifest written into `scratch_dir`.
StatusOr<PluginLocation> LocatePlugin(const std::string& plugin,
                                      const std::string& scratch_dir);

class Target {
 public:
  // Creates a client that sees only the plugin; fails when it was skipped
  // (with the loader's reason) or has no device.
  static StatusOr<std::unique_ptr<Target>> Open(const PluginLocation& where);
  ~Target();
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  phal_client_t* client() const { return client_; }
  const std::vector<phal_device_t*>& devices() const { return devices_; }
  // The plugin's manifest and negotiated ABI, and every device's
  // properties, as report.json records them.
  const nlohmann::json& description() const { return description_; }
  // Options that create another client seeing the same plugin; the strings
  // belong to the target.
  phal_client_options_t ClientOptions() const;

 private:
  Target() = default;
  PluginLocation location_;
  phal_client_t* client_ = nullptr;
  std::vector<phal_device_t*> devices_;
  nlohmann::json description_;
};

// The element types (PHAL_ELEMENT_TYPE_BIT mask) device `index` of a
// target description supports.
uint64_t DeviceElementTypes(const nlohmann::json& description, int index);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_TARGET_H_
