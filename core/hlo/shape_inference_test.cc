#include "core/hlo/shape_inference.h"

#include <gtest/gtest.h>

namespace phal {
namespace {

Shape F32(std::vector<int64_t> dims) {
  return Shape(PHAL_ELEMENT_TYPE_F32, std::move(dims));
}

Shape S32(std::vector<int64_t> dims) {
  return Shape(PHAL_ELEMENT_TYPE_S32, std::move(dims));
}

Window MakeWindow(std::vector<WindowDimension> dimensions) {
  return Window{std::move(dimensions)};
}

TEST(ShapeInferenceTest, WindowOutputCountsPaddingStrideAndDilations) {
  // Base 5 dilated by 2 is 9, padded 1+1 is 11; window 3 dilated by 2 is 5;
  // stride 2 fits (11 - 5) / 2 + 1 = 4 windows.
  WindowDimension dimension;
  dimension.size = 3;
  dimension.stride = 2;
  dimension.padding_low = 1;
  dimension.padding_high = 1;
  dimension.base_dilation = 2;
  dimension.window_dilation = 2;
  StatusOr<std::vector<int64_t>> dims =
      InferWindowOutputDimensions({5}, MakeWindow({dimension}));
  ASSERT_TRUE(dims.ok()) << dims.status().message();
  EXPECT_EQ(*dims, std::vector<int64_t>{4});
}

TEST(ShapeInferenceTest, WindowLargerThanBaseGivesZeroWindows) {
  WindowDimension dimension;
  dimension.size = 4;
  StatusOr<std::vector<int64_t>> dims =
      InferWindowOutputDimensions({3}, MakeWindow({dimension}));
  ASSERT_TRUE(dims.ok());
  EXPECT_EQ(*dims, std::vector<int64_t>{0});
}

TEST(ShapeInferenceTest, WindowWithZeroStrideIsRejected) {
  WindowDimension dimension;
  dimension.stride = 0;
  EXPECT_FALSE(InferWindowOutputDimensions({3}, MakeWindow({dimension})).ok());
}

TEST(ShapeInferenceTest, DotPutsBatchThenLhsFreeThenRhsFreeDimensions) {
  DotDimensionNumbers numbers;
  numbers.lhs_batch_dimensions = {0};
  numbers.rhs_batch_dimensions = {0};
  numbers.lhs_contracting_dimensions = {1};
  numbers.rhs_contracting_dimensions = {2};
  StatusOr<Shape> shape = InferDotShape(F32({8, 16, 3}), F32({8, 5, 16}),
                                        numbers, PHAL_ELEMENT_TYPE_F32);
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(*shape, F32({8, 3, 5}));
}

TEST(ShapeInferenceTest, ConvolutionWithFeatureGroupsAndNchwLabels) {
  // dim_labels bf01_oi01->bf01, input [2, 4, 7, 7], kernel [6, 2, 3, 3],
  // two feature groups, stride 2: spatial (7 - 3) / 2 + 1 = 3.
  ConvolutionDimensionNumbers numbers;
  numbers.input_batch_dimension = 0;
  numbers.input_feature_dimension = 1;
  numbers.input_spatial_dimensions = {2, 3};
  numbers.kernel_output_feature_dimension = 0;
  numbers.kernel_input_feature_dimension = 1;
  numbers.kernel_spatial_dimensions = {2, 3};
  numbers.output_batch_dimension = 0;
  numbers.output_feature_dimension = 1;
  numbers.output_spatial_dimensions = {2, 3};
  WindowDimension dimension;
  dimension.size = 3;
  dimension.stride = 2;
  StatusOr<Shape> shape = InferConvolutionShape(
      F32({2, 4, 7, 7}), F32({6, 2, 3, 3}), MakeWindow({dimension, dimension}),
      numbers, /*feature_group_count=*/2, /*batch_group_count=*/1,
      PHAL_ELEMENT_TYPE_F32);
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(*shape, F32({2, 6, 3, 3}));
  EXPECT_EQ(ConvolutionDimensionNumbersToString(numbers), "bf01_oi01->bf01");
}

TEST(ShapeInferenceTest, GatherInterleavesOffsetAndBatchDimensions) {
  // Rows of a [5, 7] operand picked by [3, 1] indices, offset dim first.
  GatherDimensionNumbers numbers;
  numbers.offset_dims = {0};
  numbers.collapsed_slice_dims = {0};
  numbers.start_index_map = {0};
  numbers.index_vector_dim = 1;
  StatusOr<Shape> shape =
      InferGatherShape(F32({5, 7}), S32({3, 1}), numbers, {1, 7});
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(*shape, F32({7, 3}));
}

TEST(ShapeInferenceTest, GatherWithImplicitIndexVectorDimension) {
  GatherDimensionNumbers numbers;
  numbers.offset_dims = {1};
  numbers.collapsed_slice_dims = {0};
  numbers.start_index_map = {0};
  numbers.index_vector_dim = 1;
  StatusOr<Shape> shape =
      InferGatherShape(F32({5, 7}), S32({3}), numbers, {1, 7});
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(*shape, F32({3, 7}));
}

TEST(ShapeInferenceTest, PadWithNegativeAndInteriorPadding) {
  PaddingConfig config;
  config.dimensions = {{-1, 2, 1}};
  StatusOr<Shape> shape = InferPadShape(F32({4}), F32({}), config);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, F32({8}));
  config.dimensions = {{0, 0, -1}};
  EXPECT_FALSE(InferPadShape(F32({4}), F32({}), config).ok());
}

TEST(ShapeInferenceTest, SliceRoundsPartialStridesUp) {
  StatusOr<Shape> shape = InferSliceShape(F32({10}), {1}, {8}, {3});
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, F32({3}));
}

TEST(ShapeInferenceTest, ConcatenateAddsAlongOneDimension) {
  StatusOr<Shape> shape = InferConcatenateShape({F32({2, 3}), F32({5, 3})}, 0);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, F32({7, 3}));
  EXPECT_FALSE(InferConcatenateShape({F32({2, 3}), F32({2, 4})}, 0).ok());
}

TEST(ShapeInferenceTest, CompareAndComplexChangeTheElementType) {
  StatusOr<Shape> compare =
      InferElementwiseBinaryShape(HloOpcode::kCompare, S32({2}), S32({2}));
  ASSERT_TRUE(compare.ok());
  EXPECT_EQ(*compare, Shape(PHAL_ELEMENT_TYPE_PRED, {2}));
  StatusOr<Shape> complex = InferElementwiseBinaryShape(
      HloOpcode::kComplex, Shape(PHAL_ELEMENT_TYPE_F64, {}),
      Shape(PHAL_ELEMENT_TYPE_F64, {}));
  ASSERT_TRUE(complex.ok());
  EXPECT_EQ(*complex, Shape(PHAL_ELEMENT_TYPE_C128, {}));
  EXPECT_FALSE(
      InferElementwiseBinaryShape(HloOpcode::kComplex, S32({}), S32({})).ok());
}

TEST(ShapeInferenceTest, TransposeFollowsThePermutation) {
  StatusOr<Shape> shape = InferTransposeShape(F32({2, 3, 4}), {2, 0, 1});
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, F32({4, 2, 3}));
  EXPECT_FALSE(InferTransposeShape(F32({2, 3}), {0, 0}).ok());
}

}  // namespace
}  // namespace phal
