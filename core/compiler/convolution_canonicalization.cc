#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// Channels-innermost dimension numbers for `spatial` spatial dimensions:
// input and output (batch, spatial..., feature), kernel (spatial...,
// input feature, output feature).
ConvolutionDimensionNumbers CanonicalNumbers(int64_t spatial) {
  ConvolutionDimensionNumbers numbers;
  numbers.input_batch_dimension = 0;
  numbers.input_feature_dimension = spatial + 1;
  numbers.kernel_input_feature_dimension = spatial;
  numbers.kernel_output_feature_dimension = spatial + 1;
  numbers.output_batch_dimension = 0;
  numbers.output_feature_dimension = spatial + 1;
  for (int64_t i = 0; i < spatial; ++i) {
    numbers.input_spatial_dimensions.push_back(i + 1);
    numbers.kernel_spatial_dimensions.push_back(i);
    numbers.output_spatial_dimensions.push_back(i + 1);
  }
  return numbers;
}

HloInstruction* Reshape(RewriteContext& context, HloInstruction* value,
                        std::vector<int64_t> dims) {
  return context.AddNew(HloOpcode::kReshape,
                        Shape(value->shape().element_type(), std::move(dims)),
                        {value});
}

HloInstruction* Zero(RewriteContext& context, ElementType type) {
  return context.AddNew(
      HloOpcode::kConstant, Shape(type, {}), {},
      [&](HloInstruction& c) { c.set_literal(Literal::Scalar(type, 0)); });
}

// A convolution like `source` (its attributes and result type) on
// `input` and `kernel` in the canonical layouts, with `window`, giving
// `dims`.
HloInstruction* CanonicalConvolution(RewriteContext& context,
                                     const HloInstruction& source,
                                     HloInstruction* input,
                                     HloInstruction* kernel, Window window,
                                     std::vector<int64_t> dims) {
  const auto spatial = static_cast<int64_t>(window.dimensions.size());
  HloInstruction* convolution = context.Add(source, {input, kernel});
  convolution->mutable_shape() =
      Shape(source.shape().element_type(), std::move(dims));
  convolution->set_window(std::move(window));
  convolution->set_convolution_dimension_numbers(CanonicalNumbers(spatial));
  return convolution;
}

// A 3-D convolution of canonical layouts (input [n, d, h, w, c], kernel
// [kd, kh, kw, c, f]) as the sum over kernel depths kd of 2-D convolutions
// of the input's depth slices kd * dilation + stride * z (z < out depth),
// the images of every batch and slice side by side: each a GEMM the
// runtime computes over patches. Depth padding pads the input first.
HloInstruction* SplitDepth(RewriteContext& context,
                           const HloInstruction& source, HloInstruction* input,
                           HloInstruction* kernel, const Window& window,
                           const std::vector<int64_t>& output_dims) {
  const WindowDimension& depth = window.dimensions[0];
  const std::vector<int64_t>& in = input->shape().dims();
  const std::vector<int64_t>& k = kernel->shape().dims();
  const ElementType input_type = input->shape().element_type();
  const ElementType result_type = source.shape().element_type();
  if (depth.padding_low != 0 || depth.padding_high != 0) {
    PaddingConfig padding;
    padding.dimensions.resize(5);
    padding.dimensions[1].low = depth.padding_low;
    padding.dimensions[1].high = depth.padding_high;
    std::vector<int64_t> padded = in;
    padded[1] += depth.padding_low + depth.padding_high;
    input = context.AddNew(
        HloOpcode::kPad, Shape(input_type, padded),
        {input, Zero(context, input_type)},
        [&](HloInstruction& pad) { pad.set_padding_config(padding); });
  }
  const int64_t n = in[0];
  const int64_t out_depth = output_dims[1];
  Window planar;
  planar.dimensions = {window.dimensions[1], window.dimensions[2]};
  HloInstruction* sum = nullptr;
  for (int64_t kd = 0; kd < k[0]; ++kd) {
    const int64_t start = kd * depth.window_dilation;
    std::vector<int64_t> starts = {0, start, 0, 0, 0};
    std::vector<int64_t> limits = input->shape().dims();
    limits[1] = start + depth.stride * (out_depth - 1) + 1;
    std::vector<int64_t> strides = {1, depth.stride, 1, 1, 1};
    HloInstruction* slice = context.AddNew(
        HloOpcode::kSlice,
        Shape(input_type, {n, out_depth, in[2], in[3], in[4]}), {input},
        [&](HloInstruction& s) { s.set_slice(starts, limits, strides); });
    HloInstruction* images =
        Reshape(context, slice, {n * out_depth, in[2], in[3], in[4]});
    HloInstruction* taps = context.AddNew(
        HloOpcode::kSlice,
        Shape(kernel->shape().element_type(), {1, k[1], k[2], k[3], k[4]}),
        {kernel}, [&](HloInstruction& s) {
          s.set_slice({kd, 0, 0, 0, 0}, {kd + 1, k[1], k[2], k[3], k[4]},
                      {1, 1, 1, 1, 1});
        });
    HloInstruction* planar_kernel =
        Reshape(context, taps, {k[1], k[2], k[3], k[4]});
    HloInstruction* part = CanonicalConvolution(
        context, source, images, planar_kernel, planar,
        {n * out_depth, output_dims[2], output_dims[3], output_dims[4]});
    sum = sum == nullptr
              ? part
              : context.AddNew(HloOpcode::kAdd,
                               Shape(result_type, part->shape().dims()),
                               {sum, part});
  }
  return Reshape(context, sum, output_dims);
}

