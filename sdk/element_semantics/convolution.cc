#include "sdk/element_semantics/convolution.h"

#include <utility>

#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/row_major.h"

namespace phal::element_semantics {
namespace {

// For one output spatial position, the (lhs spatial offset, rhs spatial
// offset) pairs of kernel taps that land on input elements (not on padding
// or lhs-dilation holes).
void CollectTaps(const ConvolutionGeometry& g,
                 const std::vector<int64_t>& output_position,
                 std::vector<std::pair<int64_t, int64_t>>& taps) {
  taps.clear();
  const std::size_t spatial = g.kernel_spatial.size();
  if (ElementCount(g.kernel_spatial) == 0) return;
  std::vector<int64_t> tap(spatial, 0);
  do {
    int64_t lhs_offset = 0, rhs_offset = 0;
    bool inside = true;
    for (std::size_t d = 0; d < spatial && inside; ++d) {
      const ConvolutionWindow& w = g.window[d];
      const int64_t dilated = output_position[d] * w.stride - w.padding_low +
                              tap[d] * w.window_dilation;
      const int64_t source = dilated / w.base_dilation;
      inside = dilated >= 0 && dilated % w.base_dilation == 0 &&
               source < g.input_spatial[d];
      const int64_t kernel_index =
          w.reversal ? g.kernel_spatial[d] - 1 - tap[d] : tap[d];
      lhs_offset += source * g.lhs_spatial_strides[d];
      rhs_offset += kernel_index * g.rhs_spatial_strides[d];
    }
    if (inside) taps.emplace_back(lhs_offset, rhs_offset);
  } while (NextIndex(g.kernel_spatial, tap));
}

}  // namespace

template <typename D>
std::vector<D> Convolve(const ConvolutionGeometry& g, std::span<const D> l,
                        std::span<const D> r, int64_t output_count) {
  std::vector<D> out(static_cast<std::size_t>(output_count), D{});
  if (ElementCount(g.output_spatial) == 0) return out;
  const int64_t features_per_group = g.output_features / g.feature_groups;
  const int64_t features_per_batch_group = g.output_features / g.batch_groups;
  std::vector<std::pair<int64_t, int64_t>> taps;
  std::vector<int64_t> position(g.output_spatial.size(), 0);
  do {
    CollectTaps(g, position, taps);
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
  return out;
}

template std::vector<double> Convolve(const ConvolutionGeometry&,
                                      std::span<const double>,
                                      std::span<const double>, int64_t);
template std::vector<float> Convolve(const ConvolutionGeometry&,
                                     std::span<const float>,
                                     std::span<const float>, int64_t);
template std::vector<std::complex<float>> Convolve(
    const ConvolutionGeometry&, std::span<const std::complex<float>>,
    std::span<const std::complex<float>>, int64_t);
template std::vector<Complex> Convolve(const ConvolutionGeometry&,
                                       std::span<const Complex>,
                                       std::span<const Complex>, int64_t);
template std::vector<uint64_t> Convolve(const ConvolutionGeometry&,
                                        std::span<const uint64_t>,
                                        std::span<const uint64_t>, int64_t);
template std::vector<PredDomain> Convolve(const ConvolutionGeometry&,
                                          std::span<const PredDomain>,
                                          std::span<const PredDomain>, int64_t);

}  // namespace phal::element_semantics
