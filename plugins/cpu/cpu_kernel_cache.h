// Compiled kernels kept for reuse, keyed by the KIR fingerprint, the target
// and the plugin build: in memory for the device's lifetime, loaded and
// ready to run, and across processes in the plugin's disk cache
// (sdk/plugin_support/disk_cache.h: where it lives, its size limit,
// PHAL_CACHE_DIR=off). Disk entries are kernel blobs (cpu_kernel_blob.h);
// the caller ignores one that does not decode for this target and version
// and stores the recompiled kernel over it.
#ifndef POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_
#define POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "plugins/cpu/cpu_jit.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::cpu {

// Thread-safe.
class KernelCache {
 public:
  // Reads the environment once, here.
  KernelCache();

  std::shared_ptr<const LinkedKernel> FindInMemory(uint64_t key) const;
  std::optional<std::string> FindOnDisk(uint64_t key) const {
    return disk_.Load(key);
  }
  // Keeps `kernel` in memory and, with `write_to_disk`, its blob in the disk
  // cache. Returns the kernel kept under `key`: `kernel`, or the one another
  // thread stored first.
  std::shared_ptr<const LinkedKernel> Store(
      uint64_t key, std::shared_ptr<const LinkedKernel> kernel,
      bool write_to_disk);
  // The disk cache's file for `key`, for messages.
  std::string PathFor(uint64_t key) const { return disk_.PathFor(key); }

 private:
  DiskCache disk_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<const LinkedKernel>> memory_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_
