#include "asic_ref_kernel_cache.h"

#include <optional>
#include <utility>

#include "sdk/base/hash.h"
#include "sdk/kir/printer.h"

namespace phal::asic_ref {

uint64_t KernelCacheKey(const phal_kernel_desc_t& kernel,
                        const std::string& config_text,
                        const std::string& build_identity) {
  // Kernels that differ only in name compile to the same code.
  phal_kernel_desc_t unnamed = kernel;
  unnamed.name = "";
  return MixBits(Fnv1a(KernelToText(unnamed),
                       Fnv1a(build_identity + "|" + config_text + "|")));
}

KernelCache& KernelCache::Instance() {
  static KernelCache* cache = new KernelCache();
  return *cache;
}

KernelCache::KernelCache()
    : disk_(DiskCacheConfigFromEnvironment("asic-ref")) {}

StatusOr<std::shared_ptr<const std::string>> KernelCache::FindOrCompile(
    uint64_t key, const std::function<bool(const std::string&)>& usable,
    const std::function<StatusOr<std::string>()>& compile) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto found = memory_.find(key); found != memory_.end()) {
      return found->second;
    }
  }
  std::optional<std::string> bytes = disk_.Load(key);
  if (!bytes.has_value() || !usable(*bytes)) {
    PHAL_ASSIGN_OR_RETURN(std::string compiled, compile());
    disk_.Store(key, compiled);
    bytes = std::move(compiled);
  }
  auto shared = std::make_shared<const std::string>(std::move(*bytes));
  std::lock_guard<std::mutex> lock(mutex_);
  return memory_.emplace(key, std::move(shared)).first->second;
}

}  // namespace phal::asic_ref
