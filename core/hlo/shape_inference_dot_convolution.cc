// Shape inference of windows, dot and convolution.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

namespace {

// The dimensions of one convolution operand: the two named ones and the
// spatial ones, which together must be each dimension exactly once.
Status ExpectConvolutionDims(int64_t first, int64_t second,
                             const std::vector<int64_t>& spatial, int64_t rank,
                             const std::string& what) {
  std::vector<int64_t> all = {first, second};
  all.insert(all.end(), spatial.begin(), spatial.end());
  if (static_cast<int64_t>(all.size()) != rank) {
    return Fail(what + " has rank " + std::to_string(rank) +
                " but dim_labels "
                "name " +
                std::to_string(all.size()) + " dimensions");
  }
  return ExpectDimensionList(all, rank, what + " dimension labels");
}

}  // namespace

}  // namespace shape_inference_internal

using shape_inference_internal::AddOverflows;
using shape_inference_internal::Contains;
using shape_inference_internal::ExpectArray;
using shape_inference_internal::ExpectConvolutionDims;
using shape_inference_internal::ExpectDimensionList;
using shape_inference_internal::ExpectDisjoint;
using shape_inference_internal::Fail;
using shape_inference_internal::MultiplyOverflows;

StatusOr<std::vector<int64_t>> InferWindowOutputDimensions(
    const std::vector<int64_t>& base, const Window& window) {
  if (window.dimensions.size() != base.size()) {
    return Fail("window has " + std::to_string(window.dimensions.size()) +
                " dimensions, the operand " + std::to_string(base.size()));
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < base.size(); ++i) {
    const WindowDimension& w = window.dimensions[i];
    if (w.size < 1 || w.stride < 1 || w.base_dilation < 1 ||
        w.window_dilation < 1) {
      return Fail("window dimension " + std::to_string(i) +
                  " needs size, stride and dilations of at least 1");
    }
    int64_t dilated_base = 0;
    int64_t padded = 0;
    int64_t dilated_window = 0;
    if ((base[i] != 0 &&
         MultiplyOverflows(base[i] - 1, w.base_dilation, &dilated_base)) ||
        AddOverflows(dilated_base, base[i] != 0 ? 1 : 0, &dilated_base) ||
        AddOverflows(dilated_base, w.padding_low, &padded) ||
        AddOverflows(padded, w.padding_high, &padded) ||
        MultiplyOverflows(w.size - 1, w.window_dilation, &dilated_window) ||
        AddOverflows(dilated_window, 1, &dilated_window)) {
      return Fail("window dimension " + std::to_string(i) +
                  " overflows the size range");
    }
    if (padded < 0) {
      return Fail("window padding of dimension " + std::to_string(i) +
                  " leaves a negative size");
    }
    dims.push_back(
        padded < dilated_window ? 0 : (padded - dilated_window) / w.stride + 1);
  }
  return dims;
}