// One output phase, along one spatial dimension, of a convolution whose
// input is dilated by `s` (window stride 1, no window dilation): the
// outputs y = s q + r read only the kernel taps k0, k0 + s, ... (those that
// land on input elements, not on the holes between them), and tap j of
// output q reads input element q + offset + j.
struct Phase {
  int64_t outputs = 0;  // how many y = s q + r there are
  int64_t first_tap = 0;
  int64_t taps = 0;
  int64_t offset = 0;
};

Phase PhaseOf(const WindowDimension& w, int64_t output_size, int64_t r) {
  const int64_t s = w.base_dilation;
  Phase phase;
  phase.outputs = r < output_size ? (output_size - r + s - 1) / s : 0;
  phase.first_tap = ((w.padding_low - r) % s + s) % s;
  phase.taps =
      phase.first_tap < w.size ? (w.size - phase.first_tap + s - 1) / s : 0;
  phase.offset = (r + phase.first_tap - w.padding_low) / s;
  return phase;
}

// True when every dilated spatial dimension of `window` has stride 1 and
// no window dilation: a transposed convolution, or the gradient of a
// strided convolution's input, which PhaseSplit computes without the
// zeros a dilated copy of the input would hold.
bool SplitsIntoPhases(const Window& window) {
  bool dilated = false;
  for (const WindowDimension& w : window.dimensions) {
    if (w.base_dilation == 1) continue;
    if (w.stride != 1 || w.window_dilation != 1) return false;
    dilated = true;
  }
  return dilated;
}

