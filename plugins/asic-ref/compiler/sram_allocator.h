// Places a kernel's tiles in a region of the scratchpad: first fit over
// 64-byte aligned blocks, freed as the compiler finishes with them; the
// peak tells how much of the region a tiling needs.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_SRAM_ALLOCATOR_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_SRAM_ALLOCATOR_H_

#include <cstdint>
#include <map>
#include <string>

#include "sdk/base/status.h"

namespace phal::asic_ref {

class SramAllocator {
 public:
  // The region [begin, end) of SRAM.
  SramAllocator(uint32_t begin, uint32_t end);

  // A block of `bytes` (rounded up to 64), or RESOURCE_EXHAUSTED naming
  // `what` when the region has no room.
  StatusOr<uint32_t> Allocate(uint64_t bytes, const std::string& what);
  void Free(uint32_t offset);

  uint32_t begin() const { return begin_; }
  uint32_t end() const { return end_; }
  // The highest address any block reached, relative to begin().
  uint64_t peak() const { return peak_; }

 private:
  uint32_t begin_;
  uint32_t end_;
  std::map<uint32_t, uint32_t> used_;  // offset -> size
  uint64_t peak_ = 0;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_SRAM_ALLOCATOR_H_
