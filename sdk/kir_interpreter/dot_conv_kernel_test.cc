// DOT and CONV kernels: strides, accumulation types, epilogues, windows and
// groups.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

TEST(DotKernel, MultipliesThroughStridesAndAddsAnEpilogueBias) {
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kF32, kF32, 2, 2, 3);
  // The rhs is stored transposed, [n, k]: B[k, n] is at n * 3 + k.
  dot.dot.rhs_strides[1] = 1;
  dot.dot.rhs_strides[2] = 3;
  const uint32_t bias = dot.AddBuffer(kF32, {2});
  dot.body = KirBody();
  KirBody& e = dot.body;
  const uint32_t sum = e.Parameter(kF32, 0);
  e.AddResult(
      e.Add(PHAL_KIR_OP_ADD, kF32, {sum, e.Read(kF32, bias, {e.Index(2)})}));
  StatusOr<Kernel> kernel = Kernel::Create(dot.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(dot.dot.lhs, {1, 2, 3, 4, 5, 6});
  buffers.Set<float>(dot.dot.rhs, {1, 0, 1, 0, 1, 1});
  buffers.Set<float>(bias, {10, 20});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(dot.dot.output),
            (std::vector<float>{14, 25, 20, 31}));
}

TEST(DotKernel, RunsEveryBatch) {
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  dot.dot.lhs = dot.AddBuffer(kS32, {3, 1, 2});
  dot.dot.rhs = dot.AddBuffer(kS32, {3, 2, 1});
  dot.dot.output = dot.AddBuffer(kS32, {3, 1, 1}, PHAL_KIR_ACCESS_WRITE);
  dot.dot.accumulation_type = kS32;
  dot.dot.batch = 3;
  dot.dot.m = 1;
  dot.dot.n = 1;
  dot.dot.k = 2;
  // lhs [b, m, k] at 2b + 2m + k, rhs [b, k, n] at 2b + k + n.
  const int64_t lhs_strides[3] = {2, 2, 1}, rhs_strides[3] = {2, 1, 1};
  for (int i = 0; i < 3; ++i) {
    dot.dot.lhs_strides[i] = lhs_strides[i];
    dot.dot.rhs_strides[i] = rhs_strides[i];
  }
  dot.body.AddResult(dot.body.Parameter(kS32, 0));
  StatusOr<Kernel> kernel = Kernel::Create(dot.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(dot.dot.lhs, {1, 2, 3, 4, 5, 6});
  buffers.Set<int32_t>(dot.dot.rhs, {1, 1, 2, 2, 3, 3});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(dot.dot.output),
            (std::vector<int32_t>{3, 14, 33}));
}

TEST(DotKernel, IntegersWrapInTheAccumulationType) {
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kS8, kS8, 1, 1, 2);
  StatusOr<Kernel> kernel = Kernel::Create(dot.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int8_t>(dot.dot.lhs, {100, 100});
  buffers.Set<int8_t>(dot.dot.rhs, {2, 2});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int8_t>(dot.dot.output),
            (std::vector<int8_t>{400 - 512}));
}

TEST(DotKernel, OperandsAreRoundedToTheAccumulationTypeFirst) {
  // As f32, 1 + 2^-25 is 1, so the f32 sum is 1 + 2^-24, a tie that rounds
  // to 1. Summing the unrounded f64 operands would give 1 + 2^-23.
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kF64, kF32, 1, 1, 2);
  StatusOr<Kernel> kernel = Kernel::Create(dot.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<double>(dot.dot.lhs,
                      {1 + std::ldexp(1.0, -25), std::ldexp(1.0, -24)});
  buffers.Set<double>(dot.dot.rhs, {1, 1});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(dot.dot.output), (std::vector<float>{1.0f}));
}

TEST(DotKernel, PredDotIsAnOrOfAnds) {
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kPred, kPred, 2, 1, 2);
  StatusOr<Kernel> kernel = Kernel::Create(dot.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<uint8_t>(dot.dot.lhs, {0, 1, 1, 0});
  buffers.Set<uint8_t>(dot.dot.rhs, {1, 0});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<uint8_t>(dot.dot.output), (std::vector<uint8_t>{0, 1}));
}

// A one-dimensional convolution of `type` operands and output accumulating
// in f32, layouts [batch, feature, width] (input and output) and
// [output feature, input feature, width] (kernel).
void BuildConv1d(KirKernel& conv, std::vector<int64_t> input_dims,
                 std::vector<int64_t> kernel_dims,
                 std::vector<int64_t> output_dims,
                 phal_element_type_t type = kF32) {
  conv.conv.input = conv.AddBuffer(type, input_dims);
  conv.conv.kernel = conv.AddBuffer(type, kernel_dims);
  conv.conv.output = conv.AddBuffer(type, output_dims, PHAL_KIR_ACCESS_WRITE);
  conv.conv.accumulation_type = kF32;
  conv.conv.input_batch_dimension = 0;
  conv.conv.input_feature_dimension = 1;
  conv.conv.kernel_output_feature_dimension = 0;
  conv.conv.kernel_input_feature_dimension = 1;
  conv.conv.output_batch_dimension = 0;
  conv.conv.output_feature_dimension = 1;
  conv.arrays[KirKernel::kConvInputSpatialDimensions] = {2};
  conv.arrays[KirKernel::kConvKernelSpatialDimensions] = {2};
  conv.arrays[KirKernel::kConvOutputSpatialDimensions] = {2};
  conv.arrays[KirKernel::kConvWindowStrides] = {1};
  conv.arrays[KirKernel::kConvPadding] = {0, 0};
  conv.arrays[KirKernel::kConvLhsDilation] = {1};
  conv.arrays[KirKernel::kConvRhsDilation] = {1};
  conv.window_reversal = {0};
  conv.conv.feature_group_count = 1;
  conv.conv.batch_group_count = 1;
  conv.body.AddResult(conv.body.Parameter(kF32, 0));
}

