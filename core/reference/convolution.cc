#include "core/reference/convolution.h"

#include <string>
#include <vector>

#include "core/reference/accumulation.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

// Sizes and strides of a convolution, resolved once from the dimension
// numbers.
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
};

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
    if (g.kernel_spatial.back() != instruction.window().dimensions[i].size) {
      return InvalidArgument(
          "the window size does not match the kernel's "
          "spatial dimension " +
          std::to_string(i));
    }
  }
  return g;
}

// For one output spatial position, the (lhs spatial offset, rhs spatial
// offset) pairs of kernel taps that land on input elements (not on padding
// or lhs-dilation holes).
void CollectTaps(const ConvolutionGeometry& g, const Window& window,
                 const std::vector<int64_t>& output_position,
                 std::vector<std::pair<int64_t, int64_t>>* taps) {
  taps->clear();
  const std::size_t spatial = g.kernel_spatial.size();
  if (ElementCountOf(g.kernel_spatial) == 0) return;
  std::vector<int64_t> tap(spatial, 0);
  do {
    int64_t lhs_offset = 0, rhs_offset = 0;
    bool inside = true;
    for (std::size_t d = 0; d < spatial && inside; ++d) {
      const WindowDimension& w = window.dimensions[d];
      const int64_t dilated = output_position[d] * w.stride - w.padding_low +
                              tap[d] * w.window_dilation;
      const int64_t source = dilated / w.base_dilation;
      inside = dilated >= 0 && dilated % w.base_dilation == 0 &&
               source < g.input_spatial[d];
      const int64_t kernel_index =
          w.window_reversal ? g.kernel_spatial[d] - 1 - tap[d] : tap[d];
      lhs_offset += source * g.lhs_spatial_strides[d];
      rhs_offset += kernel_index * g.rhs_spatial_strides[d];
    }
    if (inside) taps->emplace_back(lhs_offset, rhs_offset);
  } while (NextIndex(g.kernel_spatial, tap));
}

template <typename D>
Status Convolve(const ConvolutionGeometry& g, const Window& window,
                const Literal& lhs, const Literal& rhs, Literal* result) {
  std::vector<D> l, r;
  PHAL_RETURN_IF_ERROR(LoadInto(lhs, &l));
  PHAL_RETURN_IF_ERROR(LoadInto(rhs, &r));
  std::vector<D> out(static_cast<std::size_t>(result->ElementCount()), D{});
  const int64_t features_per_group = g.output_features / g.feature_groups;
  const int64_t features_per_batch_group = g.output_features / g.batch_groups;
  std::vector<std::pair<int64_t, int64_t>> taps;
  std::vector<int64_t> position(g.output_spatial.size(), 0);
  if (ElementCountOf(g.output_spatial) == 0) return StoreFrom(out, result);
  do {
    CollectTaps(g, window, position, &taps);
    int64_t out_spatial = 0;
    for (std::size_t d = 0; d < position.size(); ++d) {
      out_spatial += position[d] * g.out_spatial_strides[d];
    }
    for (int64_t b = 0; b < g.output_batch; ++b) {
      for (int64_t o = 0; o < g.output_features; ++o) {
        const int64_t first_input_feature =
            (o / features_per_group) * g.kernel_input_features;
        const int64_t input_batch =
            (o / features_per_batch_group) * g.output_batch + b;
        const int64_t lhs_base = input_batch * g.lhs_batch_stride +
                                 first_input_feature * g.lhs_feature_stride;
        const int64_t rhs_base = o * g.rhs_output_stride;
        D sum{};
        for (const auto& [lhs_tap, rhs_tap] : taps) {
          for (int64_t c = 0; c < g.kernel_input_features; ++c) {
            sum =
                MultiplyAdd(sum,
                            l[static_cast<std::size_t>(
                                lhs_base + lhs_tap + c * g.lhs_feature_stride)],
                            r[static_cast<std::size_t>(
                                rhs_base + rhs_tap + c * g.rhs_input_stride)]);
          }
        }
        out[static_cast<std::size_t>(out_spatial + b * g.out_batch_stride +
                                     o * g.out_feature_stride)] = sum;
      }
    }
  } while (NextIndex(g.output_spatial, position));
  return StoreFrom(out, result);
}

}  // namespace

StatusOr<Literal> EvaluateConvolution(const HloInstruction& instruction,
                                      const Literal& lhs, const Literal& rhs) {
  PHAL_ASSIGN_OR_RETURN(ConvolutionGeometry geometry,
                        ResolveGeometry(instruction, lhs, rhs));
  Literal result(instruction.shape());
  PHAL_RETURN_IF_ERROR(
      DispatchAccumulationDomain(result.element_type(), [&](auto domain) {
        return Convolve<decltype(domain)>(geometry, instruction.window(), lhs,
                                          rhs, &result);
      }));
  return result;
}

}  // namespace phal::reference
