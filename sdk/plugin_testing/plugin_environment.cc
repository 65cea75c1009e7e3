#include "sdk/plugin_testing/plugin_environment.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>

namespace phal::plugin_testing {
namespace {

PluginEnvironment* g_tested_plugin = nullptr;

}  // namespace

PluginEnvironment::PluginEnvironment(std::string library_path,
                                     uint32_t core_min, uint32_t core_max)
    : library_path_(std::move(library_path)),
      core_min_(core_min),
      core_max_(core_max) {}

void PluginEnvironment::SetUp() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "phal-plugin-cache-XXXXXX")
          .string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr)
      << "cannot create a cache directory like " << pattern;
  cache_directory_ = pattern;
  ASSERT_EQ(setenv("PHAL_CACHE_DIR", cache_directory_.c_str(), 1), 0);
  library_ =
      std::make_unique<PluginLibrary>(library_path_, core_min_, core_max_);
  ASSERT_NE(library_->api(), nullptr) << library_->error();
}

void PluginEnvironment::TearDown() {
  library_.reset();
  std::error_code ignored;
  if (!cache_directory_.empty()) {
    std::filesystem::remove_all(cache_directory_, ignored);
  }
}

PluginEnvironment* AddPluginEnvironment(std::string library_path,
                                        uint32_t core_min, uint32_t core_max) {
  g_tested_plugin =
      new PluginEnvironment(std::move(library_path), core_min, core_max);
  ::testing::AddGlobalTestEnvironment(g_tested_plugin);
  return g_tested_plugin;
}

PluginEnvironment& TestedPlugin() {
  if (g_tested_plugin == nullptr) {
    std::fprintf(stderr,
                 "no plugin under test: the test binary must call "
                 "phal::plugin_testing::AddPluginEnvironment\n");
    std::abort();
  }
  return *g_tested_plugin;
}

}  // namespace phal::plugin_testing