std::vector<float> RunConv(KirKernel& conv, const std::vector<float>& input,
                           const std::vector<float>& weights) {
  StatusOr<Kernel> kernel = Kernel::Create(conv.Desc());
  EXPECT_TRUE(IsOk(kernel.status()));
  if (!kernel.ok()) return {};
  HostBuffers buffers(*kernel);
  buffers.Set(conv.conv.input, input);
  buffers.Set(conv.conv.kernel, weights);
  EXPECT_TRUE(IsOk(buffers.Run(*kernel)));
  return buffers.Get<float>(conv.conv.output);
}

TEST(ConvKernel, PadsAndStrides) {
  // Windows of 3 over [0, 1, 2, 3, 4, 5, 0] at stride 2.
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 1, 5}, {1, 1, 3}, {1, 1, 3});
  conv.arrays[KirKernel::kConvWindowStrides] = {2};
  conv.arrays[KirKernel::kConvPadding] = {1, 1};
  EXPECT_EQ(RunConv(conv, {1, 2, 3, 4, 5}, {1, 1, 1}),
            (std::vector<float>{3, 9, 9}));
}

TEST(ConvKernel, DilatesTheInput) {
  // The input dilated by 2 is [1, 0, 2, 0, 3].
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 1, 3}, {1, 1, 2}, {1, 1, 4});
  conv.arrays[KirKernel::kConvLhsDilation] = {2};
  EXPECT_EQ(RunConv(conv, {1, 2, 3}, {1, 1}), (std::vector<float>{1, 2, 2, 3}));
}

TEST(ConvKernel, DilatesTheWindow) {
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 1, 5}, {1, 1, 2}, {1, 1, 3});
  conv.arrays[KirKernel::kConvRhsDilation] = {2};
  EXPECT_EQ(RunConv(conv, {1, 2, 3, 4, 5}, {1, 10}),
            (std::vector<float>{31, 42, 53}));
}

TEST(ConvKernel, ReversesTheWindow) {
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 1, 3}, {1, 1, 2}, {1, 1, 2});
  EXPECT_EQ(RunConv(conv, {1, 2, 3}, {1, 2}), (std::vector<float>{5, 8}));
  conv.window_reversal = {1};
  EXPECT_EQ(RunConv(conv, {1, 2, 3}, {1, 2}), (std::vector<float>{4, 7}));
}

TEST(ConvKernel, FeatureGroupsConvolveTheirOwnFeatures) {
  // Two groups of one input feature and one output feature each.
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 2, 1}, {2, 1, 1}, {1, 2, 1});
  conv.conv.feature_group_count = 2;
  EXPECT_EQ(RunConv(conv, {3, 5}, {2, 10}), (std::vector<float>{6, 50}));
}

TEST(ConvKernel, BatchGroupsSplitTheBatchOverOutputFeatures) {
  // Batch 2 in two groups: output feature o convolves batch element o.
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {2, 1, 1}, {2, 1, 1}, {1, 2, 1});
  conv.conv.batch_group_count = 2;
  EXPECT_EQ(RunConv(conv, {3, 5}, {2, 10}), (std::vector<float>{6, 50}));
}

TEST(ConvKernel, RefusesGroupCountsThatDoNotDivideTheFeatures) {
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 3, 1}, {2, 1, 1}, {1, 2, 1});
  conv.conv.feature_group_count = 2;
  conv.set_name("bad_groups");
  EXPECT_TRUE(HasCode(Kernel::Create(conv.Desc()).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel bad_groups", "feature_group_count 2"}));
}

TEST(ConvKernel, HalfOperandsAccumulateInF32AndTheEpilogueRounds) {
  KirKernel conv("test_kernel", PHAL_KERNEL_KIND_CONV);
  BuildConv1d(conv, {1, 1, 2}, {1, 1, 2}, {1, 1, 1}, PHAL_ELEMENT_TYPE_F16);
  conv.body = KirBody();
  conv.body.AddResult(conv.body.Add(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_F16,
                                    {conv.body.Parameter(kF32, 0)}));
  StatusOr<Kernel> kernel = Kernel::Create(conv.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  const std::vector<uint16_t> input = Halves({0.1, 0.2});
  buffers.Set(conv.conv.input, input);
  buffers.Set(conv.conv.kernel, Halves({1, 1}));
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  const double exact_sum = HalfToFloat(input[0]) + HalfToFloat(input[1]);
  EXPECT_EQ(buffers.Get<uint16_t>(conv.conv.output),
            (std::vector<uint16_t>{DoubleToHalf(exact_sum)}));
}

}  // namespace
}  // namespace phal::kir_interpreter
