// Compiled kernels kept for reuse, keyed by the KIR fingerprint, the target
// and the plugin version: in memory for the device's lifetime, and on disk
// across processes. The disk cache lives in $PHAL_CACHE_DIR, else
// $XDG_CACHE_HOME/polyhal, else ~/.cache/polyhal; PHAL_CACHE_DIR=off
// disables it. Entries are kernel blobs (cpu_kernel_blob.h); one that does
// not decode for this target and version is ignored and replaced.
#ifndef POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_
#define POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace phal::cpu {

// Thread-safe.
class KernelCache {
 public:
  // Reads the environment once, here.
  KernelCache();

  std::shared_ptr<const std::string> FindInMemory(uint64_t key) const;
  std::optional<std::string> FindOnDisk(uint64_t key) const;
  // Keeps `blob` in memory and, when the disk cache is on, writes it there
  // (atomically: a reader never sees half a file). Disk errors are ignored:
  // the cache is an optimisation.
  std::shared_ptr<const std::string> Store(uint64_t key, std::string blob,
                                           bool write_to_disk);

  // Empty when the disk cache is off.
  const std::string& directory() const { return directory_; }
  std::string PathFor(uint64_t key) const;

 private:
  std::string directory_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<const std::string>> memory_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_KERNEL_CACHE_H_
