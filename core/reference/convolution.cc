#include "core/reference/convolution.h"

#include <string>
#include <vector>

#include "core/reference/accumulation.h"
#include "core/reference/strided_copy.h"
#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/convolution.h"

namespace phal::reference {
namespace {

using element_semantics::ConvolutionGeometry;

StatusOr<ConvolutionGeometry> ResolveGeometry(const HloInstruction& instruction,
                                              const Literal& lhs,
                                              const Literal& rhs) {
  const ConvolutionDimensionNumbers& numbers =
      instruction.convolution_dimension_numbers();
  const Shape& out = instruction.shape();
  const std::size_t spatial = numbers.input_spatial_dimensions.size();
  if (numbers.kernel_spatial_dimensions.size() != spatial ||
      numbers.output_spatial_dimensions.size() != spatial ||
      instruction.window().dimensions.size() != spatial ||
      lhs.shape().rank() != static_cast<int64_t>(spatial) + 2 ||
      rhs.shape().rank() != static_cast<int64_t>(spatial) + 2 ||
      out.rank() != static_cast<int64_t>(spatial) + 2) {
    return InvalidArgument(
        "convolution operands, result, dim_labels and "
        "window disagree on the number of spatial "
        "dimensions");
  }
  const StridedView lhs_view = RowMajorView(lhs.shape().dims());
  const StridedView rhs_view = RowMajorView(rhs.shape().dims());
  const StridedView out_view = RowMajorView(out.dims());
  auto stride = [](const StridedView& view, int64_t d) {
    return view.strides[static_cast<std::size_t>(d)];
  };
  ConvolutionGeometry g;
  g.batch = lhs.shape().dim(numbers.input_batch_dimension);
  g.input_features = lhs.shape().dim(numbers.input_feature_dimension);
  g.kernel_input_features =
      rhs.shape().dim(numbers.kernel_input_feature_dimension);
  g.output_features = rhs.shape().dim(numbers.kernel_output_feature_dimension);
  g.output_batch = out.dim(numbers.output_batch_dimension);
  g.feature_groups = instruction.feature_group_count();
  g.batch_groups = instruction.batch_group_count();
  if (g.feature_groups < 1 || g.batch_groups < 1 ||
      g.input_features != g.kernel_input_features * g.feature_groups ||
      g.output_features % g.feature_groups != 0 ||
      g.output_features % g.batch_groups != 0 ||
      g.batch % g.batch_groups != 0 ||
      g.output_batch != g.batch / g.batch_groups ||
      out.dim(numbers.output_feature_dimension) != g.output_features) {
    return InvalidArgument(
        "convolution feature or batch group counts do not divide the "
        "features and batch of " +
        lhs.shape().ToString() + " and " + rhs.shape().ToString() + " into " +
        out.ToString());
  }
  g.lhs_batch_stride = stride(lhs_view, numbers.input_batch_dimension);
  g.lhs_feature_stride = stride(lhs_view, numbers.input_feature_dimension);
  g.rhs_input_stride = stride(rhs_view, numbers.kernel_input_feature_dimension);
  g.rhs_output_stride =
      stride(rhs_view, numbers.kernel_output_feature_dimension);
  g.out_batch_stride = stride(out_view, numbers.output_batch_dimension);
  g.out_feature_stride = stride(out_view, numbers.output_feature_dimension);
  for (std::size_t i = 0; i < spatial; ++i) {
    g.input_spatial.push_back(
        lhs.shape().dim(numbers.input_spatial_dimensions[i]));
    g.kernel_spatial.push_back(
        rhs.shape().dim(numbers.kernel_spatial_dimensions[i]));
    g.output_spatial.push_back(out.dim(numbers.output_spatial_dimensions[i]));
    g.lhs_spatial_strides.push_back(
        stride(lhs_view, numbers.input_spatial_dimensions[i]));
    g.rhs_spatial_strides.push_back(
        stride(rhs_view, numbers.kernel_spatial_dimensions[i]));
    g.out_spatial_strides.push_back(
        stride(out_view, numbers.output_spatial_dimensions[i]));
    const WindowDimension& w = instruction.window().dimensions[i];
    g.window.push_back({.stride = w.stride,
                        .padding_low = w.padding_low,
                        .base_dilation = w.base_dilation,
                        .window_dilation = w.window_dilation,
                        .reversal = w.window_reversal});
    if (g.kernel_spatial.back() != w.size) {
      return InvalidArgument(
          "the window size does not match the kernel's "
          "spatial dimension " +
          std::to_string(i));
    }
  }
  return g;
}

template <typename D>
Status Convolve(const ConvolutionGeometry& geometry, const Literal& lhs,
                const Literal& rhs, Literal* result) {
  std::vector<D> l, r;
  PHAL_RETURN_IF_ERROR(LoadInto(lhs, &l));
  PHAL_RETURN_IF_ERROR(LoadInto(rhs, &r));
  return StoreFrom(
      element_semantics::Convolve<D>(geometry, l, r, result->ElementCount()),
      result);
}

}  // namespace

StatusOr<Literal> EvaluateConvolution(const HloInstruction& instruction,
                                      const Literal& lhs, const Literal& rhs) {
  PHAL_ASSIGN_OR_RETURN(ConvolutionGeometry geometry,
                        ResolveGeometry(instruction, lhs, rhs));
  Literal result(instruction.shape());
  PHAL_RETURN_IF_ERROR(
      DispatchSummationDomain(result.element_type(), [&](auto domain) {
        return Convolve<decltype(domain)>(geometry, lhs, rhs, &result);
      }));
  return result;
}

}  // namespace phal::reference
