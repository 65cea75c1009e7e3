// A plugin's cache of compiled code on disk, shared between processes: one
// file per entry, named by a 64-bit key the plugin derives from everything
// that decides the bytes (a content hash, sdk/base/hash.h, of the kernel,
// the target and the compiler's identity).
//
// The cache is an optimisation, never a source of errors: a failing disk
// (missing directory, full disk, permissions) only makes lookups miss and
// stores vanish; the first store that fails is logged as a warning through
// the host's log, naming the path and the reason, the later ones at debug
// level. A reader never sees half an entry: entries are written to a
// temporary file and renamed into place, and each carries its size and a
// hash of its bytes, so that a file cut short or changed on disk is logged
// as a warning, removed and read as a miss (a file without the entry
// header, such as an older release's entry, is removed quietly). The
// directory is kept under a size limit by evicting the entries used
// longest ago (a hit counts as a use).
//
// The cache cannot tell a stale entry (another plugin build, another
// driver) from a good one: the plugin checks what it loads and stores a
// fresh entry over one it rejects.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_DISK_CACHE_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_DISK_CACHE_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace phal {

struct DiskCacheConfig {
  // The plugin's own directory; empty disables the cache.
  std::string directory;
  // The most bytes the directory's entries may hold together.
  uint64_t max_bytes = uint64_t{1} << 30;
};

// The configuration the environment gives plugin `plugin_name`: the
// directory $PHAL_CACHE_DIR/<plugin>, else $XDG_CACHE_HOME/polyhal/<plugin>,
// else $HOME/.cache/polyhal/<plugin>; PHAL_CACHE_DIR=off disables the
// cache. PHAL_CACHE_MAX_BYTES sets the limit in bytes, with an optional K,
// M or G suffix (binary units); 1 GiB by default. Thread-safe if nothing
// changes the environment meanwhile.
DiskCacheConfig DiskCacheConfigFromEnvironment(std::string_view plugin_name);

// Thread-safe: any number of threads (and processes) may load and store at
// once. The directory is created on the first store.
class DiskCache {
 public:
  explicit DiskCache(DiskCacheConfig config);

  bool enabled() const { return !config_.directory.empty(); }
  // Empty when the cache is disabled.
  const std::string& directory() const { return config_.directory; }
  uint64_t max_bytes() const { return config_.max_bytes; }
  // The file of `key`'s entry, for messages.
  std::string PathFor(uint64_t key) const;

  // The bytes stored under `key`, or nullopt when there are none (or the
  // cache is disabled, or the file cannot be read, or it fails its size
  // and hash check, in which case it is removed). A hit marks the entry as
  // just used.
  std::optional<std::string> Load(uint64_t key) const;
  // Stores `bytes` under `key`, replacing any entry; when the directory
  // no longer fits max_bytes, evicts the entries used longest ago until it
  // holds three quarters of it. An entry larger than max_bytes is not
  // stored.
  void Store(uint64_t key, std::string_view bytes) const;

 private:
  // Records `stored_bytes` more and, when the directory may have grown past
  // max_bytes, scans it and removes the entries used longest ago.
  void Evict(uint64_t stored_bytes) const;
  // Logs a failed store: the first as a warning, the rest at debug level.
  void ReportStoreFailure(const std::string& message) const;

  DiskCacheConfig config_;
  // Serialises this process's eviction scans; other processes may scan at
  // the same time, and every step tolerates files vanishing under it.
  mutable std::mutex eviction_mutex_;
  // The directory's size at the last scan plus what this process stored
  // since, guarded by eviction_mutex_: a store scans the directory only
  // when this may exceed max_bytes (or on the first store), and a scan
  // that evicts leaves a quarter of max_bytes free, so storing n entries
  // costs O(n) directory reads, not O(n^2), full cache or not.
  mutable uint64_t estimated_bytes_ = 0;
  mutable bool scanned_ = false;
  mutable std::atomic<bool> store_failure_reported_{false};
};

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_DISK_CACHE_H_
