#include "core/runtime/executable_cache.h"

#include <sys/stat.h>

#include "core/loader/host_services.h"
#include "core/runtime/client.h"
#include "core/runtime/device.h"
#include "sdk/base/byte_codec.h"
#include "sdk/base/hash.h"
#include "sdk/plugin_support/build_identity.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal {
namespace {

// The second hash an entry starts with: FNV-1a from another basis, so that
// two keys whose entry keys collide still tell their entries apart.
constexpr uint64_t kCheckSeed = 0x9e3779b97f4a7c15ull;

// The plugin library's file as it is now: a rebuilt or replaced library is
// another plugin build.
std::string LibraryIdentity(const phal_device& device) {
  std::string identity;
  if (device.client != nullptr &&
      device.plugin_index < device.client->plugins.size()) {
    const PluginRecord& record = device.client->plugins[device.plugin_index];
    if (record.library) identity = record.library->path();
  }
  struct stat file {};
  if (!identity.empty() && ::stat(identity.c_str(), &file) == 0) {
    identity += '\0' + std::to_string(file.st_size) + '\0' +
                std::to_string(file.st_mtim.tv_sec) + '.' +
                std::to_string(file.st_mtim.tv_nsec);
  }
  return identity;
}

// Which build of the core compiled the program: another release or
// another build of the same release may compile other code.
const std::string& CoreIdentity() {
  static const std::string identity = BuildIdentity(PHAL_PROJECT_VERSION);
  return identity;
}

uint64_t HashKey(std::string_view program_key, uint32_t optimization_level,
                 const phal_device& device, uint64_t seed) {
  uint64_t hash = Fnv1a(program_key, seed);
  for (const std::string& part :
       {CoreIdentity(), std::to_string(optimization_level), device.plugin_name,
        std::string(device.api->version != nullptr ? device.api->version : ""),
        LibraryIdentity(device), std::string(device.properties.name),
        std::string(device.properties.features != nullptr
                        ? device.properties.features
                        : ""),
        device.target}) {
    hash = Fnv1a(std::string_view(part.c_str(), part.size() + 1), hash);
  }
  return hash;
}

DiskCacheConfig Config() {
  // The disk cache's warnings (a directory it cannot create, a full disk,
  // a damaged entry) go through the host services' log to every client's
  // logger, as the plugins' do.
  static const bool installed = InstallHostServices(HostServices(), "polyhal");
  (void)installed;
  return DiskCacheConfigFromEnvironment("executables");
}

}  // namespace

ExecutableCache::ExecutableCache() : disk_(Config()) {}

std::optional<std::string> ExecutableCache::Load(
    std::string_view program_key, uint32_t optimization_level,
    const phal_device& device) const {
  if (!disk_.enabled()) return std::nullopt;
  std::optional<std::string> entry =
      disk_.Load(HashKey(program_key, optimization_level, device, kFnv1aSeed));
  if (!entry) return std::nullopt;
  ByteReader reader(*entry);
  uint64_t check = 0;
  if (!reader.ReadU64(&check) ||
      check != HashKey(program_key, optimization_level, device, kCheckSeed)) {
    return std::nullopt;
  }
  entry->erase(0, sizeof(check));
  return entry;
}

void ExecutableCache::Store(std::string_view program_key,
                            uint32_t optimization_level,
                            const phal_device& device,
                            std::string_view serialized) const {
  if (!disk_.enabled()) return;
  ByteWriter entry;
  entry.AddU64(HashKey(program_key, optimization_level, device, kCheckSeed));
  entry.AddRaw(serialized);
  disk_.Store(HashKey(program_key, optimization_level, device, kFnv1aSeed),
              entry.Take());
}

}  // namespace phal
