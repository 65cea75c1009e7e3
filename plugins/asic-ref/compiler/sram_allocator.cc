#include "compiler/sram_allocator.h"

#include <algorithm>

namespace phal::asic_ref {

SramAllocator::SramAllocator(uint32_t begin, uint32_t end)
    : begin_(begin), end_(end) {}

StatusOr<uint32_t> SramAllocator::Allocate(uint64_t bytes,
                                           const std::string& what) {
  const uint64_t size = std::max<uint64_t>(64, (bytes + 63) / 64 * 64);
  uint64_t candidate = (uint64_t{begin_} + 63) / 64 * 64;
  for (const auto& [offset, used] : used_) {
    if (candidate + size <= offset) break;
    candidate = std::max<uint64_t>(candidate, uint64_t{offset} + used);
  }
  if (candidate + size > end_) {
    return ResourceExhausted("asic-ref compiler: " + what + " (" +
                             std::to_string(bytes) +
                             " bytes) does not fit the scratchpad region of " +
                             std::to_string(end_ - begin_) + " bytes");
  }
  used_[static_cast<uint32_t>(candidate)] = static_cast<uint32_t>(size);
  peak_ = std::max(peak_, candidate + size - begin_);
  return static_cast<uint32_t>(candidate);
}

void SramAllocator::Free(uint32_t offset) { used_.erase(offset); }

}  // namespace phal::asic_ref
