// Which taps a convolution sums and in what order: padding and lhs-dilation
// holes are skipped, strides, window dilation and reversal move the taps,
// groups pair features and batches, and each sum runs over kernel positions
// in row-major order with the input features innermost.
#include "sdk/element_semantics/convolution.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/element_semantics/accumulation.h"

namespace phal::element_semantics {
namespace {

// A convolution over one spatial dimension of one batch and one feature:
// input [input_size], kernel [kernel_size], output [output_size].
ConvolutionGeometry OneDimensional(int64_t input_size, int64_t kernel_size,
                                   int64_t output_size,
                                   ConvolutionWindow window = {}) {
  ConvolutionGeometry g;
  g.batch = g.output_batch = 1;
  g.input_features = g.output_features = g.kernel_input_features = 1;
  g.lhs_batch_stride = input_size;
  g.lhs_feature_stride = 1;
  g.rhs_input_stride = g.rhs_output_stride = kernel_size;
  g.out_batch_stride = output_size;
  g.out_feature_stride = 1;
  g.input_spatial = {input_size};
  g.kernel_spatial = {kernel_size};
  g.output_spatial = {output_size};
  g.lhs_spatial_strides = g.rhs_spatial_strides = g.out_spatial_strides = {1};
  g.window = {window};
  return g;
}

std::vector<double> Convolve1D(const std::vector<double>& input,
                               const std::vector<double>& kernel,
                               int64_t output_size,
                               ConvolutionWindow window = {}) {
  const auto input_size = static_cast<int64_t>(input.size());
  const auto kernel_size = static_cast<int64_t>(kernel.size());
  return Convolve<double>(
      OneDimensional(input_size, kernel_size, output_size, window), input,
      kernel, output_size);
}

const std::vector<double> kInput = {1, 2, 3, 4};
const std::vector<double> kKernel = {1, 10};

TEST(ConvolutionTest, EachOutputSumsItsWindow) {
  EXPECT_EQ(Convolve1D(kInput, kKernel, 3), (std::vector<double>{21, 32, 43}));
}

TEST(ConvolutionTest, TapsOnPaddingAreSkipped) {
  ConvolutionWindow window;
  window.padding_low = 1;
  EXPECT_EQ(Convolve1D(kInput, kKernel, 5, window),
            (std::vector<double>{10, 21, 32, 43, 4}));
}

TEST(ConvolutionTest, StrideStepsTheWindow) {
  ConvolutionWindow window;
  window.stride = 2;
  EXPECT_EQ(Convolve1D(kInput, kKernel, 2, window),
            (std::vector<double>{21, 43}));
}

TEST(ConvolutionTest, TapsOnLhsDilationHolesAreSkipped) {
  // The dilated input is 1 _ 2 _ 3 _ 4.
  ConvolutionWindow window;
  window.base_dilation = 2;
  EXPECT_EQ(Convolve1D(kInput, kKernel, 6, window),
            (std::vector<double>{1, 20, 2, 30, 3, 40}));
}

TEST(ConvolutionTest, WindowDilationSpreadsTheTaps) {
  ConvolutionWindow window;
  window.window_dilation = 2;
  EXPECT_EQ(Convolve1D(kInput, kKernel, 2, window),
            (std::vector<double>{31, 42}));
}

TEST(ConvolutionTest, ReversalFlipsTheKernel) {
  ConvolutionWindow window;
  window.reversal = true;
  EXPECT_EQ(Convolve1D(kInput, kKernel, 3, window),
            (std::vector<double>{12, 23, 34}));
}

TEST(ConvolutionTest, ZeroSizeKernelSumsToZero) {
  EXPECT_EQ(Convolve1D(kInput, {}, 5), (std::vector<double>(5, 0)));
}

TEST(ConvolutionTest, ZeroSizeOutputHasNoSums) {
  EXPECT_EQ(Convolve1D(kInput, kKernel, 0), (std::vector<double>{}));
}

// In the two tests below the taps' products are 2^53, -2^53, 1 and 1 in the
// order the sum must take, giving 2; taking the third before the second
// gives 1, as 2^53 + 1 rounds to 2^53.
TEST(ConvolutionTest, KernelPositionsAreSummedInRowMajorOrder) {
  ConvolutionGeometry g;
  g.batch = g.output_batch = 1;
  g.input_features = g.output_features = g.kernel_input_features = 1;
  g.lhs_batch_stride = 4;
  g.rhs_input_stride = g.rhs_output_stride = 4;
  g.out_batch_stride = 1;
  g.input_spatial = g.kernel_spatial = {2, 2};
  g.output_spatial = {1, 1};
  g.lhs_spatial_strides = g.rhs_spatial_strides = {2, 1};
  g.out_spatial_strides = {1, 1};
  g.window = {{}, {}};
  const std::vector<double> input = {0x1p53, -0x1p53, 1, 1};
  const std::vector<double> kernel = {1, 1, 1, 1};
  EXPECT_EQ(Convolve<double>(g, input, kernel, 1), (std::vector<double>{2}));
}

TEST(ConvolutionTest, InputFeaturesAreSummedInnermost) {
  // Input [2 positions, 2 features] and kernel [2 positions, 2 input
  // features, 1 output feature], both with features minor.
  ConvolutionGeometry g = OneDimensional(2, 2, 1);
  g.input_features = g.kernel_input_features = 2;
  g.lhs_batch_stride = 4;
  g.lhs_feature_stride = 1;
  g.lhs_spatial_strides = {2};
  g.rhs_input_stride = 1;
  g.rhs_output_stride = 4;
  g.rhs_spatial_strides = {2};
  const std::vector<double> input = {0x1p53, -0x1p53, 1, 1};
  const std::vector<double> kernel = {1, 1, 1, 1};
  EXPECT_EQ(Convolve<double>(g, input, kernel, 1), (std::vector<double>{2}));
}

TEST(ConvolutionTest, FeatureGroupsPairInputAndOutputFeatures) {
  // Two groups of one feature each: output feature o reads input feature o.
  ConvolutionGeometry g = OneDimensional(1, 1, 1);
  g.input_features = g.output_features = g.feature_groups = 2;
  g.lhs_batch_stride = 2;
  g.rhs_output_stride = 1;
  g.out_batch_stride = 2;
  g.out_spatial_strides = {2};
  EXPECT_EQ(Convolve<double>(g, std::vector<double>{3, 5},
                             std::vector<double>{10, 100}, 2),
            (std::vector<double>{30, 500}));
}

TEST(ConvolutionTest, BatchGroupsPairInputBatchesAndOutputFeatures) {
  // Two input batches, one per group: output feature o reads batch o.
  ConvolutionGeometry g = OneDimensional(1, 1, 1);
  g.batch = g.batch_groups = g.output_features = 2;
  g.lhs_batch_stride = 1;
  g.rhs_output_stride = 1;
  g.out_batch_stride = 2;
  g.out_spatial_strides = {2};
  EXPECT_EQ(Convolve<double>(g, std::vector<double>{2, 7},
                             std::vector<double>{10, 100}, 2),
            (std::vector<double>{20, 700}));
}

TEST(ConvolutionTest, IntegerAndPredDomainsWrapAndOrTheirTaps) {
  const uint64_t minus_one = uint64_t{0} - 1;
  EXPECT_EQ(Convolve<uint64_t>(OneDimensional(3, 1, 3),
                               std::vector<uint64_t>{1, 2, 3},
                               std::vector<uint64_t>{minus_one}, 3),
            (std::vector<uint64_t>{minus_one, minus_one - 1, minus_one - 2}));
  EXPECT_EQ(Convolve<PredDomain>(OneDimensional(3, 2, 2),
                                 std::vector<PredDomain>{1, 0, 0},
                                 std::vector<PredDomain>{1, 1}, 2),
            (std::vector<PredDomain>{1, 0}));
}

}  // namespace
}  // namespace phal::element_semantics
