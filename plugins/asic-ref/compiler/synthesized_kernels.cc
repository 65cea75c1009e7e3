// Convolution, gather, and the dots the matrix unit does not take, as the
// vector unit runs them: each is rewritten as a KIR loop or reduction whose
// index arithmetic says what StableHLO's op reads, then compiled as one.
#include <algorithm>
#include <span>
#include <vector>

#include "compiler/index_arithmetic.h"
#include "compiler/kernels.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

using Node = uint32_t;

constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;

bool Contains(const int64_t* values, uint32_t count, int64_t value) {
  return std::find(values, values + count, value) != values + count;
}

std::span<const int64_t> Dims(const phal_kir_buffer_t& buffer) {
  return {buffer.dims, buffer.rank};
}

// a * b in the accumulation type (and for pred), from operands converted.
Node Product(KirBody& b, phal_element_type_t type, Node x, Node y) {
  if (type == PHAL_ELEMENT_TYPE_PRED) return b.And(x, y);
  return b.Add(PHAL_KIR_OP_MULTIPLY, type, {x, y});
}

// The reducer adding two accumulators (or for pred).
void SumReducer(KirKernel& r, phal_element_type_t type) {
  const Node a = r.reducer.Parameter(type, 0);
  const Node v = r.reducer.Parameter(type, 1);
  r.reducer.AddResult(r.reducer.Add(
      type == PHAL_ELEMENT_TYPE_PRED ? PHAL_KIR_OP_OR : PHAL_KIR_OP_ADD, type,
      {a, v}));
  r.init.AddResult(r.init.Constant(type, 0));
}

}  // namespace

Status EmitDotOnVectorUnit(const KernelContext& context,
                           const phal_kir_dot_t& dot, int64_t lanes,
                           ProgramBuilder& program) {
  const phal_element_type_t acc = dot.accumulation_type;
  const phal_kir_buffer_t& lhs = context.buffers[dot.lhs];
  const phal_kir_buffer_t& rhs = context.buffers[dot.rhs];
  KirKernel r(context.name, PHAL_KERNEL_KIND_REDUCE);
  r.dims = {dot.batch, dot.m, dot.n, dot.k};
  r.reduced_dims = {3};
  r.outputs = {dot.output};
  KirBody& v = r.body;
  const Node b = v.Index(0), m = v.Index(1), n = v.Index(2), k = v.Index(3);
  auto offset = [&](const int64_t* s, Node i, Node j, Node l) {
    return v.AddIndex(
        v.AddIndex(v.MultiplyIndex(i, s[0]), v.MultiplyIndex(j, s[1])),
        v.MultiplyIndex(l, s[2]));
  };
  const Node x = v.Convert(ReadLinear(v, dot.lhs, lhs.element_type, Dims(lhs),
                                      offset(dot.lhs_strides, b, m, k)),
                           acc);
  const Node y = v.Convert(ReadLinear(v, dot.rhs, rhs.element_type, Dims(rhs),
                                      offset(dot.rhs_strides, b, k, n)),
                           acc);
  v.AddResult(Product(v, acc, x, y));
  SumReducer(r, acc);
  const phal_kir_reduce_t reduce = [&] {
    phal_kir_reduce_t d = *r.Desc().u.reduce;
    d.epilogue = dot.epilogue;
    return d;
  }();
  return EmitReduce(context, reduce, lanes, program);
}

