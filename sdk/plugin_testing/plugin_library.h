// A plugin library opened as the core's loader opens it: dlopen, then
// phal_plugin_entry negotiated with the fake host services (fake_host.h);
// shut down and unloaded when the object goes away. A test binary's
// PluginEnvironment holds one for the run; a benchmark, which has no gtest
// run, holds one itself.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_LIBRARY_H_
#define POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_LIBRARY_H_

#include <cstdint>
#include <string>

#include "polyhal/plugin.h"

namespace phal::plugin_testing {

// A negotiation record offering ABI core_min..core_max and `host`.
phal_plugin_negotiation_t Negotiation(uint32_t core_min, uint32_t core_max,
                                      const phal_host_services_t* host);

class PluginLibrary {
 public:
  // Opens the library at `path` and negotiates ABI core_min..core_max. When
  // either fails, or the plugin answers with a table that breaks the ABI,
  // api() is NULL and error() says why.
  PluginLibrary(const std::string& path, uint32_t core_min, uint32_t core_max);
  // Shuts a negotiated plugin down, then unloads the library.
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  // The negotiated table, or NULL.
  const phal_plugin_api_t* api() const { return api_; }
  // Why api() is NULL; empty when it is not.
  const std::string& error() const { return error_; }
  // NULL when the library did not open or exports no entry point.
  phal_plugin_entry_fn entry() const { return entry_; }
  // The record as the plugin left it: its own version range included.
  const phal_plugin_negotiation_t& negotiation() const { return negotiation_; }

 private:
  void* library_ = nullptr;
  phal_plugin_entry_fn entry_ = nullptr;
  const phal_plugin_api_t* api_ = nullptr;
  phal_plugin_negotiation_t negotiation_{};
  std::string error_;
};

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_LIBRARY_H_
