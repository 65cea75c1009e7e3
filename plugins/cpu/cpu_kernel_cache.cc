#include "plugins/cpu/cpu_kernel_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace phal::cpu {
namespace {

std::string CacheDirectoryFromEnvironment() {
  const char* configured = std::getenv("PHAL_CACHE_DIR");
  if (configured != nullptr && *configured != '\0') {
    return std::string(configured) == "off" ? "" : configured;
  }
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/polyhal";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/polyhal";
  }
  return "";
}

}  // namespace

KernelCache::KernelCache() : directory_(CacheDirectoryFromEnvironment()) {}

std::string KernelCache::PathFor(uint64_t key) const {
  char name[40];
  std::snprintf(name, sizeof(name), "cpu-%016llx.phk",
                static_cast<unsigned long long>(key));
  return directory_ + "/" + name;
}

std::shared_ptr<const std::string> KernelCache::FindInMemory(
    uint64_t key) const {
  std::lock_guard lock(mutex_);
  auto found = memory_.find(key);
  return found == memory_.end() ? nullptr : found->second;
}

std::optional<std::string> KernelCache::FindOnDisk(uint64_t key) const {
  if (directory_.empty()) return std::nullopt;
  std::ifstream file(PathFor(key), std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream contents;
  contents << file.rdbuf();
  return std::move(contents).str();
}

std::shared_ptr<const std::string> KernelCache::Store(uint64_t key,
                                                      std::string blob,
                                                      bool write_to_disk) {
  auto shared = std::make_shared<const std::string>(std::move(blob));
  {
    std::lock_guard lock(mutex_);
    memory_[key] = shared;
  }
  if (!write_to_disk || directory_.empty()) return shared;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return shared;
  const std::string path = PathFor(key);
  const std::string temporary =
      path + ".tmp" + std::to_string(::getpid()) + "-" +
      std::to_string(reinterpret_cast<uintptr_t>(shared.get()));
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(shared->data(), static_cast<std::streamsize>(shared->size()));
    if (!file) {
      std::filesystem::remove(temporary, error);
      return shared;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
  return shared;
}

}  // namespace phal::cpu
