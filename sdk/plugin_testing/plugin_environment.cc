#include "sdk/plugin_testing/plugin_environment.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>

#include "sdk/plugin_testing/fake_host.h"

namespace phal::plugin_testing {
namespace {

PluginEnvironment* g_tested_plugin = nullptr;

std::string Version(uint32_t version) {
  return std::to_string(PHAL_VERSION_MAJOR(version)) + "." +
         std::to_string(PHAL_VERSION_MINOR(version));
}

std::string Range(uint32_t low, uint32_t high) {
  return Version(low) + "-" + Version(high);
}

int OpenMode() {
  int mode = RTLD_NOW | RTLD_LOCAL;
#if defined(__SANITIZE_ADDRESS__)
  // As the core's loader does under AddressSanitizer: an unmapped plugin's
  // thread-local storage trips LeakSanitizer's thread scan at exit.
  mode |= RTLD_NODELETE;
#endif
  return mode;
}

}  // namespace

phal_plugin_negotiation_t Negotiation(uint32_t core_min, uint32_t core_max,
                                      const phal_host_services_t* host) {
  phal_plugin_negotiation_t negotiation{};
  negotiation.struct_size = sizeof(negotiation);
  negotiation.core_min_version = core_min;
  negotiation.core_max_version = core_max;
  negotiation.host = host;
  return negotiation;
}

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
  library_ = dlopen(library_path_.c_str(), OpenMode());
  ASSERT_NE(library_, nullptr)
      << "cannot open " << library_path_ << ": " << dlerror();
  entry_ = reinterpret_cast<phal_plugin_entry_fn>(
      dlsym(library_, PHAL_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(entry_, nullptr)
      << library_path_ << " does not export " << PHAL_PLUGIN_ENTRY_SYMBOL;
  negotiation_ = Negotiation(core_min_, core_max_, &FakeHost());
  api_ = entry_(&negotiation_);
  const std::string ranges =
      "the tests speak ABI " + Range(core_min_, core_max_) +
      ", the plugin speaks ABI " +
      Range(negotiation_.plugin_min_version, negotiation_.plugin_max_version);
  ASSERT_NE(api_, nullptr) << "no common ABI version: " << ranges;
  ASSERT_GE(api_->struct_size, PHAL_PLUGIN_API_MIN_STRUCT_SIZE)
      << "function table too small";
  ASSERT_TRUE(api_->abi_version >= core_min_ && api_->abi_version <= core_max_)
      << "the plugin returned a table for ABI " << Version(api_->abi_version)
      << ": " << ranges;
}

void PluginEnvironment::TearDown() {
  if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
  api_ = nullptr;
  entry_ = nullptr;
  if (library_ != nullptr) dlclose(library_);
  library_ = nullptr;
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
