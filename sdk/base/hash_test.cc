// The one hash: FNV-1a 64 as published, chainable, and its mixer.
#include "sdk/base/hash.h"

#include <gtest/gtest.h>

namespace phal {
namespace {

TEST(HashTest, MatchesPublishedFnv1a64Values) {
  EXPECT_EQ(Fnv1a(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a("foobar"), 0x85944171f73967e8ull);
}

TEST(HashTest, ContinuingFromASeedHashesTheConcatenation) {
  EXPECT_EQ(Fnv1a("bar", Fnv1a("foo")), Fnv1a("foobar"));
  static_assert(Fnv1a("x") != Fnv1a("y"), "usable at compile time");
}

TEST(HashTest, MixerIsABijectionThatSpreadsNearbyInputs) {
  EXPECT_EQ(MixBits(0), 0u);
  EXPECT_NE(MixBits(1), MixBits(2));
  EXPECT_GT(__builtin_popcountll(MixBits(1) ^ MixBits(2)), 16);
}

}  // namespace
}  // namespace phal