Status EmitConv(const KernelContext& context, const phal_kir_conv_t& conv,
                int64_t lanes, ProgramBuilder& program) {
  if (ConvIsDirect(context, conv)) {
    const Status direct = EmitConvDirect(context, conv, lanes, program);
    if (direct.ok() || direct.code() != PHAL_RESOURCE_EXHAUSTED) return direct;
    program = ProgramBuilder(context.name);
  }
  if (ConvOnMatrixUnit(context, conv)) {
    return EmitConvOnMatrixUnit(context, conv, lanes, program);
  }
  const phal_element_type_t acc = conv.accumulation_type;
  const phal_kir_buffer_t& input = context.buffers[conv.input];
  const phal_kir_buffer_t& kernel = context.buffers[conv.kernel];
  const phal_kir_buffer_t& output = context.buffers[conv.output];
  const uint32_t spatial = conv.spatial_count;
  const uint32_t out_rank = output.rank;
  const int64_t out_features = output.dims[conv.output_feature_dimension];
  const int64_t out_batch = output.dims[conv.output_batch_dimension];
  const int64_t kernel_in = kernel.dims[conv.kernel_input_feature_dimension];
  KirKernel r(context.name, PHAL_KERNEL_KIND_REDUCE);
  r.dims.assign(output.dims, output.dims + out_rank);
  for (uint32_t s = 0; s < spatial; ++s) {
    r.dims.push_back(kernel.dims[conv.kernel_spatial_dimensions[s]]);
    r.reduced_dims.push_back(out_rank + s);
  }
  r.dims.push_back(kernel_in);
  r.reduced_dims.push_back(out_rank + spatial);
  r.outputs = {conv.output};
  KirBody& v = r.body;
  const Node ob = v.Index(conv.output_batch_dimension);
  const Node of = v.Index(conv.output_feature_dimension);
  const Node c = v.Index(out_rank + spatial);
  const int64_t per_group = out_features / conv.feature_group_count;
  const int64_t per_batch_group = out_features / conv.batch_group_count;
  const Node in_feature =
      v.AddIndex(v.MultiplyIndex(v.DivideIndex(of, per_group), kernel_in), c);
  const Node in_batch = v.AddIndex(
      v.MultiplyIndex(v.DivideIndex(of, per_batch_group), out_batch), ob);
  std::vector<Node> in_index(input.rank), kernel_index(kernel.rank);
  in_index[conv.input_batch_dimension] = in_batch;
  in_index[conv.input_feature_dimension] = in_feature;
  kernel_index[conv.kernel_input_feature_dimension] = c;
  kernel_index[conv.kernel_output_feature_dimension] = of;
  Node inside = v.Constant(PHAL_ELEMENT_TYPE_PRED, 1);
  for (uint32_t s = 0; s < spatial; ++s) {
    const Node o = v.Index(conv.output_spatial_dimensions[s]);
    const Node w = v.Index(out_rank + s);
    const int64_t window = kernel.dims[conv.kernel_spatial_dimensions[s]];
    const int64_t extent = input.dims[conv.input_spatial_dimensions[s]];
    const int64_t base_dilation = conv.lhs_dilation[s];
    // dilated = o * stride - padding_low + w * window_dilation
    const Node dilated =
        v.AddIndex(v.SubtractIndex(v.MultiplyIndex(o, conv.window_strides[s]),
                                   v.Index64(conv.padding[2 * s])),
                   v.MultiplyIndex(w, conv.rhs_dilation[s]));
    Node source = dilated;
    Node ok = v.CompareIndex(PHAL_KIR_COMPARE_GE, dilated, v.Index64(0));
    if (base_dilation != 1) {
      ok = v.And(ok, v.CompareIndex(PHAL_KIR_COMPARE_EQ,
                                    v.RemainderIndex(dilated, base_dilation),
                                    v.Index64(0)));
      source = v.DivideIndex(dilated, base_dilation);
    }
    ok = v.And(ok,
               v.CompareIndex(PHAL_KIR_COMPARE_LT, source, v.Index64(extent)));
    inside = v.And(inside, ok);
    in_index[conv.input_spatial_dimensions[s]] =
        ClampToExtent(v, source, extent);
    kernel_index[conv.kernel_spatial_dimensions[s]] =
        conv.window_reversal[s] ? v.SubtractIndex(v.Index64(window - 1), w) : w;
  }
  const Node x =
      v.Convert(v.Read(input.element_type, conv.input, in_index), acc);
  const Node y =
      v.Convert(v.Read(kernel.element_type, conv.kernel, kernel_index), acc);
  v.AddResult(v.Select(inside, Product(v, acc, x, y), v.Constant(acc, 0)));
  SumReducer(r, acc);
  phal_kir_reduce_t reduce = *r.Desc().u.reduce;
  reduce.epilogue = conv.epilogue;
  return EmitReduce(context, reduce, lanes, program);
}

Status EmitGather(const KernelContext& context, const phal_kir_gather_t& g,
                  int64_t lanes, ProgramBuilder& program) {
  const phal_kir_buffer_t& operand = context.buffers[g.operand];
  const phal_kir_buffer_t& indices = context.buffers[g.start_indices];
  const phal_kir_buffer_t& output = context.buffers[g.output];
  KirKernel loop(context.name, PHAL_KERNEL_KIND_LOOP);
  loop.dims.assign(output.dims, output.dims + output.rank);
  loop.outputs = {g.output};
  KirBody& v = loop.body;
  std::vector<Node> batch;  // output dims that are not offset dims
  std::vector<Node> offsets;
  for (uint32_t d = 0; d < output.rank; ++d) {
    (Contains(g.offset_dims, g.offset_dims_count, d) ? offsets : batch)
        .push_back(v.Index(d));
  }
  const SliceDims dims{
      g.start_indices,
      &indices,
      g.index_vector_dim,
      {g.start_index_map, g.start_index_map_count},
      {g.collapsed_slice_dims, g.collapsed_slice_dims_count},
      {g.operand_batching_dims, g.operand_batching_dims_count},
      {g.start_indices_batching_dims, g.start_indices_batching_dims_count}};
  // Starts clamped so the slice fits, as the specification says.
  std::vector<Node> index = SliceIndex(
      v, dims, operand.rank, batch, offsets, [&](int64_t d, Node start) {
        const int64_t highest =
            std::max<int64_t>(0, operand.dims[d] - g.slice_sizes[d]);
        return v.Add(
            PHAL_KIR_OP_MAXIMUM, kS64,
            {v.Add(PHAL_KIR_OP_MINIMUM, kS64, {start, v.Index64(highest)}),
             v.Index64(0)});
      });
  // Indices stay in bounds whatever the data (the clamps above already
  // guarantee it for well-formed gathers).
  for (uint32_t d = 0; d < operand.rank; ++d) {
    index[d] = ClampToExtent(v, index[d], operand.dims[d]);
  }
  v.AddResult(v.Read(operand.element_type, g.operand, index));
  const phal_kir_loop_t description = *loop.Desc().u.loop;
  return EmitLoop(context, description, lanes, program);
}

}  // namespace phal::asic_ref
