#include "core/hlo/dimension_numbers.h"

namespace phal {
namespace {

// Labels of an operand of rank 2 + spatial.size(): `first` at dimension
// `first_dimension`, `second` at `second_dimension`, the spatial index at
// each spatial dimension. Dimensions out of range are left as '?'.
std::string Labels(char first, int64_t first_dimension, char second,
                   int64_t second_dimension,
                   const std::vector<int64_t>& spatial) {
  const int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  std::string labels(static_cast<std::size_t>(rank), '?');
  auto place = [&](int64_t dimension, char label) {
    if (dimension >= 0 && dimension < rank) {
      labels[static_cast<std::size_t>(dimension)] = label;
    }
  };
  place(first_dimension, first);
  place(second_dimension, second);
  for (std::size_t i = 0; i < spatial.size(); ++i) {
    place(spatial[i], static_cast<char>('0' + i));
  }
  return labels;
}

}  // namespace

std::string ConvolutionDimensionNumbersToString(
    const ConvolutionDimensionNumbers& numbers) {
  return Labels('b', numbers.input_batch_dimension, 'f',
                numbers.input_feature_dimension,
                numbers.input_spatial_dimensions) +
         "_" +
         Labels('i', numbers.kernel_input_feature_dimension, 'o',
                numbers.kernel_output_feature_dimension,
                numbers.kernel_spatial_dimensions) +
         "->" +
         Labels('b', numbers.output_batch_dimension, 'f',
                numbers.output_feature_dimension,
                numbers.output_spatial_dimensions);
}

}  // namespace phal
