// The manifests the core's tests point a client at, for the plugins the
// build makes: the cpu plugin and the test plugins of this folder, built in
// lib/polyhal-testing/ (PHAL_TEST_PLUGIN_DIR).
#ifndef POLYHAL_CORE_LOADER_TESTING_MANIFESTS_H_
#define POLYHAL_CORE_LOADER_TESTING_MANIFESTS_H_

#include <string>

namespace phal::testing {

// A manifest naming the plugin `name`, its `library`, the ABI version it
// declares and, when not empty, its release `version`.
inline std::string PluginManifest(const std::string& name,
                                  const std::string& library,
                                  const std::string& abi = "1.0",
                                  const std::string& version = "") {
  std::string text = "{\"file_format_version\": \"1.0\", \"plugin\": {";
  text += "\"name\": \"" + name + "\", \"library_path\": \"" + library +
          "\", \"abi_version\": \"" + abi + "\"";
  if (!version.empty()) text += ", \"version\": \"" + version + "\"";
  return text + "}}";
}

// The library of the test plugin `variant` ("minimal", "rule_breaking").
inline std::string TestPluginLibrary(const std::string& variant) {
  return std::string(PHAL_TEST_PLUGIN_DIR) + "/libphal_test_plugin_" + variant +
         ".so";
}

inline std::string CpuManifest() {
  return PluginManifest("cpu", PHAL_CPU_PLUGIN_PATH);
}

inline std::string RuleBreakingManifest() {
  return PluginManifest("rule-breaking", TestPluginLibrary("rule_breaking"));
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_LOADER_TESTING_MANIFESTS_H_
