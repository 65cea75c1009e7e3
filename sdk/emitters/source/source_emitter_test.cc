// The source emitter's printed OpenCL C, pinned by structure: what each
// kernel kind launches, which helpers the StableHLO integer and float
// semantics pull into the prelude, and what a device without f64 refuses.
// Whether the text compiles and computes the right values is what the intel
// plugin's end-to-end tests check on PoCL.
#include "sdk/emitters/source/source_emitter.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"

namespace phal::source_emitter {
namespace {

using ::phal::testing::CompileText;

DeviceFeatures PoclLikeDevice() {
  DeviceFeatures features;
  features.fp64 = true;
  features.correctly_rounded_divide_sqrt = false;
  features.max_work_group_size = 4096;
  return features;
}

// The sources of every kernel `hlo` compiles to.
std::vector<SourceKernel> Emit(const std::string& hlo,
                               const DeviceFeatures& features) {
  std::unique_ptr<Program> program = CompileText(hlo);
  std::vector<SourceKernel> sources;
  if (program == nullptr) return sources;
  for (const auto& kernel : program->kernels) {
    StatusOr<SourceKernel> source =
        EmitSource(kernel->Desc(), OpenClDialect(), features);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    if (source.ok()) sources.push_back(*source);
  }
  return sources;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SourceEmitter, LoopIsOneWorkItemPerElementWithAGuard) {
  const auto sources = Emit(R"(
HloModule add
ENTRY main {
  a = f32[3,5] parameter(0)
  b = f32[3,5] parameter(1)
  ROOT c = f32[3,5] add(a, b)
})",
                            PoclLikeDevice());
  ASSERT_EQ(sources.size(), 1u);
  const SourceKernel& loop = sources[0];
  EXPECT_EQ(loop.launch.dimensions, 1u);
  EXPECT_EQ(loop.launch.global_size[0], 64u) << "15 work-items in groups of 64";
  EXPECT_EQ(loop.launch.local_size[0], 64u);
  EXPECT_TRUE(
      Contains(loop.source, "__kernel void phal_kernel(__global float* b0"))
      << loop.source;
  EXPECT_TRUE(Contains(loop.source, "if (gid >= 15l) return;")) << loop.source;
  EXPECT_TRUE(Contains(loop.source, "#pragma OPENCL FP_CONTRACT OFF"));
}

TEST(SourceEmitter, IntegerDivisionShiftsAndPowerUseTheirStableHloHelpers) {
  const auto sources = Emit(R"(
HloModule ints
ENTRY main {
  a = s32[8] parameter(0)
  b = s32[8] parameter(1)
  d = s32[8] divide(a, b)
  r = s32[8] remainder(a, b)
  s = s32[8] shift-left(d, r)
  t = s32[8] shift-right-arithmetic(s, b)
  ROOT p = s32[8] power(t, a)
})",
                            PoclLikeDevice());
  ASSERT_FALSE(sources.empty());
  const std::string& text = sources[0].source;
  for (const char* helper :
       {"int phal_div_s32(int a, int b)", "int phal_rem_s32(int a, int b)",
        "int phal_shl_s32(int a, int b)", "int phal_sra_s32(int a, int b)",
        "int phal_pow_s32(int base, int exponent)"}) {
    EXPECT_TRUE(Contains(text, helper)) << helper << " missing in\n" << text;
  }
  EXPECT_TRUE(Contains(text, "if (b == 0) return (int)-1;"))
      << "x / 0 is -1 in StableHLO as XLA defines it";
  EXPECT_TRUE(Contains(text, "(uint)b >= 32 ? (int)0"))
      << "a shift by the width or more gives 0";
}

TEST(SourceEmitter, F32TranscendentalsComputeInF64WhenTheDeviceHasIt) {
  const std::string hlo = R"(
HloModule exp
ENTRY main {
  a = f32[4] parameter(0)
  ROOT e = f32[4] exponential(a)
})";
  const auto wide = Emit(hlo, PoclLikeDevice());
  ASSERT_FALSE(wide.empty());
  EXPECT_TRUE(Contains(wide[0].source, "double x = v;")) << wide[0].source;
  DeviceFeatures narrow = PoclLikeDevice();
  narrow.fp64 = false;
  const auto plain = Emit(hlo, narrow);
  ASSERT_FALSE(plain.empty());
  EXPECT_FALSE(Contains(plain[0].source, "double")) << plain[0].source;
  EXPECT_FALSE(Contains(plain[0].source, "cl_khr_fp64"));
}

