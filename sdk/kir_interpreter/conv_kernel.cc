// CONV: StableHLO convolution (dimension numbers, strides, padding,
// dilations, reversal, feature and batch groups), then the epilogue over the
// output shape. Each output element sums its taps in the reference's order:
// kernel spatial positions in row-major order, input features innermost.
#include <algorithm>
#include <cstring>
#include <utility>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/accumulation.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

// Sizes and strides of a convolution, resolved once from the dimension
// numbers.
struct Geometry {
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

class ConvKernel final : public CompiledKernel {
 public:
  ConvKernel(const phal_kernel_desc_t& kernel, Geometry geometry,
             CompiledBody epilogue)
      : kernel_(kernel),
        conv_(*kernel.u.conv),
        geometry_(std::move(geometry)),
        epilogue_(std::move(epilogue)) {
    inputs_ = epilogue_.read_buffers();
    inputs_.push_back(conv_.input);
    inputs_.push_back(conv_.kernel);
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const std::span<const int64_t> dims =
        BufferDims(kernel_.buffers[conv_.output]);
    const int64_t points = ElementCount(dims);
    if (points == 0) return OkStatus();
    const auto acc_size =
        static_cast<int64_t>(ElementTypeByteSize(conv_.accumulation_type));
    std::vector<uint8_t> sums(static_cast<std::size_t>(points * acc_size));
    DispatchElementType(conv_.accumulation_type, [&](auto acc) {
      Convolve<decltype(acc)>(buffers, points, sums.data());
      return 0;
    });
    OutputTargets targets(kernel_, buffers, {&conv_.output, 1}, inputs_);
    const int64_t batch = std::min(points, kMaxBatch);
    BodyFrame frame(epilogue_, batch);
    std::vector<int64_t> index_storage(dims.size() *
                                       static_cast<std::size_t>(batch));
    std::vector<int64_t*> indices;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      indices.push_back(index_storage.data() + d * batch);
    }
    const std::vector<const int64_t*> index_views(indices.begin(),
                                                  indices.end());
    const auto out_size =
        static_cast<int64_t>(ElementTypeByteSize(epilogue_.result_type(0)));
    for (int64_t start = 0; start < points; start += batch) {
      const int64_t count = std::min(batch, points - start);
      FillRowMajorIndices(dims, start, count, indices);
      const uint8_t* sum[] = {sums.data() + start * acc_size};
      PHAL_RETURN_IF_ERROR(frame.Evaluate(buffers, count, index_views, sum));
      std::memcpy(targets[conv_.output] + start * out_size, frame.result(0),
                  static_cast<std::size_t>(count * out_size));
    }
    targets.Commit();
    return OkStatus();
  }

 private:
  // For one output spatial position, the (lhs spatial offset, rhs spatial
  // offset) pairs of kernel taps that land on input elements (not on
  // padding or lhs-dilation holes).
  void CollectTaps(const std::vector<int64_t>& output_position,
                   std::vector<std::pair<int64_t, int64_t>>& taps) const {
    const Geometry& g = geometry_;
    taps.clear();
    const std::size_t spatial = g.kernel_spatial.size();
    if (ElementCount(g.kernel_spatial) == 0) return;
    std::vector<int64_t> tap(spatial, 0);
    do {
      int64_t lhs_offset = 0, rhs_offset = 0;
      bool inside = true;
      for (std::size_t d = 0; d < spatial && inside; ++d) {
        const int64_t dilated = output_position[d] * conv_.window_strides[d] -
                                conv_.padding[2 * d] +
                                tap[d] * conv_.rhs_dilation[d];
        const int64_t base_dilation = conv_.lhs_dilation[d];
        const int64_t source = dilated / base_dilation;
        inside = dilated >= 0 && dilated % base_dilation == 0 &&
                 source < g.input_spatial[d];
        const int64_t kernel_index = conv_.window_reversal[d] != 0
                                         ? g.kernel_spatial[d] - 1 - tap[d]
                                         : tap[d];
        lhs_offset += source * g.lhs_spatial_strides[d];
        rhs_offset += kernel_index * g.rhs_spatial_strides[d];
      }
      if (inside) taps.emplace_back(lhs_offset, rhs_offset);
    } while (NextIndex(g.kernel_spatial, tap));
  }

