#include "plugins/cpu/cpu_block_cache.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace phal::cpu {
namespace {

uint64_t DefaultBudgetBytes() {
  if (const char* text = std::getenv("PHAL_CPU_BUFFER_CACHE_MB")) {
    uint64_t megabytes = 0;
    const char* end = text + std::strlen(text);
    auto [stop, error] = std::from_chars(text, end, megabytes);
    if (error == std::errc() && stop == end) return megabytes << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  const uint64_t physical =
      pages > 0 && page_size > 0 ? uint64_t(pages) * uint64_t(page_size) : 0;
  return std::min<uint64_t>(physical / 4, uint64_t{2} << 30);
}

}  // namespace

BlockCache& BlockCache::Instance() {
  static BlockCache cache(DefaultBudgetBytes());
  return cache;
}

std::byte* BlockCache::Allocate(uint64_t byte_size, uint64_t alignment) {
  if (byte_size >= kMinimumCachedBytes) {
    std::lock_guard lock(mutex_);
    auto found = blocks_.find(byte_size);
    if (found != blocks_.end() && !found->second.empty()) {
      std::byte* block = found->second.back();
      found->second.pop_back();
      cached_bytes_ -= byte_size;
      return block;
    }
  }
  return static_cast<std::byte*>(std::aligned_alloc(alignment, byte_size));
}

void BlockCache::Free(std::byte* block, uint64_t byte_size) {
  if (block == nullptr) return;
  if (byte_size >= kMinimumCachedBytes) {
    std::lock_guard lock(mutex_);
    if (cached_bytes_ + byte_size <= budget_bytes_) {
      blocks_[byte_size].push_back(block);
      cached_bytes_ += byte_size;
      return;
    }
  }
  std::free(block);
}

void BlockCache::Clear() {
  std::lock_guard lock(mutex_);
  for (auto& [size, blocks] : blocks_) {
    for (std::byte* block : blocks) std::free(block);
  }
  blocks_.clear();
  cached_bytes_ = 0;
}

uint64_t BlockCache::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

}  // namespace phal::cpu