TEST(SourceEmitter, HalfPrecisionIsStoredWithVloadHalfAndRoundedPerNode) {
  const auto sources = Emit(R"(
HloModule half
ENTRY main {
  a = f16[4] parameter(0)
  b = f16[4] parameter(1)
  ROOT c = f16[4] multiply(a, b)
})",
                            PoclLikeDevice());
  ASSERT_FALSE(sources.empty());
  const std::string& text = sources[0].source;
  EXPECT_TRUE(Contains(text, "__global half* b0")) << text;
  EXPECT_TRUE(Contains(text, "vload_half(")) << text;
  EXPECT_TRUE(Contains(text, "vstore_half_rte(")) << text;
  EXPECT_TRUE(Contains(text, "phal_round_f16(")) << text;
}

TEST(SourceEmitter, F64IsRefusedWithoutClKhrFp64) {
  std::unique_ptr<Program> program = CompileText(R"(
HloModule wide
ENTRY main {
  a = f64[4] parameter(0)
  ROOT n = f64[4] negate(a)
})");
  ASSERT_NE(program, nullptr);
  ASSERT_FALSE(program->kernels.empty());
  DeviceFeatures narrow = PoclLikeDevice();
  narrow.fp64 = false;
  StatusOr<SourceKernel> source =
      EmitSource(program->kernels[0]->Desc(), OpenClDialect(), narrow);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_TRUE(Contains(source.status().message(), "cl_khr_fp64"))
      << source.status().message();
}

TEST(SourceEmitter, DotIsATiledGemmInSharedMemory) {
  const auto sources = Emit(R"(
HloModule dot
ENTRY main {
  a = f32[2,33,20] parameter(0)
  b = f32[2,20,17] parameter(1)
  ROOT c = f32[2,33,17] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0},
      lhs_contracting_dims={2}, rhs_contracting_dims={1}
})",
                            PoclLikeDevice());
  ASSERT_EQ(sources.size(), 1u);
  const LaunchShape& launch = sources[0].launch;
  EXPECT_EQ(launch.dimensions, 3u);
  EXPECT_EQ(launch.global_size[0], 32u) << "n = 17 rounded up to tiles of 16";
  EXPECT_EQ(launch.global_size[1], 48u) << "m = 33 rounded up to tiles of 16";
  EXPECT_EQ(launch.global_size[2], 2u) << "one layer per batch";
  EXPECT_EQ(launch.local_size[0], 16u);
  EXPECT_TRUE(Contains(sources[0].source, "__local float tile_a[272];"));
  EXPECT_TRUE(Contains(sources[0].source, "barrier(CLK_LOCAL_MEM_FENCE);"));
}

TEST(SourceEmitter, ShortReductionsRunInOrderLongOnesAsAWorkGroupTree) {
  const char* kSum = R"(
HloModule sum
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  a = f32[3,@] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce(a, z), dimensions={1}, to_apply=add
})";
  auto with_length = [&](const std::string& n) {
    std::string text = kSum;
    text.replace(text.find('@'), 1, n);
    return Emit(text, PoclLikeDevice());
  };
  const auto short_sum = with_length("100");
  ASSERT_EQ(short_sum.size(), 1u);
  EXPECT_EQ(short_sum[0].launch.global_size[0], 64u) << "one work-item each";
  EXPECT_TRUE(Contains(short_sum[0].source, "for (long q = 0; q < 100l; ++q)"))
      << short_sum[0].source;
  const auto long_sum = with_length("5000");
  ASSERT_EQ(long_sum.size(), 1u);
  EXPECT_EQ(long_sum[0].launch.local_size[0], 64u);
  EXPECT_EQ(long_sum[0].launch.global_size[0], 3u * 64u)
      << "one work-group per output";
}

TEST(SourceEmitter, SortMergesAPermutationInScratchMemory) {
  const auto sort = Emit(R"(
HloModule sort
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY main {
  x = f32[4,10] parameter(0)
  ROOT s = f32[4,10] sort(x), dimensions={1}, to_apply=less
})",
                         PoclLikeDevice());
  ASSERT_FALSE(sort.empty());
  const SourceKernel& sorted = sort.back();
  EXPECT_GT(sorted.launch.scratch_bytes, 0u);
  EXPECT_TRUE(Contains(sorted.source, "uchar phal_sort_less("))
      << sorted.source;
  EXPECT_TRUE(Contains(sorted.source, "__global uchar* scratch)"));
}

}  // namespace
}  // namespace phal::source_emitter
