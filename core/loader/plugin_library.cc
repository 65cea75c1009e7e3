#include "core/loader/plugin_library.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>

#include "core/loader/host_services.h"
#include "core/loader/plugin_stubs.h"

namespace phal {
namespace {

namespace fs = std::filesystem;

struct OpenLibraries {
  // Recursive: a library that fails to load is destroyed under the lock.
  std::recursive_mutex mutex;
  std::map<std::string, std::weak_ptr<PluginLibrary>> by_path;
};

OpenLibraries& Libraries() {
  static OpenLibraries* libraries = new OpenLibraries();
  return *libraries;
}

std::string Range(uint32_t low, uint32_t high) {
  return VersionToString(low) + "-" + VersionToString(high);
}

// The key a library is shared under: its canonical path when it is a file.
std::string LibraryKey(const std::string& path) {
  std::error_code error;
  fs::path canonical = fs::canonical(path, error);
  return error ? path : canonical.string();
}

}  // namespace

StatusOr<std::shared_ptr<PluginLibrary>> PluginLibrary::Open(
    const PluginManifest& manifest, const Logger& log) {
  const std::string& path = manifest.library_path;
  bool is_file_path = path.find('/') != std::string::npos;
  if (is_file_path && !fs::exists(path)) {
    return NotFound("library " + path + " named by manifest " +
                    manifest.manifest_path + " does not exist");
  }
  std::string key = LibraryKey(path);
  OpenLibraries& libraries = Libraries();
  std::lock_guard<std::recursive_mutex> lock(libraries.mutex);
  if (auto existing = libraries.by_path[key].lock()) {
    log.Debug("library " + key + " already open; reusing it");
    return existing;
  }
  PHAL_ASSIGN_OR_RETURN(std::shared_ptr<PluginLibrary> library,
                        Load(is_file_path ? key : path, log));
  libraries.by_path[key] = library;
  return library;
}

namespace {

// Under AddressSanitizer a plugin library is never unmapped: LeakSanitizer
// runs at process exit, and allocations made by an unloaded library (a
// driver's process-lifetime caches) could then be neither named nor
// suppressed, and its thread-local storage trips the leak checker's thread
// scan. Reopening with RTLD_NODELETE keeps the mapping after the last
// dlclose; shutdown still runs as usual.
void KeepLoadedUnderAddressSanitizer(
    [[maybe_unused]] const boost::dll::shared_library& library) {
#if defined(__SANITIZE_ADDRESS__)
  dlopen(library.location().c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
#endif
}

}  // namespace

StatusOr<std::shared_ptr<PluginLibrary>> PluginLibrary::Load(
    const std::string& path, const Logger& log) {
  std::shared_ptr<PluginLibrary> plugin(new PluginLibrary());
  plugin->path_ = path;
  log.Debug("opening " + path);
  try {
    auto mode =
        boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local;
    if (path.find('/') == std::string::npos) {
      mode |= boost::dll::load_mode::search_system_folders;
    }
    plugin->library_.load(path, mode);
    KeepLoadedUnderAddressSanitizer(plugin->library_);
  } catch (const std::exception& error) {
    return FailedPrecondition("cannot open library " + path + ": " +
                              error.what());
  }
  if (!plugin->library_.has(PHAL_PLUGIN_ENTRY_SYMBOL)) {
    return NotFound("library " + path + " does not export " +
                    PHAL_PLUGIN_ENTRY_SYMBOL);
  }
  auto entry =
      plugin->library_.get<std::remove_pointer_t<phal_plugin_entry_fn>>(
          PHAL_PLUGIN_ENTRY_SYMBOL);

  phal_plugin_negotiation_t negotiation{};
  negotiation.struct_size = sizeof(negotiation);
  negotiation.core_min_version = kCoreMinAbiVersion;
  negotiation.core_max_version = kCoreMaxAbiVersion;
  negotiation.host = HostServices();
  const phal_plugin_api_t* provided = nullptr;
  try {
    provided = entry(&negotiation);
  } catch (...) {
    return Internal("phal_plugin_entry of " + path + " threw an exception");
  }
  std::string ranges =
      "core speaks ABI " + Range(kCoreMinAbiVersion, kCoreMaxAbiVersion) +
      ", plugin speaks ABI " +
      Range(negotiation.plugin_min_version, negotiation.plugin_max_version);
  if (provided == nullptr) {
    return FailedPrecondition("no common ABI version: " + ranges);
  }
  if (provided->struct_size < PHAL_PLUGIN_API_MIN_STRUCT_SIZE) {
    return FailedPrecondition(
        "function table too small: struct_size is " +
        std::to_string(provided->struct_size) + " bytes, at least " +
        std::to_string(PHAL_PLUGIN_API_MIN_STRUCT_SIZE) + " are required");
  }
  if (provided->abi_version < kCoreMinAbiVersion ||
      provided->abi_version > kCoreMaxAbiVersion) {
    return FailedPrecondition("plugin returned a table for ABI " +
                              VersionToString(provided->abi_version) +
                              " outside the range: " + ranges);
  }
  std::vector<std::string> missing;
  plugin->api_ = CompletePluginTable(*provided, &missing);
  if (plugin->api_.name == nullptr) plugin->api_.name = "";
  if (plugin->api_.version == nullptr) plugin->api_.version = "";
  log.Debug("negotiated ABI " + VersionToString(provided->abi_version) +
            " with " + path + " (" + ranges + ")");
  for (const std::string& slot : missing) {
    log.Debug(path + ": " + slot +
              " answered by the core's UNIMPLEMENTED stub");
  }
  return plugin;
}

void KeepPluginCodeLoaded(const phal_plugin_api_t& api) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(api.stream_launch), &info) == 0 ||
      info.dli_fname == nullptr) {
    return;
  }
  // Taken once more and never given back: RTLD_NODELETE keeps the mapping
  // after the last dlclose.
  dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

PluginLibrary::~PluginLibrary() {
  // Under the lock, so a concurrent Open of the same library waits until
  // shutdown has finished and the library is unloaded.
  std::lock_guard<std::recursive_mutex> lock(Libraries().mutex);
  if (api_.shutdown != nullptr) api_.shutdown();
  library_.unload();
}

}  // namespace phal