  template <typename Acc>
  void Convolve(std::span<uint8_t* const> buffers, int64_t points,
                uint8_t* out) const {
    using D = Domain<Acc>;
    const Geometry& g = geometry_;
    auto load = [&](uint32_t buffer) {
      const phal_kir_buffer_t& b = kernel_.buffers[buffer];
      std::vector<D> values(
          static_cast<std::size_t>(ElementCount(BufferDims(b))));
      LoadIntoDomain<Acc>(
          b.element_type, buffers[buffer], static_cast<int64_t>(values.size()),
          [](int64_t i) { return i; }, values.data());
      return values;
    };
    const std::vector<D> l = load(conv_.input);
    const std::vector<D> r = load(conv_.kernel);
    std::vector<D> sums(static_cast<std::size_t>(points), D{});
    const int64_t features_per_group = g.output_features / g.feature_groups;
    const int64_t features_per_batch_group = g.output_features / g.batch_groups;
    std::vector<std::pair<int64_t, int64_t>> taps;
    std::vector<int64_t> position(g.output_spatial.size(), 0);
    if (ElementCount(g.output_spatial) > 0) {
      do {
        CollectTaps(position, taps);
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
                sum = MultiplyAdd(
                    sum,
                    l[static_cast<std::size_t>(lhs_base + lhs_tap +
                                               c * g.lhs_feature_stride)],
                    r[static_cast<std::size_t>(rhs_base + rhs_tap +
                                               c * g.rhs_input_stride)]);
              }
            }
            sums[static_cast<std::size_t>(out_spatial + b * g.out_batch_stride +
                                          o * g.out_feature_stride)] = sum;
          }
        }
      } while (NextIndex(g.output_spatial, position));
    }
    auto* stored = reinterpret_cast<typename Acc::Storage*>(out);
    for (std::size_t i = 0; i < sums.size(); ++i) {
      stored[i] = FromDomain<Acc>(sums[i]);
    }
  }

  const phal_kernel_desc_t& kernel_;
  const phal_kir_conv_t& conv_;
  Geometry geometry_;
  CompiledBody epilogue_;
  std::vector<uint32_t> inputs_;
};

// The three dimension-number sets, each a permutation of its array's
// dimensions.
Status CheckConvDimensionNumbers(const phal_kernel_desc_t& kernel,
                                 const phal_kir_conv_t& conv) {
  const std::size_t n = conv.spatial_count;
  auto check = [&](uint32_t buffer, int64_t first, int64_t second,
                   const int64_t* spatial, const char* role) -> Status {
    const int64_t rank = kernel.buffers[buffer].rank;
    if (rank != static_cast<int64_t>(n) + 2) {
      return KernelError(kernel, std::string("conv ") + role + " buf" +
                                     std::to_string(buffer) + " has rank " +
                                     std::to_string(rank) + ", not " +
                                     std::to_string(n + 2) +
                                     " (spatial_count + 2)");
    }
    std::vector<int64_t> all = {first, second};
    all.insert(all.end(), spatial, spatial + n);
    return CheckDimensionNumbers(
        kernel, all, rank, true,
        std::string("conv ") + role + " dimension numbers");
  };
  PHAL_RETURN_IF_ERROR(check(conv.input, conv.input_batch_dimension,
                             conv.input_feature_dimension,
                             conv.input_spatial_dimensions, "input"));
  PHAL_RETURN_IF_ERROR(check(conv.kernel, conv.kernel_input_feature_dimension,
                             conv.kernel_output_feature_dimension,
                             conv.kernel_spatial_dimensions, "kernel"));
  return check(conv.output, conv.output_batch_dimension,
               conv.output_feature_dimension, conv.output_spatial_dimensions,
               "output");
}

// Window attributes the tap arithmetic divides by or multiplies with.
Status CheckWindow(const phal_kernel_desc_t& kernel,
                   const phal_kir_conv_t& conv, const Geometry& g) {
  // Keeps position * stride - padding + tap * dilation far inside int64_t.
  constexpr int64_t kLimit = int64_t{1} << 30;
  for (std::size_t d = 0; d < conv.spatial_count; ++d) {
    const std::string where = " of spatial dimension " + std::to_string(d);
    if (conv.window_strides[d] < 1 || conv.lhs_dilation[d] < 1 ||
        conv.rhs_dilation[d] < 1) {
      return KernelError(kernel, "conv stride, lhs_dilation and rhs_dilation" +
                                     where + " must be at least 1");
    }
    if (conv.window_strides[d] > kLimit || conv.lhs_dilation[d] > kLimit ||
        conv.rhs_dilation[d] > kLimit || conv.padding[2 * d] > kLimit ||
        conv.padding[2 * d] < -kLimit || g.output_spatial[d] > kLimit ||
        g.kernel_spatial[d] > kLimit) {
      return KernelError(kernel,
                         "conv window" + where + " is too large to index");
    }
    if (conv.window_reversal[d] > 1) {
      return KernelError(
          kernel, "conv window_reversal" + where + " is neither 0 nor 1");
    }
  }
  return OkStatus();
}

