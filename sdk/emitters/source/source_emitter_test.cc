// The source emitter's printed OpenCL C, pinned by structure: what each
// kernel kind launches, which helpers the StableHLO integer and float
// semantics pull into the prelude, and what a device without f64 refuses.
// The kernels are built by hand (sdk/kir/kernel.h) as the core partitions
// the equivalent HLO. Whether the text compiles and computes the right
// values is what the intel plugin's tests and the core's end-to-end tests
// check on PoCL.
#include "sdk/emitters/source/source_emitter.h"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"

namespace phal::source_emitter {
namespace {

using ::phal::plugin_testing::BuildSum;

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

DeviceFeatures PoclLikeDevice() {
  DeviceFeatures features;
  features.fp64 = true;
  features.correctly_rounded_divide_sqrt = false;
  features.max_work_group_size = 4096;
  return features;
}

DeviceFeatures DeviceWithoutF64() {
  DeviceFeatures features = PoclLikeDevice();
  features.fp64 = false;
  return features;
}

// A loop over `type`[dims] reading `arity` input buffers at the loop's own
// index and writing one output, as the core emits an elementwise op; the
// test builds the result from the values read.
class Elementwise {
 public:
  Elementwise(phal_element_type_t type, std::vector<int64_t> dims, int arity)
      : type_(type) {
    for (int i = 0; i < arity; ++i)
      inputs_.push_back(kernel_.AddBuffer(type, dims));
    const uint32_t out = kernel_.AddBuffer(type, dims, PHAL_KIR_ACCESS_WRITE);
    kernel_.dims = dims;
    kernel_.outputs = {out};
    std::vector<uint32_t> indices;
    for (size_t d = 0; d < dims.size(); ++d) {
      indices.push_back(body().Index(static_cast<int64_t>(d)));
    }
    for (uint32_t input : inputs_) {
      values_.push_back(body().Read(type, input, indices));
    }
  }

  KirBody& body() { return kernel_.body; }
  uint32_t value(size_t input) const { return values_[input]; }
  uint32_t Apply(phal_kir_op_t op, std::vector<uint32_t> operands) {
    return body().Add(op, type_, std::move(operands));
  }

  const phal_kernel_desc_t& Finish(uint32_t result) {
    body().AddResult(result);
    return kernel_.Desc();
  }

