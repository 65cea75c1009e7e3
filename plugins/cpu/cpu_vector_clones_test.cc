// The clone the plugin's vector loops run follows the target's features.
#include "plugins/cpu/cpu_vector_clones.h"

#include <gtest/gtest.h>

namespace phal::cpu {
namespace {

TEST(VectorClones, TheWidestCloneTheFeaturesAllow) {
  EXPECT_EQ(VectorIsaOfFeatures("sse2 avx avx2 fma avx512f avx512bw"),
            VectorIsa::kAvx512);
  EXPECT_EQ(VectorIsaOfFeatures("sse2 avx avx2 fma"), VectorIsa::kAvx2);
  EXPECT_EQ(VectorIsaOfFeatures("avx512bw sse4.2"), VectorIsa::kBaseline);
  EXPECT_EQ(VectorIsaOfFeatures("neon fullfp16"), VectorIsa::kBaseline);
}

TEST(VectorClones, ATargetNarrowerThanTheProcessorIsKept) {
  const VectorIsa before = TargetVectorIsa();
  SetTargetVectorIsa(VectorIsa::kBaseline);
  EXPECT_EQ(TargetVectorIsa(), VectorIsa::kBaseline);
  SetTargetVectorIsa(before);
  EXPECT_EQ(TargetVectorIsa(), before);
}

}  // namespace
}  // namespace phal::cpu