StatusOr<Geometry> ResolveGeometry(const phal_kernel_desc_t& kernel,
                                   const phal_kir_conv_t& conv) {
  const phal_kir_buffer_t& lhs = kernel.buffers[conv.input];
  const phal_kir_buffer_t& rhs = kernel.buffers[conv.kernel];
  const phal_kir_buffer_t& out = kernel.buffers[conv.output];
  const std::vector<int64_t> lhs_strides = RowMajorStrides(BufferDims(lhs));
  const std::vector<int64_t> rhs_strides = RowMajorStrides(BufferDims(rhs));
  const std::vector<int64_t> out_strides = RowMajorStrides(BufferDims(out));
  Geometry g;
  g.batch = lhs.dims[conv.input_batch_dimension];
  g.input_features = lhs.dims[conv.input_feature_dimension];
  g.kernel_input_features = rhs.dims[conv.kernel_input_feature_dimension];
  g.output_features = rhs.dims[conv.kernel_output_feature_dimension];
  g.output_batch = out.dims[conv.output_batch_dimension];
  g.feature_groups = conv.feature_group_count;
  g.batch_groups = conv.batch_group_count;
  if (g.feature_groups < 1 || g.batch_groups < 1 ||
      g.input_features !=
          static_cast<__int128>(g.kernel_input_features) * g.feature_groups ||
      g.output_features % g.feature_groups != 0 ||
      g.output_features % g.batch_groups != 0 ||
      g.batch % g.batch_groups != 0 ||
      g.output_batch != g.batch / g.batch_groups ||
      out.dims[conv.output_feature_dimension] != g.output_features) {
    return KernelError(
        kernel,
        "conv feature_group_count " + std::to_string(conv.feature_group_count) +
            " and batch_group_count " + std::to_string(conv.batch_group_count) +
            " do not divide the features and batch of input " +
            DimsText(BufferDims(lhs)) + " and kernel " +
            DimsText(BufferDims(rhs)) + " into output " +
            DimsText(BufferDims(out)));
  }
  g.lhs_batch_stride = lhs_strides[conv.input_batch_dimension];
  g.lhs_feature_stride = lhs_strides[conv.input_feature_dimension];
  g.rhs_input_stride = rhs_strides[conv.kernel_input_feature_dimension];
  g.rhs_output_stride = rhs_strides[conv.kernel_output_feature_dimension];
  g.out_batch_stride = out_strides[conv.output_batch_dimension];
  g.out_feature_stride = out_strides[conv.output_feature_dimension];
  for (std::size_t i = 0; i < conv.spatial_count; ++i) {
    g.input_spatial.push_back(lhs.dims[conv.input_spatial_dimensions[i]]);
    g.kernel_spatial.push_back(rhs.dims[conv.kernel_spatial_dimensions[i]]);
    g.output_spatial.push_back(out.dims[conv.output_spatial_dimensions[i]]);
    g.lhs_spatial_strides.push_back(
        lhs_strides[conv.input_spatial_dimensions[i]]);
    g.rhs_spatial_strides.push_back(
        rhs_strides[conv.kernel_spatial_dimensions[i]]);
    g.out_spatial_strides.push_back(
        out_strides[conv.output_spatial_dimensions[i]]);
  }
  PHAL_RETURN_IF_ERROR(CheckWindow(kernel, conv, g));
  return g;
}

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileConvKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_conv_t& conv = *kernel.u.conv;
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, conv.input, "conv input"));
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, conv.kernel, "conv kernel"));
  PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, conv.output, "conv output"));
  PHAL_RETURN_IF_ERROR(CheckElementType(kernel, conv.accumulation_type,
                                        "conv accumulation type"));
  PHAL_RETURN_IF_ERROR(CheckConvDimensionNumbers(kernel, conv));
  PHAL_ASSIGN_OR_RETURN(Geometry geometry, ResolveGeometry(kernel, conv));
  const phal_kir_buffer_t& output = kernel.buffers[conv.output];
  BodySignature signature{"epilogue", output.rank, {conv.accumulation_type}, 1};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody epilogue,
      CompiledBody::Compile(kernel, conv.epilogue, signature));
  PHAL_RETURN_IF_ERROR(epilogue.CheckResultType(
      0, output.element_type, "conv output buf" + std::to_string(conv.output)));
  return std::unique_ptr<CompiledKernel>(
      new ConvKernel(kernel, std::move(geometry), std::move(epilogue)));
}

}  // namespace phal::kir_interpreter
