// Dimension numbers: which operand dimensions play which role in dot,
// convolution, gather and scatter. Field meanings follow the StableHLO spec
// and XLA's HLO text (names match the text attributes).
#ifndef POLYHAL_CORE_HLO_DIMENSION_NUMBERS_H_
#define POLYHAL_CORE_HLO_DIMENSION_NUMBERS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace phal {

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batch_dimensions;
  std::vector<int64_t> rhs_batch_dimensions;
  std::vector<int64_t> lhs_contracting_dimensions;
  std::vector<int64_t> rhs_contracting_dimensions;

  bool operator==(const DotDimensionNumbers&) const = default;
};

// The roles of the dimensions of a convolution's input (lhs), kernel (rhs)
// and output, as XLA's dim_labels "b01f_01io->b01f" spell them: b/f are batch
// and feature, i/o the kernel's input and output feature, digits the spatial
// dimensions in order.
struct ConvolutionDimensionNumbers {
  int64_t input_batch_dimension = 0;
  int64_t input_feature_dimension = 0;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0;
  int64_t kernel_output_feature_dimension = 0;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0;
  int64_t output_feature_dimension = 0;
  std::vector<int64_t> output_spatial_dimensions;

  bool operator==(const ConvolutionDimensionNumbers&) const = default;
};

// "b01f_01io->b01f".
std::string ConvolutionDimensionNumbersToString(
    const ConvolutionDimensionNumbers& numbers);

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;

  bool operator==(const GatherDimensionNumbers&) const = default;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;

  bool operator==(const ScatterDimensionNumbers&) const = default;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_DIMENSION_NUMBERS_H_