 private:
  phal_element_type_t type_;
  KirKernel kernel_{"test_kernel", PHAL_KERNEL_KIND_LOOP};
  std::vector<uint32_t> inputs_;
  std::vector<uint32_t> values_;
};

// `op` applied to one or two operands of `type`[dims].
SourceKernel EmitElementwise(phal_kir_op_t op, phal_element_type_t type,
                             std::vector<int64_t> dims, int arity,
                             const DeviceFeatures& features) {
  Elementwise loop(type, std::move(dims), arity);
  std::vector<uint32_t> operands;
  for (int i = 0; i < arity; ++i) operands.push_back(loop.value(i));
  StatusOr<SourceKernel> source = EmitSource(
      loop.Finish(loop.Apply(op, operands)), OpenClDialect(), features);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  return source.ok() ? *source : SourceKernel{};
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SourceEmitter, LoopIsOneWorkItemPerElementWithAGuard) {
  const SourceKernel loop =
      EmitElementwise(PHAL_KIR_OP_ADD, kF32, {3, 5}, 2, PoclLikeDevice());
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
  Elementwise loop(PHAL_ELEMENT_TYPE_S32, {8}, 2);
  const uint32_t a = loop.value(0), b = loop.value(1);
  const uint32_t d = loop.Apply(PHAL_KIR_OP_DIVIDE, {a, b});
  const uint32_t r = loop.Apply(PHAL_KIR_OP_REMAINDER, {a, b});
  const uint32_t s = loop.Apply(PHAL_KIR_OP_SHIFT_LEFT, {d, r});
  const uint32_t t = loop.Apply(PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, {s, b});
  StatusOr<SourceKernel> source =
      EmitSource(loop.Finish(loop.Apply(PHAL_KIR_OP_POWER, {t, a})),
                 OpenClDialect(), PoclLikeDevice());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  const std::string& text = source->source;
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
  const SourceKernel wide =
      EmitElementwise(PHAL_KIR_OP_EXP, kF32, {4}, 1, PoclLikeDevice());
  EXPECT_TRUE(Contains(wide.source, "double x = v;")) << wide.source;
  const SourceKernel plain =
      EmitElementwise(PHAL_KIR_OP_EXP, kF32, {4}, 1, DeviceWithoutF64());
  ASSERT_FALSE(plain.source.empty());
  EXPECT_FALSE(Contains(plain.source, "double")) << plain.source;
  EXPECT_FALSE(Contains(plain.source, "cl_khr_fp64"));
}

TEST(SourceEmitter, HalfPrecisionIsStoredWithVloadHalfAndRoundedPerNode) {
  const std::string text =
      EmitElementwise(PHAL_KIR_OP_MULTIPLY, PHAL_ELEMENT_TYPE_F16, {4}, 2,
                      PoclLikeDevice())
          .source;
  EXPECT_TRUE(Contains(text, "__global half* b0")) << text;
  EXPECT_TRUE(Contains(text, "vload_half(")) << text;
  EXPECT_TRUE(Contains(text, "vstore_half_rte(")) << text;
  EXPECT_TRUE(Contains(text, "phal_round_f16(")) << text;
}

TEST(SourceEmitter, F64IsRefusedWithoutClKhrFp64) {
  Elementwise loop(PHAL_ELEMENT_TYPE_F64, {4}, 1);
  StatusOr<SourceKernel> source =
      EmitSource(loop.Finish(loop.Apply(PHAL_KIR_OP_NEGATE, {loop.value(0)})),
                 OpenClDialect(), DeviceWithoutF64());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_TRUE(Contains(source.status().message(), "cl_khr_fp64"))
      << source.status().message();
}

// c[b] = a[b] x w[b] over f32[2,33,20] x f32[2,20,17], row-major.
TEST(SourceEmitter, DotIsATiledGemmInSharedMemory) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_DOT);
  phal_kir_dot_t& dot = kernel.dot;
  dot.lhs = kernel.AddBuffer(kF32, {2, 33, 20});
  dot.rhs = kernel.AddBuffer(kF32, {2, 20, 17});
  dot.output = kernel.AddBuffer(kF32, {2, 33, 17}, PHAL_KIR_ACCESS_WRITE);
  dot.accumulation_type = kF32;
  dot.batch = 2;
  dot.m = 33;
  dot.n = 17;
  dot.k = 20;
  const int64_t lhs_strides[3] = {33 * 20, 20, 1};
  const int64_t rhs_strides[3] = {20 * 17, 17, 1};
  for (int d = 0; d < 3; ++d) {
    dot.lhs_strides[d] = lhs_strides[d];
    dot.rhs_strides[d] = rhs_strides[d];
  }
  kernel.body.AddResult(kernel.body.Parameter(kF32, 0));
  StatusOr<SourceKernel> source =
      EmitSource(kernel.Desc(), OpenClDialect(), PoclLikeDevice());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  const LaunchShape& launch = source->launch;
  EXPECT_EQ(launch.dimensions, 3u);
  EXPECT_EQ(launch.global_size[0], 32u) << "n = 17 rounded up to tiles of 16";
  EXPECT_EQ(launch.global_size[1], 48u) << "m = 33 rounded up to tiles of 16";
  EXPECT_EQ(launch.global_size[2], 2u) << "one layer per batch";
  EXPECT_EQ(launch.local_size[0], 16u);
  EXPECT_TRUE(Contains(source->source, "__local float tile_a[272];"));
  EXPECT_TRUE(Contains(source->source, "barrier(CLK_LOCAL_MEM_FENCE);"));
}

// Row sums of f32[3, length].
SourceKernel EmitRowSum(int64_t length) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(kernel, kF32, {3, length}, {1});
  StatusOr<SourceKernel> source =
      EmitSource(kernel.Desc(), OpenClDialect(), PoclLikeDevice());
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  return source.ok() ? *source : SourceKernel{};
}

TEST(SourceEmitter, ShortReductionsRunInOrderLongOnesAsAWorkGroupTree) {
  const SourceKernel short_sum = EmitRowSum(100);
  EXPECT_EQ(short_sum.launch.global_size[0], 64u) << "one work-item each";
  EXPECT_TRUE(Contains(short_sum.source, "for (long q = 0; q < 100l; ++q)"))
      << short_sum.source;
  const SourceKernel long_sum = EmitRowSum(5000);
  EXPECT_EQ(long_sum.launch.local_size[0], 64u);
  EXPECT_EQ(long_sum.launch.global_size[0], 3u * 64u)
      << "one work-group per output";
}

// Each row of f32[4,10] sorted in place by a < b.
TEST(SourceEmitter, SortMergesAPermutationInScratchMemory) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SORT);
  const uint32_t keys =
      kernel.AddBuffer(kF32, {4, 10}, PHAL_KIR_ACCESS_READ_WRITE);
  kernel.operands = {keys};
  kernel.outputs = {keys};
  kernel.sort.dimension = 1;
  KirBody& c = kernel.reducer;
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_FLOAT,
                        c.Parameter(kF32, 0), c.Parameter(kF32, 1)));
  StatusOr<SourceKernel> sorted =
      EmitSource(kernel.Desc(), OpenClDialect(), PoclLikeDevice());
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  EXPECT_GT(sorted->launch.scratch_bytes, 0u);
  EXPECT_TRUE(Contains(sorted->source, "__global uchar* scratch)"))
      << sorted->source;
  EXPECT_TRUE(Contains(sorted->source, "perm = merged;")) << sorted->source;
}

}  // namespace
}  // namespace phal::source_emitter
