#include "plugins/cpu/cpu_block_cache.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace phal::cpu {
namespace {

constexpr uint64_t kLarge = BlockCache::kMinimumCachedBytes * 4;

TEST(BlockCache, AFreedLargeBlockServesTheNextAllocationOfItsSize) {
  BlockCache cache(uint64_t{64} << 20);
  std::byte* first = cache.Allocate(kLarge, 64);
  ASSERT_NE(first, nullptr);
  cache.Free(first, kLarge);
  EXPECT_EQ(cache.cached_bytes(), kLarge);
  EXPECT_EQ(cache.Allocate(kLarge, 64), first);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  cache.Free(first, kLarge);
}

TEST(BlockCache, ABlockOfAnotherSizeIsNotReused) {
  BlockCache cache(uint64_t{64} << 20);
  std::byte* block = cache.Allocate(kLarge, 64);
  cache.Free(block, kLarge);
  std::byte* other = cache.Allocate(kLarge * 2, 64);
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other, block);
  EXPECT_EQ(cache.cached_bytes(), kLarge);
  cache.Free(other, kLarge * 2);
}

TEST(BlockCache, SmallBlocksGoStraightBackToTheAllocator) {
  BlockCache cache(uint64_t{64} << 20);
  std::byte* block = cache.Allocate(4096, 64);
  ASSERT_NE(block, nullptr);
  cache.Free(block, 4096);
  EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(BlockCache, KeepsNoMoreThanItsBudget) {
  BlockCache cache(kLarge);
  std::byte* a = cache.Allocate(kLarge, 64);
  std::byte* b = cache.Allocate(kLarge, 64);
  cache.Free(a, kLarge);
  cache.Free(b, kLarge);
  EXPECT_EQ(cache.cached_bytes(), kLarge);
}

TEST(BlockCache, AZeroBudgetTurnsCachingOff) {
  BlockCache cache(0);
  std::byte* block = cache.Allocate(kLarge, 64);
  cache.Free(block, kLarge);
  EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(BlockCache, BlocksAreAlignedAsAsked) {
  BlockCache cache(uint64_t{64} << 20);
  std::byte* block = cache.Allocate(kLarge, 4096);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 4096, 0u);
  cache.Free(block, kLarge);
}

}  // namespace
}  // namespace phal::cpu
