// Freed buffer memory kept for reuse. An executable allocates its results
// and temporaries on every execute; large blocks from the C allocator come
// from fresh mmap pages, and first-touching them (a page fault per 4 KiB)
// costs more than the kernels that fill them. Blocks of at least
// kMinimumCachedBytes go back to this cache when freed, keyed by size, and
// the next allocation of that size takes one, up to a byte budget.
#ifndef POLYHAL_PLUGINS_CPU_CPU_BLOCK_CACHE_H_
#define POLYHAL_PLUGINS_CPU_CPU_BLOCK_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace phal::cpu {

class BlockCache {
 public:
  static constexpr uint64_t kMinimumCachedBytes = uint64_t{1} << 20;

  // The process-wide cache of the plugin; its budget comes from
  // PHAL_CPU_BUFFER_CACHE_MB (0 turns caching off), else a quarter of
  // physical memory, at most 2 GiB.
  static BlockCache& Instance();

  explicit BlockCache(uint64_t budget_bytes) : budget_bytes_(budget_bytes) {}
  ~BlockCache() { Clear(); }
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // A block of exactly `byte_size` bytes aligned to `alignment`; byte_size
  // is a multiple of alignment. Null when out of memory.
  std::byte* Allocate(uint64_t byte_size, uint64_t alignment);
  // Takes back a block Allocate returned for `byte_size`.
  void Free(std::byte* block, uint64_t byte_size);
  // Returns every kept block to the C allocator.
  void Clear();

  uint64_t cached_bytes() const;

 private:
  mutable std::mutex mutex_;
  uint64_t budget_bytes_;
  uint64_t cached_bytes_ = 0;
  std::map<uint64_t, std::vector<std::byte*>> blocks_;  // by byte size
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_BLOCK_CACHE_H_
