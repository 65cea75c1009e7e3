// Compiled kernels kept for reuse, as their serialized bytes
// (asic_ref_kernel.h): in memory for the process's life, so the many
// identical kernels a process emits (another executable of the same model,
// the conformance suite's cases) compile once, and across processes in the
// plugin's disk cache (sdk/plugin_support/disk_cache.h: where it lives,
// its size limit, PHAL_CACHE_DIR=off). The key covers the kernel's KIR
// (its name left out), the architecture and the plugin build.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_CACHE_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_CACHE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::asic_ref {

// The cache key of `kernel` compiled for the architecture `config_text` by
// the plugin build `build_identity`.
uint64_t KernelCacheKey(const phal_kernel_desc_t& kernel,
                        const std::string& config_text,
                        const std::string& build_identity);

// Thread-safe. One per process (Instance).
class KernelCache {
 public:
  static KernelCache& Instance();

  // The bytes under `key`: from memory, else from disk when `usable`
  // accepts them, else from `compile`, then kept in both. A failed compile
  // is returned and not kept.
  StatusOr<std::shared_ptr<const std::string>> FindOrCompile(
      uint64_t key, const std::function<bool(const std::string&)>& usable,
      const std::function<StatusOr<std::string>()>& compile);

 private:
  KernelCache();

  DiskCache disk_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<const std::string>> memory_;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_CACHE_H_
