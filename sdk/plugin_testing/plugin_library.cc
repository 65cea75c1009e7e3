#include "sdk/plugin_testing/plugin_library.h"

#include <dlfcn.h>

#include "sdk/plugin_testing/fake_host.h"

namespace phal::plugin_testing {
namespace {

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

PluginLibrary::PluginLibrary(const std::string& path, uint32_t core_min,
                             uint32_t core_max) {
  library_ = dlopen(path.c_str(), OpenMode());
  if (library_ == nullptr) {
    error_ = "cannot open " + path + ": " + dlerror();
    return;
  }
  entry_ = reinterpret_cast<phal_plugin_entry_fn>(
      dlsym(library_, PHAL_PLUGIN_ENTRY_SYMBOL));
  if (entry_ == nullptr) {
    error_ = path + " does not export " + PHAL_PLUGIN_ENTRY_SYMBOL;
    return;
  }
  negotiation_ = Negotiation(core_min, core_max, &FakeHost());
  const phal_plugin_api_t* api = entry_(&negotiation_);
  const std::string ranges =
      "the host speaks ABI " + Range(core_min, core_max) +
      ", the plugin speaks ABI " +
      Range(negotiation_.plugin_min_version, negotiation_.plugin_max_version);
  if (api == nullptr) {
    error_ = "no common ABI version: " + ranges;
  } else if (api->struct_size < PHAL_PLUGIN_API_MIN_STRUCT_SIZE) {
    error_ = "function table too small: struct_size is " +
             std::to_string(api->struct_size) + " bytes";
  } else if (api->abi_version < core_min || api->abi_version > core_max) {
    error_ = "the plugin returned a table for ABI " +
             Version(api->abi_version) + ": " + ranges;
  } else {
    api_ = api;
  }
}

PluginLibrary::~PluginLibrary() {
  if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
  if (library_ != nullptr) dlclose(library_);
}

}  // namespace phal::plugin_testing
