// CONV: StableHLO convolution (dimension numbers, strides, padding,
// dilations, reversal, feature and batch groups), then the epilogue over the
// output shape. Each output element sums its taps in the reference's order:
// kernel spatial positions in row-major order, input features innermost.
#include <utility>
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/element_semantics/convolution.h"
#include "sdk/kir_interpreter/accumulation.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

using element_semantics::ConvolutionGeometry;

class ConvKernel final : public CompiledKernel {
 public:
  ConvKernel(const phal_kernel_desc_t& kernel, ConvolutionGeometry geometry,
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
    return AccumulateThenRunEpilogue(
        kernel_, buffers, epilogue_, dims, conv_.accumulation_type,
        conv_.output, inputs_, [&](auto acc, uint8_t* sums) {
          Convolve<decltype(acc)>(buffers, ElementCount(dims), sums);
        });
  }

 private:
  template <typename Acc>
  void Convolve(std::span<uint8_t* const> buffers, int64_t points,
                uint8_t* out) const {
    using D = Domain<Acc>;
    auto load = [&](uint32_t buffer) {
      const phal_kir_buffer_t& b = kernel_.buffers[buffer];
      std::vector<D> values(
          static_cast<std::size_t>(ElementCount(BufferDims(b))));
      LoadIntoDomain<Acc>(
          b.element_type, buffers[buffer], static_cast<int64_t>(values.size()),
          [](int64_t i) { return i; }, values.data());
      return values;
    };
    StoreFromDomain<Acc>(
        element_semantics::Convolve<D>(geometry_, load(conv_.input),
                                       load(conv_.kernel), points),
        out);
  }

  const phal_kernel_desc_t& kernel_;
  const phal_kir_conv_t& conv_;
  ConvolutionGeometry geometry_;
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
                   const phal_kir_conv_t& conv, const ConvolutionGeometry& g) {
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

StatusOr<ConvolutionGeometry> ResolveGeometry(const phal_kernel_desc_t& kernel,
                                              const phal_kir_conv_t& conv) {
  const phal_kir_buffer_t& lhs = kernel.buffers[conv.input];
  const phal_kir_buffer_t& rhs = kernel.buffers[conv.kernel];
  const phal_kir_buffer_t& out = kernel.buffers[conv.output];
  const std::vector<int64_t> lhs_strides = RowMajorStrides(BufferDims(lhs));
  const std::vector<int64_t> rhs_strides = RowMajorStrides(BufferDims(rhs));
  const std::vector<int64_t> out_strides = RowMajorStrides(BufferDims(out));
  ConvolutionGeometry g;
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
    g.window.push_back({.stride = conv.window_strides[i],
                        .padding_low = conv.padding[2 * i],
                        .base_dilation = conv.lhs_dilation[i],
                        .window_dilation = conv.rhs_dilation[i],
                        .reversal = conv.window_reversal[i] != 0});
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
  PHAL_ASSIGN_OR_RETURN(ConvolutionGeometry geometry,
                        ResolveGeometry(kernel, conv));
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
