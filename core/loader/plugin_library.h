// A plugin's shared library, opened once per process and shared by every
// client that uses it: the entry point is called once, the negotiated table
// is completed with core stubs, and shutdown runs when the last user lets
// go.
#ifndef POLYHAL_CORE_LOADER_PLUGIN_LIBRARY_H_
#define POLYHAL_CORE_LOADER_PLUGIN_LIBRARY_H_

#include <memory>
#include <string>

#include <boost/dll/shared_library.hpp>

#include "core/loader/manifest.h"
#include "polyhal/plugin.h"
#include "sdk/base/log.h"
#include "sdk/base/status.h"

namespace phal {

// The range of ABI versions this core speaks.
inline constexpr uint32_t kCoreMinAbiVersion = PHAL_MAKE_VERSION(1, 0);
inline constexpr uint32_t kCoreMaxAbiVersion = PHAL_ABI_VERSION;

class PluginLibrary {
 public:
  // Opens the library `manifest` names, or returns the already open one.
  // Every failure is a status whose message is the reason shown to users.
  static StatusOr<std::shared_ptr<PluginLibrary>> Open(
      const PluginManifest& manifest, const Logger& log);

  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  // The complete table: no slot is NULL.
  const phal_plugin_api_t& api() const { return api_; }
  uint32_t abi_version() const { return api_.abi_version; }
  const std::string& path() const { return path_; }

 private:
  PluginLibrary() = default;
  static StatusOr<std::shared_ptr<PluginLibrary>> Load(const std::string& path,
                                                       const Logger& log);

  boost::dll::shared_library library_;
  phal_plugin_api_t api_{};
  std::string path_;
};

// Keeps the shared library that defines `api`'s slots mapped until the
// process exits, however often it is unloaded: work the core abandoned
// (an execution past PHAL_EXECUTE_TIMEOUT) may still be running its code.
// A table whose slots live in libpolyhal (a validation layer's) pins
// nothing.
void KeepPluginCodeLoaded(const phal_plugin_api_t& api);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_PLUGIN_LIBRARY_H_
