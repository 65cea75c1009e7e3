#include "sdk/emitters/llvm/kernel_fingerprint.h"

#include <string>

#include "sdk/base/hash.h"

namespace phal::llvm_emitter {
namespace {

// Appends values in a fixed little-endian-agnostic way: the fingerprint only
// has to agree within one machine and plugin version.
class Canonicaliser {
 public:
  template <typename T>
  void Add(const T& value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  template <typename T>
  void AddArray(const T* values, uint64_t count) {
    Add(count);
    if (count > 0) {
      bytes_.append(reinterpret_cast<const char*>(values), sizeof(T) * count);
    }
  }
  void AddBody(const phal_kir_body_t& body) {
    Add(body.parameter_count);
    Add(body.node_count);
    for (uint32_t i = 0; i < body.node_count; ++i) {
      const phal_kir_node_t& node = body.nodes[i];
      Add(node.op);
      Add(node.type);
      AddArray(body.operands + node.operand_begin, node.operand_count);
      AddArray(node.attributes, 4);
      AddArray(node.constant, 2);
    }
    AddArray(body.results, body.result_count);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

void AddKind(Canonicaliser& out, const phal_kernel_desc_t& kernel) {
  switch (kernel.kind) {
    case PHAL_KERNEL_KIND_LOOP: {
      const phal_kir_loop_t& loop = *kernel.u.loop;
      out.AddArray(loop.dims, loop.rank);
      out.AddArray(loop.outputs, loop.output_count);
      out.AddBody(loop.body);
      return;
    }
    case PHAL_KERNEL_KIND_REDUCE: {
      const phal_kir_reduce_t& reduce = *kernel.u.reduce;
      out.AddArray(reduce.dims, reduce.rank);
      out.AddArray(reduce.reduced_dims, reduce.reduced_count);
      out.Add(reduce.accumulator_count);
      out.AddArray(reduce.outputs, reduce.output_count);
      out.AddBody(reduce.init);
      out.AddBody(reduce.values);
      out.AddBody(reduce.reducer);
      out.AddBody(reduce.epilogue);
      return;
    }
    case PHAL_KERNEL_KIND_DOT: {
      const phal_kir_dot_t& dot = *kernel.u.dot;
      out.Add(dot.lhs);
      out.Add(dot.rhs);
      out.Add(dot.output);
      out.Add(dot.accumulation_type);
      out.Add(dot.batch);
      out.Add(dot.m);
      out.Add(dot.n);
      out.Add(dot.k);
      out.AddArray(dot.lhs_strides, 3);
      out.AddArray(dot.rhs_strides, 3);
      out.AddBody(dot.epilogue);
      return;
    }
    case PHAL_KERNEL_KIND_GATHER: {
      const phal_kir_gather_t& gather = *kernel.u.gather;
      out.Add(gather.operand);
      out.Add(gather.start_indices);
      out.Add(gather.output);
      out.AddArray(gather.offset_dims, gather.offset_dims_count);
      out.AddArray(gather.collapsed_slice_dims,
                   gather.collapsed_slice_dims_count);
      out.AddArray(gather.start_index_map, gather.start_index_map_count);
      out.AddArray(gather.operand_batching_dims,
                   gather.operand_batching_dims_count);
      out.AddArray(gather.start_indices_batching_dims,
                   gather.start_indices_batching_dims_count);
      out.Add(gather.index_vector_dim);
      out.AddArray(gather.slice_sizes, kernel.buffers[gather.operand].rank);
      return;
    }
    case PHAL_KERNEL_KIND_SCATTER: {
      const phal_kir_scatter_t& scatter = *kernel.u.scatter;
      out.Add(scatter.operand);
      out.Add(scatter.scatter_indices);
      out.Add(scatter.updates);
      out.Add(scatter.output);
      out.AddArray(scatter.update_window_dims,
                   scatter.update_window_dims_count);
      out.AddArray(scatter.inserted_window_dims,
                   scatter.inserted_window_dims_count);
      out.AddArray(scatter.scatter_dims_to_operand_dims,
                   scatter.scatter_dims_to_operand_dims_count);
      out.AddArray(scatter.input_batching_dims,
                   scatter.input_batching_dims_count);
      out.AddArray(scatter.scatter_indices_batching_dims,
                   scatter.scatter_indices_batching_dims_count);
      out.Add(scatter.unique_indices);
      out.Add(scatter.index_vector_dim);
      out.AddBody(scatter.combiner);
      return;
    }
    case PHAL_KERNEL_KIND_CONV: {
      const phal_kir_conv_t& conv = *kernel.u.conv;
      const uint32_t count = conv.spatial_count;
      out.Add(conv.input);
      out.Add(conv.kernel);
      out.Add(conv.output);
      out.Add(conv.accumulation_type);
      out.Add(conv.input_batch_dimension);
      out.Add(conv.input_feature_dimension);
      out.AddArray(conv.input_spatial_dimensions, count);
      out.Add(conv.kernel_input_feature_dimension);
      out.Add(conv.kernel_output_feature_dimension);
      out.AddArray(conv.kernel_spatial_dimensions, count);
      out.Add(conv.output_batch_dimension);
      out.Add(conv.output_feature_dimension);
      out.AddArray(conv.output_spatial_dimensions, count);
      out.AddArray(conv.window_strides, count);
      out.AddArray(conv.padding, 2 * count);
      out.AddArray(conv.lhs_dilation, count);
      out.AddArray(conv.rhs_dilation, count);
      if (conv.window_reversal != nullptr) {
        out.AddArray(conv.window_reversal, count);
      }
      out.Add(conv.feature_group_count);
      out.Add(conv.batch_group_count);
      out.AddBody(conv.epilogue);
      return;
    }
    case PHAL_KERNEL_KIND_SORT: {
      const phal_kir_sort_t& sort = *kernel.u.sort;
      out.AddArray(sort.operands, sort.operand_count);
      out.AddArray(sort.outputs, sort.operand_count);
      out.Add(sort.is_stable);
      out.Add(sort.dimension);
      out.AddBody(sort.comparator);
      return;
    }
    case PHAL_KERNEL_KIND_COPY:
      out.Add(kernel.u.copy->source);
      out.Add(kernel.u.copy->destination);
      return;
    case PHAL_KERNEL_KIND_FFT: {
      const phal_kir_fft_t& fft = *kernel.u.fft;
      out.Add(fft.fft_type);
      out.Add(fft.input);
      out.Add(fft.output);
      out.AddArray(fft.fft_length, fft.fft_rank);
      return;
    }
    case PHAL_KERNEL_KIND_LINALG: {
      const phal_kir_linalg_t& linalg = *kernel.u.linalg;
      out.Add(linalg.op);
      out.Add(linalg.flags);
      out.Add(linalg.transpose_a);
      out.AddArray(linalg.operands, linalg.operand_count);
      out.AddArray(linalg.results, linalg.result_count);
      return;
    }
    default:
      return;
  }
}

}  // namespace

uint64_t KernelFingerprint(const phal_kernel_desc_t& kernel) {
  Canonicaliser out;
  out.Add(kernel.kind);
  out.Add(kernel.buffer_count);
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    const phal_kir_buffer_t& buffer = kernel.buffers[i];
    out.Add(buffer.element_type);
    out.Add(buffer.access);
    out.AddArray(buffer.dims, buffer.rank);
  }
  AddKind(out, kernel);
  return Fnv1a(out.bytes());
}

}  // namespace phal::llvm_emitter
