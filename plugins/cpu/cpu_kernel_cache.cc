#include "plugins/cpu/cpu_kernel_cache.h"

namespace phal::cpu {

KernelCache::KernelCache() : disk_(DiskCacheConfigFromEnvironment("cpu")) {}

std::shared_ptr<const LinkedKernel> KernelCache::FindInMemory(
    uint64_t key) const {
  std::lock_guard lock(mutex_);
  auto found = memory_.find(key);
  return found == memory_.end() ? nullptr : found->second;
}

std::shared_ptr<const LinkedKernel> KernelCache::Store(
    uint64_t key, std::shared_ptr<const LinkedKernel> kernel,
    bool write_to_disk) {
  {
    std::lock_guard lock(mutex_);
    auto [slot, inserted] = memory_.emplace(key, kernel);
    if (!inserted) return slot->second;
  }
  if (write_to_disk) disk_.Store(key, *kernel->blob);
  return kernel;
}

}  // namespace phal::cpu
