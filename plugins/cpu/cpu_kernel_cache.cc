#include "plugins/cpu/cpu_kernel_cache.h"

namespace phal::cpu {

KernelCache::KernelCache() : disk_(DiskCacheConfigFromEnvironment("cpu")) {}

std::shared_ptr<const std::string> KernelCache::FindInMemory(
    uint64_t key) const {
  std::lock_guard lock(mutex_);
  auto found = memory_.find(key);
  return found == memory_.end() ? nullptr : found->second;
}

std::shared_ptr<const std::string> KernelCache::Store(uint64_t key,
                                                      std::string blob,
                                                      bool write_to_disk) {
  auto shared = std::make_shared<const std::string>(std::move(blob));
  {
    std::lock_guard lock(mutex_);
    memory_[key] = shared;
  }
  if (write_to_disk) disk_.Store(key, *shared);
  return shared;
}

}  // namespace phal::cpu