StatusOr<Shape> InferDotShape(const Shape& lhs, const Shape& rhs,
                              const DotDimensionNumbers& numbers,
                              ElementType result_type) {
  PHAL_RETURN_IF_ERROR(ExpectArray(lhs, "the left operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(rhs, "the right operand"));
  const auto& lhs_batch = numbers.lhs_batch_dimensions;
  const auto& rhs_batch = numbers.rhs_batch_dimensions;
  const auto& lhs_contracting = numbers.lhs_contracting_dimensions;
  const auto& rhs_contracting = numbers.rhs_contracting_dimensions;
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(lhs_batch, lhs.rank(), "lhs_batch_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(rhs_batch, rhs.rank(), "rhs_batch_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(lhs_contracting, lhs.rank(), "lhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(rhs_contracting, rhs.rank(), "rhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(lhs_batch, "lhs_batch_dims",
                                      lhs_contracting, "lhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(rhs_batch, "rhs_batch_dims",
                                      rhs_contracting, "rhs_contracting_dims"));
  if (lhs_batch.size() != rhs_batch.size() ||
      lhs_contracting.size() != rhs_contracting.size()) {
    return Fail(
        "lhs and rhs must have as many batch and as many contracting "
        "dimensions");
  }
  for (std::size_t i = 0; i < lhs_batch.size(); ++i) {
    if (lhs.dim(lhs_batch[i]) != rhs.dim(rhs_batch[i])) {
      return Fail("batch dimension sizes differ: " + lhs.ToString() + " and " +
                  rhs.ToString());
    }
  }
  for (std::size_t i = 0; i < lhs_contracting.size(); ++i) {
    if (lhs.dim(lhs_contracting[i]) != rhs.dim(rhs_contracting[i])) {
      return Fail("contracting dimension sizes differ: " + lhs.ToString() +
                  " and " + rhs.ToString());
    }
  }
  std::vector<int64_t> dims;
  for (int64_t d : lhs_batch) dims.push_back(lhs.dim(d));
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (!Contains(lhs_batch, d) && !Contains(lhs_contracting, d)) {
      dims.push_back(lhs.dim(d));
    }
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (!Contains(rhs_batch, d) && !Contains(rhs_contracting, d)) {
      dims.push_back(rhs.dim(d));
    }
  }
  return Shape(result_type, std::move(dims));
}

StatusOr<Shape> InferConvolutionShape(
    const Shape& input, const Shape& kernel, const Window& window,
    const ConvolutionDimensionNumbers& numbers, int64_t feature_group_count,
    int64_t batch_group_count, ElementType result_type) {
  PHAL_RETURN_IF_ERROR(ExpectArray(input, "the input"));
  PHAL_RETURN_IF_ERROR(ExpectArray(kernel, "the kernel"));
  const auto spatial_count = numbers.input_spatial_dimensions.size();
  if (kernel.rank() != input.rank() ||
      numbers.kernel_spatial_dimensions.size() != spatial_count ||
      numbers.output_spatial_dimensions.size() != spatial_count) {
    return Fail("the input " + input.ToString() + ", the kernel " +
                kernel.ToString() +
                " and dim_labels must have the same number of spatial "
                "dimensions");
  }
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.input_batch_dimension, numbers.input_feature_dimension,
      numbers.input_spatial_dimensions, input.rank(), "the input"));
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.kernel_input_feature_dimension,
      numbers.kernel_output_feature_dimension,
      numbers.kernel_spatial_dimensions, kernel.rank(), "the kernel"));
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.output_batch_dimension, numbers.output_feature_dimension,
      numbers.output_spatial_dimensions, input.rank(), "the output"));
  if (feature_group_count < 1 || batch_group_count < 1) {
    return Fail("feature_group_count and batch_group_count must be positive");
  }
  const int64_t batch = input.dim(numbers.input_batch_dimension);
  const int64_t input_features = input.dim(numbers.input_feature_dimension);
  const int64_t kernel_input_features =
      kernel.dim(numbers.kernel_input_feature_dimension);
  const int64_t output_features =
      kernel.dim(numbers.kernel_output_feature_dimension);
  if (input_features != kernel_input_features * feature_group_count) {
    return Fail("input feature size " + std::to_string(input_features) +
                " must be the kernel's input feature size " +
                std::to_string(kernel_input_features) +
                " times feature_group_count " +
                std::to_string(feature_group_count));
  }
  if (output_features % feature_group_count != 0 ||
      output_features % batch_group_count != 0) {
    return Fail("kernel output feature size " +
                std::to_string(output_features) +
                " must be divisible by feature_group_count and "
                "batch_group_count");
  }
  if (batch % batch_group_count != 0) {
    return Fail("batch size " + std::to_string(batch) +
                " must be divisible by batch_group_count " +
                std::to_string(batch_group_count));
  }
  if (window.dimensions.size() != spatial_count) {
    return Fail("window has " + std::to_string(window.dimensions.size()) +
                " dimensions, the convolution " +
                std::to_string(spatial_count) + " spatial dimensions");
  }
  std::vector<int64_t> input_spatial;
  for (std::size_t i = 0; i < spatial_count; ++i) {
    const int64_t kernel_size =
        kernel.dim(numbers.kernel_spatial_dimensions[i]);
    if (window.dimensions[i].size != kernel_size) {
      return Fail("window size " + std::to_string(window.dimensions[i].size) +
                  " of spatial dimension " + std::to_string(i) +
                  " differs from the kernel's " + std::to_string(kernel_size));
    }
    input_spatial.push_back(input.dim(numbers.input_spatial_dimensions[i]));
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> output_spatial,
                        InferWindowOutputDimensions(input_spatial, window));
  std::vector<int64_t> dims(static_cast<std::size_t>(input.rank()));
  dims[static_cast<std::size_t>(numbers.output_batch_dimension)] =
      batch / batch_group_count;
  dims[static_cast<std::size_t>(numbers.output_feature_dimension)] =
      output_features;
  for (std::size_t i = 0; i < spatial_count; ++i) {
    dims[static_cast<std::size_t>(numbers.output_spatial_dimensions[i])] =
        output_spatial[i];
  }
  return Shape(result_type, std::move(dims));
}

}  // namespace phal