// A convolution of canonical layouts (input [n, spatial..., c], kernel
// [spatial..., c, f], output `output_dims`) whose input `window` dilates,
// as one convolution per output phase (the product of the dilations), each
// over the undilated input with the kernel taps its outputs read, the
// phases then interleaved: a stride-2 transposed convolution does a
// quarter of the multiplications a convolution over the dilated input
// does, three quarters of them by zeros. `convolve` makes each phase's
// convolution.
template <typename Convolve>
HloInstruction* PhaseSplit(RewriteContext& context, HloInstruction* input,
                           HloInstruction* kernel, const Window& window,
                           const std::vector<int64_t>& output_dims,
                           ElementType result_type, Convolve convolve) {
  const auto spatial = static_cast<int64_t>(window.dimensions.size());
  const std::vector<int64_t>& in = input->shape().dims();
  const std::vector<int64_t>& k = kernel->shape().dims();
  std::vector<int64_t> dilation, widest;
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t s =
        window.dimensions[static_cast<std::size_t>(i)].base_dilation;
    dilation.push_back(s);
    widest.push_back((output_dims[static_cast<std::size_t>(i + 1)] + s - 1) /
                     s);
  }
  // Each phase's outputs, padded at the end to `widest` along each spatial
  // dimension and given a unit dimension after each: [n, q0, 1, q1, 1, ...,
  // f], so the phases concatenate along the unit dimensions.
  std::vector<int64_t> stacked_dims = {output_dims.front()};
  for (int64_t q : widest) {
    stacked_dims.push_back(q);
    stacked_dims.push_back(1);
  }
  stacked_dims.push_back(output_dims.back());
  const auto phase_output = [&](const std::vector<int64_t>& r) {
    std::vector<Phase> phases;
    bool empty = false;
    for (int64_t i = 0; i < spatial; ++i) {
      const auto d = static_cast<std::size_t>(i);
      phases.push_back(PhaseOf(window.dimensions[d], output_dims[d + 1], r[d]));
      empty |= phases.back().taps == 0 || phases.back().outputs == 0;
    }
    if (empty) {
      return context.AddNew(HloOpcode::kBroadcast,
                            Shape(result_type, stacked_dims),
                            {Zero(context, result_type)});
    }
    // The input rows the phase reads, and the padding around them.
    std::vector<int64_t> starts(in.size(), 0), limits = in;
    std::vector<int64_t> kernel_starts(k.size(), 0), kernel_limits = k;
    std::vector<int64_t> kernel_strides(k.size(), 1);
    std::vector<int64_t> phase_dims = {output_dims.front()};
    Window phase_window;
    bool sliced = false;
    for (int64_t i = 0; i < spatial; ++i) {
      const auto d = static_cast<std::size_t>(i);
      const Phase& p = phases[d];
      int64_t low = -p.offset;
      int64_t high = p.outputs + p.taps - 1 - in[d + 1] + p.offset;
      if (low < 0) {
        starts[d + 1] = -low;
        low = 0;
        sliced = true;
      }
      if (high < 0) {
        limits[d + 1] += high;
        high = 0;
        sliced = true;
      }
      kernel_starts[d] = p.first_tap;
      kernel_limits[d] = p.first_tap + (p.taps - 1) * dilation[d] + 1;
      kernel_strides[d] = dilation[d];
      WindowDimension w;
      w.size = p.taps;
      w.padding_low = low;
      w.padding_high = high;
      phase_window.dimensions.push_back(w);
      phase_dims.push_back(p.outputs);
    }
    phase_dims.push_back(output_dims.back());
    HloInstruction* phase_input = input;
    if (sliced) {
      std::vector<int64_t> dims;
      for (std::size_t d = 0; d < in.size(); ++d) {
        dims.push_back(limits[d] - starts[d]);
      }
      phase_input = context.AddNew(
          HloOpcode::kSlice, Shape(input->shape().element_type(), dims),
          {input}, [&](HloInstruction& slice) {
            slice.set_slice(starts, limits, std::vector<int64_t>(in.size(), 1));
          });
    }
    std::vector<int64_t> taps_dims;
    for (std::size_t d = 0; d < k.size(); ++d) {
      taps_dims.push_back(
          (kernel_limits[d] - kernel_starts[d] + kernel_strides[d] - 1) /
          kernel_strides[d]);
    }
    HloInstruction* taps = context.AddNew(
        HloOpcode::kSlice, Shape(kernel->shape().element_type(), taps_dims),
        {kernel}, [&](HloInstruction& slice) {
          slice.set_slice(kernel_starts, kernel_limits, kernel_strides);
        });
    HloInstruction* part =
        convolve(phase_input, taps, std::move(phase_window), phase_dims);
    PaddingConfig padding;
    padding.dimensions.resize(phase_dims.size());
    std::vector<int64_t> padded = phase_dims;
    for (int64_t i = 0; i < spatial; ++i) {
      const auto d = static_cast<std::size_t>(i + 1);
      padding.dimensions[d].high = widest[d - 1] - phase_dims[d];
      padded[d] = widest[d - 1];
    }
    if (padded != phase_dims) {
      part = context.AddNew(
          HloOpcode::kPad, Shape(result_type, padded),
          {part, Zero(context, result_type)},
          [&](HloInstruction& pad) { pad.set_padding_config(padding); });
    }
    return Reshape(context, part, stacked_dims);
  };
  // Phases concatenated along the unit dimension after each spatial one,
  // the last spatial dimension innermost.
  const auto interleave = [&](int64_t i, std::vector<int64_t>& r,
                              const auto& self) -> HloInstruction* {
    if (i == spatial) return phase_output(r);
    std::vector<HloInstruction*> parts;
    for (r.push_back(0); r.back() < dilation[static_cast<std::size_t>(i)];
         ++r.back()) {
      parts.push_back(self(i + 1, r, self));
    }
    r.pop_back();
    if (parts.size() == 1) return parts.front();
    std::vector<int64_t> dims = parts.front()->shape().dims();
    const auto axis = static_cast<std::size_t>(2 + 2 * i);
    dims[axis] = static_cast<int64_t>(parts.size());
    return context.AddNew(HloOpcode::kConcatenate, Shape(result_type, dims),
                          parts, [&](HloInstruction& c) {
                            c.set_dimensions({static_cast<int64_t>(axis)});
                          });
  };
  std::vector<int64_t> r;
  HloInstruction* stacked = interleave(0, r, interleave);
  std::vector<int64_t> whole = {output_dims.front()};
  for (int64_t i = 0; i < spatial; ++i) {
    whole.push_back(widest[static_cast<std::size_t>(i)] *
                    dilation[static_cast<std::size_t>(i)]);
  }
  whole.push_back(output_dims.back());
  HloInstruction* result = Reshape(context, stacked, whole);
  if (whole == output_dims) return result;
  return context.AddNew(
      HloOpcode::kSlice, Shape(result_type, output_dims), {result},
      [&](HloInstruction& slice) {
        slice.set_slice(std::vector<int64_t>(whole.size(), 0), output_dims,
                        std::vector<int64_t>(whole.size(), 1));
      });
}

