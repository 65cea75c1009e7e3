// A plugin library loaded for a whole test run as the core's loader loads
// it (plugin_library.h), shut down and unloaded at the end. Any plugin, by
// the path of its library; a test binary registers the one it tests once:
//
//   const auto* const kPlugin = ::phal::plugin_testing::AddPluginEnvironment(
//       PHAL_MY_PLUGIN_PATH);
//
// and its tests reach the table through TestedPlugin().api().
#ifndef POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_ENVIRONMENT_H_
#define POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_ENVIRONMENT_H_

#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"
#include "sdk/plugin_testing/plugin_library.h"

namespace phal::plugin_testing {

class PluginEnvironment : public ::testing::Environment {
 public:
  // Negotiates ABI core_min..core_max (by default every version these
  // headers describe) with the library at `library_path`.
  explicit PluginEnvironment(std::string library_path,
                             uint32_t core_min = PHAL_MAKE_VERSION(1, 0),
                             uint32_t core_max = PHAL_ABI_VERSION);

  // Points PHAL_CACHE_DIR at a fresh directory of the run's own, then
  // loads and negotiates; a failure is fatal to the run.
  void SetUp() override;
  // Shuts the plugin down, unloads it and removes the cache directory.
  void TearDown() override;

  const std::string& library_path() const { return library_path_; }
  // Valid between SetUp and TearDown.
  phal_plugin_entry_fn entry() const { return library_->entry(); }
  const phal_plugin_api_t& api() const { return *library_->api(); }
  // The record as the plugin left it: its own version range included.
  const phal_plugin_negotiation_t& negotiation() const {
    return library_->negotiation();
  }
  const std::string& cache_directory() const { return cache_directory_; }

 private:
  std::string library_path_;
  uint32_t core_min_;
  uint32_t core_max_;
  std::unique_ptr<PluginLibrary> library_;
  std::string cache_directory_;
};

// Registers a PluginEnvironment with gtest, which owns it, and makes it the
// one TestedPlugin() returns. Call before RUN_ALL_TESTS (a namespace-scope
// initialiser does).
PluginEnvironment* AddPluginEnvironment(
    std::string library_path, uint32_t core_min = PHAL_MAKE_VERSION(1, 0),
    uint32_t core_max = PHAL_ABI_VERSION);

// The environment AddPluginEnvironment registered last.
PluginEnvironment& TestedPlugin();

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_ENVIRONMENT_H_
