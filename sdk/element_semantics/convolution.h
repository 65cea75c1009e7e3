// How convolution sums: the taps of every output element in a fixed order,
// in the accumulation domain (accumulation.h). The geometry is resolved by
// the caller from its own description of the convolution (HLO attributes,
// a KIR conv kernel) and checked there; every array is dense row-major.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_CONVOLUTION_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_CONVOLUTION_H_

#include <cstdint>
#include <span>
#include <vector>

namespace phal::element_semantics {

// One spatial dimension of the window, as StableHLO names its parts.
struct ConvolutionWindow {
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t base_dilation = 1;    // lhs_dilation
  int64_t window_dilation = 1;  // rhs_dilation
  bool reversal = false;
};

// Sizes and strides of a convolution, from the dimension numbers: extents
// of the batch and feature dimensions, the element strides of each array's
// batch, feature and spatial dimensions, and one window per spatial
// dimension.
struct ConvolutionGeometry {
  int64_t batch = 0, input_features = 0, output_features = 0;
  int64_t kernel_input_features = 0;
  int64_t output_batch = 0;
  int64_t feature_groups = 1, batch_groups = 1;
  int64_t lhs_batch_stride = 0, lhs_feature_stride = 0;
  int64_t rhs_input_stride = 0, rhs_output_stride = 0;
  int64_t out_batch_stride = 0, out_feature_stride = 0;
  std::vector<int64_t> input_spatial, kernel_spatial, output_spatial;
  std::vector<int64_t> lhs_spatial_strides, rhs_spatial_strides,
      out_spatial_strides;
  std::vector<ConvolutionWindow> window;
};

// The `output_count` sums of the convolution of `lhs` by `rhs` (both in
// domain D), each summing its taps with MultiplyAdd from zero: kernel
// spatial positions in row-major order, input features innermost. Taps on
// padding or on lhs-dilation holes are skipped. Defined for the four
// domains and for float and std::complex<float>.
template <typename D>
std::vector<D> Convolve(const ConvolutionGeometry& geometry,
                        std::span<const D> lhs, std::span<const D> rhs,
                        int64_t output_count);

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_CONVOLUTION_H_