// True for a constant whose bytes are all zero (+0 of a float type), seen
// through one convert.
bool IsZeroBits(const HloInstruction& value) {
  const HloInstruction* constant = &value;
  if (constant->opcode() == HloOpcode::kConvert) {
    constant = constant->operands()[0];
  }
  if (constant->opcode() != HloOpcode::kConstant) return false;
  const Literal& literal = constant->literal();
  return std::all_of(literal.data(), literal.data() + literal.byte_size(),
                     [](uint8_t byte) { return byte == 0; });
}

// The operand of `input` when it pads only the spatial dimensions (input
// dimensions `spatial_dims`) of a convolution with `window` at their edges
// with zeros, the padding then moved into `window`; else null and `window`
// unchanged. The convolution's own padding reads no copy of the input.
HloInstruction* FoldPadding(HloInstruction* input,
                            const std::vector<int64_t>& spatial_dims,
                            Window* window) {
  if (input->opcode() != HloOpcode::kPad ||
      !IsZeroBits(*input->operands()[1])) {
    return nullptr;
  }
  const PaddingConfig& padding = input->padding_config();
  std::vector<bool> is_spatial(padding.dimensions.size(), false);
  for (std::size_t i = 0; i < spatial_dims.size(); ++i) {
    const PaddingDimension& pad =
        padding.dimensions[static_cast<std::size_t>(spatial_dims[i])];
    if (pad.low < 0 || pad.high < 0 || pad.interior != 0 ||
        window->dimensions[i].base_dilation != 1) {
      return nullptr;
    }
    is_spatial[static_cast<std::size_t>(spatial_dims[i])] = true;
  }
  for (std::size_t d = 0; d < padding.dimensions.size(); ++d) {
    if (!is_spatial[d] && !(padding.dimensions[d] == PaddingDimension{})) {
      return nullptr;
    }
  }
  for (std::size_t i = 0; i < spatial_dims.size(); ++i) {
    const PaddingDimension& pad =
        padding.dimensions[static_cast<std::size_t>(spatial_dims[i])];
    window->dimensions[i].padding_low += pad.low;
    window->dimensions[i].padding_high += pad.high;
  }
  return input->operands()[0];
}

