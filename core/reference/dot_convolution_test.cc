#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

TEST(DotTest, MatrixProduct) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot",
                 {Values(kF32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                  Values(kF32, {3, 2}, {7, 8, 9, 10, 11, 12})},
                 Shape(kF32, {2, 2}),
                 "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
      Values(kF32, {2, 2}, {58, 64, 139, 154})));
}

TEST(DotTest, GeneralDimensionNumbersWithBatchAndTransposedOperands) {
  // Batch dim 1 on the lhs, 0 on the rhs; lhs contracts dim 0.
  // lhs[k, b, m], rhs[b, n, k] -> out[b, m, n].
  const Literal lhs = Values(kS32, {2, 2, 1}, {1, 2, 3, 4});
  const Literal rhs = Values(kS32, {2, 1, 2}, {5, 6, 7, 8});
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("dot", {lhs, rhs}, Shape(kS32, {2, 1, 1}),
                             "lhs_batch_dims={1}, lhs_contracting_dims={0}, "
                             "rhs_batch_dims={0}, rhs_contracting_dims={2}"),
                  Values(kS32, {2, 1, 1}, {1 * 5 + 3 * 6, 2 * 7 + 4 * 8})));
}

TEST(DotTest, HalfPrecisionFloatsAccumulateInDoubleAndRoundOnce) {
  // In f16, 2048 + 1 + 1 summed step by step stays 2048; the exact sum
  // 2050 is representable and is what one rounding gives.
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "dot",
          {Values(kF16, {3}, {2048, 1, 1}), Values(kF16, {3}, {1, 1, 1})},
          Shape(kF16, {}),
          "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Values(kF16, {}, {2050})));
  // bf16 operands with an f32 result (preferred element type).
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot",
                 {Values(kBF16, {2}, {256, 1}), Values(kBF16, {2}, {1, 1})},
                 Shape(kF32, {}),
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Values(kF32, {}, {257})));
}

TEST(DotTest, F32SumsRoundAtEveryAdditionInContractingOrder) {
  // 2^24 + 1 rounds back to 2^24 in f32, so the sum is 0 in this order
  // and 1 once the 1 comes last.
  const char* kDims = "lhs_contracting_dims={0}, rhs_contracting_dims={0}";
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("dot",
                             {Values(kF32, {3}, {16777216, 1, -16777216}),
                              Values(kF32, {3}, {1, 1, 1})},
                             Shape(kF32, {}), kDims),
                  Values(kF32, {}, {0})));
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("dot",
                             {Values(kF32, {3}, {16777216, -16777216, 1}),
                              Values(kF32, {3}, {1, 1, 1})},
                             Shape(kF32, {}), kDims),
                  Values(kF32, {}, {1})));
}

TEST(DotTest, IntegersWrapAroundAndPredIsOrOfAnds) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "dot", {Values(kS8, {2}, {100, 100}), Values(kS8, {2}, {2, 1})},
          Shape(kS8, {}), "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Values(kS8, {}, {44})));  // 300 mod 256
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot",
                 {Values(kS8, {2}, {100, 100}), Values(kS8, {2}, {2, 1})},
                 Shape(kS32, {}),
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Values(kS32, {}, {300})));
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot",
                 {Values(kPred, {2}, {1, 0}), Values(kPred, {2}, {0, 1})},
                 Shape(kPred, {}),
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Values(kPred, {}, {0})));
}

TEST(DotTest, EmptyContractingDimensionGivesZeros) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot",
                 {Literal(Shape(kF32, {2, 0})), Literal(Shape(kF32, {0, 2}))},
                 Shape(kF32, {2, 2}),
                 "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
      Values(kF32, {2, 2}, {0, 0, 0, 0})));
}

// A 1-D convolution over x = [1 2 3 4] (batch 1, feature 1) with kernel k.
Literal Conv1D(const Literal& kernel, const Shape& result,
               const std::string& window) {
  return EvaluateOp("convolution",
                    {Values(kF32, {1, 4, 1}, {1, 2, 3, 4}), kernel}, result,
                    "window={" + window + "}, dim_labels=b0f_0io->b0f");
}

TEST(ConvolutionTest, ValidConvolutionIsACorrelation) {
  EXPECT_TRUE(SameLiteral(Conv1D(Values(kF32, {2, 1, 1}, {1, 10}),
                                 Shape(kF32, {1, 3, 1}), "size=2"),
                          Values(kF32, {1, 3, 1}, {21, 32, 43})));
}

TEST(ConvolutionTest, PaddingStridesAndDilations) {
  EXPECT_TRUE(
      SameLiteral(Conv1D(Values(kF32, {2, 1, 1}, {1, 10}),
                         Shape(kF32, {1, 3, 1}), "size=2 stride=2 pad=1_1"),
                  Values(kF32, {1, 3, 1}, {10, 32, 4})));
  // rhs dilation 2: taps x[i] and x[i + 2].
  EXPECT_TRUE(SameLiteral(Conv1D(Values(kF32, {2, 1, 1}, {1, 10}),
                                 Shape(kF32, {1, 2, 1}), "size=2 rhs_dilate=2"),
                          Values(kF32, {1, 2, 1}, {31, 42})));
  // lhs dilation 2: x becomes [1 0 2 0 3 0 4].
  EXPECT_TRUE(SameLiteral(Conv1D(Values(kF32, {2, 1, 1}, {1, 10}),
                                 Shape(kF32, {1, 6, 1}), "size=2 lhs_dilate=2"),
                          Values(kF32, {1, 6, 1}, {1, 20, 2, 30, 3, 40})));
  EXPECT_TRUE(
      SameLiteral(Conv1D(Values(kF32, {2, 1, 1}, {1, 10}),
                         Shape(kF32, {1, 3, 1}), "size=2 rhs_reversal=1"),
                  Values(kF32, {1, 3, 1}, {12, 23, 34})));
}

TEST(ConvolutionTest, FeatureGroupsConvolveEachGroupSeparately) {
  // Depthwise: 2 input features, 2 groups, kernel [size 1, in 1, out 2].
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "convolution",
          {Values(kF32, {1, 1, 2}, {3, 5}), Values(kF32, {1, 1, 2}, {10, 100})},
          Shape(kF32, {1, 1, 2}),
          "window={size=1}, dim_labels=b0f_0io->b0f, "
          "feature_group_count=2"),
      Values(kF32, {1, 1, 2}, {30, 500})));
}

TEST(ConvolutionTest, BatchGroupsPairBatchGroupsWithOutputFeatureGroups) {
  // Batch 2 split in 2 groups; output feature o uses batch o.
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "convolution",
          {Values(kF32, {2, 1, 1}, {3, 5}), Values(kF32, {1, 1, 2}, {10, 100})},
          Shape(kF32, {1, 1, 2}),
          "window={size=1}, dim_labels=b0f_0io->b0f, "
          "batch_group_count=2"),
      Values(kF32, {1, 1, 2}, {30, 500})));
}

TEST(ConvolutionTest, AnyDimensionLabelsAndTwoSpatialDimensions) {
  // NCHW input [1,1,2,2], OIHW kernel [1,1,2,2] of ones: sums everything.
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("convolution",
                             {Values(kS32, {1, 1, 2, 2}, {1, 2, 3, 4}),
                              Values(kS32, {1, 1, 2, 2}, {1, 1, 1, 1})},
                             Shape(kS32, {1, 1, 1, 1}),
                             "window={size=2x2}, dim_labels=bf01_oi01->bf01"),
                  Values(kS32, {1, 1, 1, 1}, {10})));
}

}  // namespace
}  // namespace phal::testing