// Convolutions into the form a channels-innermost GEMM over patches
// computes: transposes into the canonical layouts and back out of them,
// the input dilated by a pad with interior padding instead of the lhs
// dilation, the kernel reversed instead of the window reversal, and 3-D
// convolutions of f32 or f64 results split into 2-D ones over depth; an
// input padded with zeros at its spatial edges becomes the convolution's
// own padding. Null (no rewrite) for convolutions of batch groups and those
// already so.
StatusOr<HloInstruction*> CanonicalizeConvolution(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>&, RewriteContext& context) {
  if (source.opcode() != HloOpcode::kConvolution ||
      source.batch_group_count() != 1 || operands.size() != 2 ||
      !source.shape().IsArray()) {
    return nullptr;
  }
  const ConvolutionDimensionNumbers& numbers =
      source.convolution_dimension_numbers();
  Window window = source.window();
  const auto spatial = static_cast<int64_t>(window.dimensions.size());
  if (static_cast<int64_t>(numbers.input_spatial_dimensions.size()) !=
          spatial ||
      operands[0]->shape().rank() != spatial + 2) {
    return nullptr;
  }
  HloInstruction* unpadded =
      FoldPadding(operands[0], numbers.input_spatial_dimensions, &window);
  bool dilated = false;
  bool reversed = false;
  for (const WindowDimension& w : window.dimensions) {
    dilated |= w.base_dilation != 1;
    reversed |= w.window_reversal;
  }
  const ElementType result_type = source.shape().element_type();
  const bool split_depth =
      spatial == 3 && source.feature_group_count() == 1 &&
      (result_type == PHAL_ELEMENT_TYPE_F32 ||
       result_type == PHAL_ELEMENT_TYPE_F64) &&
      operands[1]->shape().dim(numbers.kernel_spatial_dimensions[0]) > 0 &&
      source.shape().ElementCount() > 0;
  const bool canonical = numbers == CanonicalNumbers(spatial);
  if (canonical && !dilated && !reversed && !split_depth &&
      unpadded == nullptr) {
    return nullptr;
  }

  std::vector<int64_t> input_order = {numbers.input_batch_dimension};
  std::vector<int64_t> kernel_order = numbers.kernel_spatial_dimensions;
  std::vector<int64_t> output_order = {numbers.output_batch_dimension};
  for (int64_t i = 0; i < spatial; ++i) {
    input_order.push_back(numbers.input_spatial_dimensions[i]);
    output_order.push_back(numbers.output_spatial_dimensions[i]);
  }
  input_order.push_back(numbers.input_feature_dimension);
  kernel_order.push_back(numbers.kernel_input_feature_dimension);
  kernel_order.push_back(numbers.kernel_output_feature_dimension);
  output_order.push_back(numbers.output_feature_dimension);
  HloInstruction* input = AddTranspose(
      context, unpadded != nullptr ? unpadded : operands[0], input_order);
  HloInstruction* kernel = AddTranspose(context, operands[1], kernel_order);
  std::vector<int64_t> output_dims;
  for (int64_t d : output_order) output_dims.push_back(source.shape().dim(d));

  Window canonical_window = window;
  const bool phases = dilated && SplitsIntoPhases(window);
  if (dilated && !phases) {
    PaddingConfig padding;
    padding.dimensions.resize(static_cast<std::size_t>(spatial + 2));
    std::vector<int64_t> dims = input->shape().dims();
    for (int64_t i = 0; i < spatial; ++i) {
      WindowDimension& w = canonical_window.dimensions[i];
      const auto d = static_cast<std::size_t>(i + 1);
      padding.dimensions[d].interior = w.base_dilation - 1;
      if (dims[d] > 0) dims[d] += (dims[d] - 1) * (w.base_dilation - 1);
      w.base_dilation = 1;
    }
    const ElementType type = input->shape().element_type();
    input = context.AddNew(
        HloOpcode::kPad, Shape(type, dims), {input, Zero(context, type)},
        [&](HloInstruction& pad) { pad.set_padding_config(padding); });
  }
  if (reversed) {
    std::vector<int64_t> flipped;
    for (int64_t i = 0; i < spatial; ++i) {
      WindowDimension& w = canonical_window.dimensions[i];
      if (w.window_reversal) flipped.push_back(i);
      w.window_reversal = false;
    }
    kernel =
        context.AddNew(HloOpcode::kReverse, kernel->shape(), {kernel},
                       [&](HloInstruction& r) { r.set_dimensions(flipped); });
  }
  const auto convolve = [&](HloInstruction* phase_input,
                            HloInstruction* phase_kernel, Window phase_window,
                            std::vector<int64_t> dims) {
    return split_depth ? SplitDepth(context, source, phase_input, phase_kernel,
                                    phase_window, dims)
                       : CanonicalConvolution(
                             context, source, phase_input, phase_kernel,
                             std::move(phase_window), std::move(dims));
  };
  HloInstruction* result =
      phases ? PhaseSplit(context, input, kernel, canonical_window, output_dims,
                          result_type, convolve)
             : convolve(input, kernel, canonical_window, output_dims);
  // Back to the source's output layout: result dimension j is canonical
  // dimension i where output_order[i] == j.
  std::vector<int64_t> back(output_order.size());
  for (std::size_t i = 0; i < output_order.size(); ++i) {
    back[static_cast<std::size_t>(output_order[i])] = static_cast<int64_t>(i);
  }
  return AddTranspose(context, result, back);
}

}  // namespace

std::unique_ptr<HloPass> MakeConvolutionCanonicalizationPass() {
  return MakeRewritePass("canonicalize-convolutions", CanonicalizeConvolution);
}

}  // namespace phal
