// The one walk over a kernel description's fields that the deep copy
// (kernel_storage.cc), the encoder and the decoder (kernel_codec.cc) share,
// so the three always agree on what a kernel holds. Internal to sdk/kir.
#ifndef POLYHAL_SDK_KIR_KERNEL_WALK_H_
#define POLYHAL_SDK_KIR_KERNEL_WALK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/kernel_storage.h"

namespace phal {

// What the copier and the decoder may do to a storage they fill.
class KernelStorageFiller {
 public:
  static std::unique_ptr<KernelStorage> New() {
    return std::unique_ptr<KernelStorage>(new KernelStorage);
  }
  static phal_kernel_desc_t& desc(KernelStorage& storage) {
    return storage.desc_;
  }
  template <typename T>
  static T* Allocate(KernelStorage& storage, uint64_t count) {
    return storage.Allocate<T>(count);
  }
  static const char* SetName(KernelStorage& storage, std::string name) {
    storage.set_name(std::move(name));
    return storage.desc_.name;
  }
};

namespace kernel_walk {

// INVALID_ARGUMENT "kernel <name>: <message>".
inline Status KirKernelError(const phal_kernel_desc_t& kernel,
                             const std::string& message) {
  const std::string name = kernel.name != nullptr && kernel.name[0] != '\0'
                               ? kernel.name
                               : "<unnamed>";
  return InvalidArgument("kernel " + name + ": " + message);
}

using Field32 = std::pair<uint32_t*, const char*>;
using Field64 = std::pair<int64_t*, const char*>;

// The walk. `Io` is one of the copier, the encoder and the decoder:
//   Scalar(field, what)            one integer or enum field
//   Array(pointer, count, what)    `count` plain elements (no pointers)
//   Records(pointer, count, what)  `count` structs whose fields are walked
//                                  next; returns them writable
//   Struct(pointer, what)          one struct walked next; same
//   Name(pointer)                  the kernel's name
// Counts are always walked before the arrays they size.

template <typename Io>
Status WalkBody(Io& io, phal_kir_body_t& body, const std::string& role) {
  PHAL_RETURN_IF_ERROR(io.Scalar(body.node_count, role + " body node_count"));
  PHAL_RETURN_IF_ERROR(
      io.Scalar(body.operand_count, role + " body operand_count"));
  PHAL_RETURN_IF_ERROR(
      io.Scalar(body.result_count, role + " body result_count"));
  PHAL_RETURN_IF_ERROR(
      io.Scalar(body.parameter_count, role + " body parameter_count"));
  PHAL_RETURN_IF_ERROR(
      io.Array(body.nodes, body.node_count, role + " body nodes"));
  PHAL_RETURN_IF_ERROR(
      io.Array(body.operands, body.operand_count, role + " body operands"));
  return io.Array(body.results, body.result_count, role + " body results");
}

template <typename Io>
Status WalkLoop(Io& io, phal_kir_loop_t& loop) {
  PHAL_RETURN_IF_ERROR(io.Scalar(loop.rank, "loop rank"));
  PHAL_RETURN_IF_ERROR(io.Scalar(loop.output_count, "loop output_count"));
  PHAL_RETURN_IF_ERROR(io.Array(loop.dims, loop.rank, "loop dims"));
  PHAL_RETURN_IF_ERROR(
      io.Array(loop.outputs, loop.output_count, "loop outputs"));
  return WalkBody(io, loop.body, "loop");
}

template <typename Io>
Status WalkReduce(Io& io, phal_kir_reduce_t& reduce) {
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.rank, "reduce rank"));
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.reduced_count, "reduce reduced_count"));
  PHAL_RETURN_IF_ERROR(
      io.Scalar(reduce.accumulator_count, "reduce accumulator_count"));
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.output_count, "reduce output_count"));
  PHAL_RETURN_IF_ERROR(io.Array(reduce.dims, reduce.rank, "reduce dims"));
  PHAL_RETURN_IF_ERROR(io.Array(reduce.reduced_dims, reduce.reduced_count,
                                "reduce reduced_dims"));
  PHAL_RETURN_IF_ERROR(
      io.Array(reduce.outputs, reduce.output_count, "reduce outputs"));
  PHAL_RETURN_IF_ERROR(WalkBody(io, reduce.init, "init"));
  PHAL_RETURN_IF_ERROR(WalkBody(io, reduce.values, "values"));
  PHAL_RETURN_IF_ERROR(WalkBody(io, reduce.reducer, "reducer"));
  return WalkBody(io, reduce.epilogue, "epilogue");
}

template <typename Io>
Status WalkDot(Io& io, phal_kir_dot_t& dot) {
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.lhs, "dot lhs"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.rhs, "dot rhs"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.output, "dot output"));
  PHAL_RETURN_IF_ERROR(
      io.Scalar(dot.accumulation_type, "dot accumulation_type"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.batch, "dot batch"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.m, "dot m"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.n, "dot n"));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.k, "dot k"));
  for (int i = 0; i < 3; ++i) {
    PHAL_RETURN_IF_ERROR(io.Scalar(dot.lhs_strides[i], "dot lhs_strides"));
    PHAL_RETURN_IF_ERROR(io.Scalar(dot.rhs_strides[i], "dot rhs_strides"));
  }
  return WalkBody(io, dot.epilogue, "epilogue");
}

template <typename Io>
Status WalkConv(Io& io, phal_kir_conv_t& conv) {
  for (auto [field, what] : {Field32{&conv.input, "conv input"},
                             Field32{&conv.kernel, "conv kernel"},
                             Field32{&conv.output, "conv output"},
                             Field32{&conv.spatial_count, "conv spatial_count"},
                             Field32{&conv.reserved, "conv reserved"}}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field, what));
  }
  PHAL_RETURN_IF_ERROR(
      io.Scalar(conv.accumulation_type, "conv accumulation_type"));
  for (auto [field, what] :
       {Field64{&conv.input_batch_dimension, "conv input_batch_dimension"},
        Field64{&conv.input_feature_dimension, "conv input_feature_dimension"},
        Field64{&conv.kernel_input_feature_dimension,
                "conv kernel_input_feature_dimension"},
        Field64{&conv.kernel_output_feature_dimension,
                "conv kernel_output_feature_dimension"},
        Field64{&conv.output_batch_dimension, "conv output_batch_dimension"},
        Field64{&conv.output_feature_dimension,
                "conv output_feature_dimension"},
        Field64{&conv.feature_group_count, "conv feature_group_count"},
        Field64{&conv.batch_group_count, "conv batch_group_count"}}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field, what));
  }
  const uint64_t n = conv.spatial_count;
  PHAL_RETURN_IF_ERROR(io.Array(conv.input_spatial_dimensions, n,
                                "conv input_spatial_dimensions"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.kernel_spatial_dimensions, n,
                                "conv kernel_spatial_dimensions"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.output_spatial_dimensions, n,
                                "conv output_spatial_dimensions"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.window_strides, n, "conv window_strides"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.padding, 2 * n, "conv padding"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.lhs_dilation, n, "conv lhs_dilation"));
  PHAL_RETURN_IF_ERROR(io.Array(conv.rhs_dilation, n, "conv rhs_dilation"));
  PHAL_RETURN_IF_ERROR(
      io.Array(conv.window_reversal, n, "conv window_reversal"));
  return WalkBody(io, conv.epilogue, "epilogue");
}

template <typename Io>
Status WalkGather(Io& io, const phal_kernel_desc_t& kernel,
                  phal_kir_gather_t& gather) {
  for (auto [field, what] :
       {Field32{&gather.operand, "gather operand"},
        Field32{&gather.start_indices, "gather start_indices"},
        Field32{&gather.output, "gather output"},
        Field32{&gather.offset_dims_count, "gather offset_dims_count"},
        Field32{&gather.collapsed_slice_dims_count,
                "gather collapsed_slice_dims_count"},
        Field32{&gather.start_index_map_count, "gather start_index_map_count"},
        Field32{&gather.operand_batching_dims_count,
                "gather operand_batching_dims_count"},
        Field32{&gather.start_indices_batching_dims_count,
                "gather start_indices_batching_dims_count"}}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field, what));
  }
  PHAL_RETURN_IF_ERROR(
      io.Scalar(gather.index_vector_dim, "gather index_vector_dim"));
  PHAL_RETURN_IF_ERROR(io.Array(gather.offset_dims, gather.offset_dims_count,
                                "gather offset_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(gather.collapsed_slice_dims,
                                gather.collapsed_slice_dims_count,
                                "gather collapsed_slice_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(gather.start_index_map,
                                gather.start_index_map_count,
                                "gather start_index_map"));
  PHAL_RETURN_IF_ERROR(io.Array(gather.operand_batching_dims,
                                gather.operand_batching_dims_count,
                                "gather operand_batching_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(gather.start_indices_batching_dims,
                                gather.start_indices_batching_dims_count,
                                "gather start_indices_batching_dims"));
  // slice_sizes has one entry per dimension of the operand buffer.
  if (gather.operand >= kernel.buffer_count) {
    return KirKernelError(
        kernel, "gather operand buffer " + std::to_string(gather.operand) +
                    " does not exist (the kernel has " +
                    std::to_string(kernel.buffer_count) + " buffers)");
  }
  return io.Array(gather.slice_sizes, kernel.buffers[gather.operand].rank,
                  "gather slice_sizes");
}

template <typename Io>
Status WalkScatter(Io& io, phal_kir_scatter_t& scatter) {
  for (auto [field, what] :
       {Field32{&scatter.operand, "scatter operand"},
        Field32{&scatter.scatter_indices, "scatter scatter_indices"},
        Field32{&scatter.updates, "scatter updates"},
        Field32{&scatter.output, "scatter output"},
        Field32{&scatter.update_window_dims_count,
                "scatter update_window_dims_count"},
        Field32{&scatter.inserted_window_dims_count,
                "scatter inserted_window_dims_count"},
        Field32{&scatter.scatter_dims_to_operand_dims_count,
                "scatter scatter_dims_to_operand_dims_count"},
        Field32{&scatter.input_batching_dims_count,
                "scatter input_batching_dims_count"},
        Field32{&scatter.scatter_indices_batching_dims_count,
                "scatter scatter_indices_batching_dims_count"},
        Field32{&scatter.unique_indices, "scatter unique_indices"}}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field, what));
  }
  PHAL_RETURN_IF_ERROR(
      io.Scalar(scatter.index_vector_dim, "scatter index_vector_dim"));
  PHAL_RETURN_IF_ERROR(io.Array(scatter.update_window_dims,
                                scatter.update_window_dims_count,
                                "scatter update_window_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(scatter.inserted_window_dims,
                                scatter.inserted_window_dims_count,
                                "scatter inserted_window_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(scatter.scatter_dims_to_operand_dims,
                                scatter.scatter_dims_to_operand_dims_count,
                                "scatter scatter_dims_to_operand_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(scatter.input_batching_dims,
                                scatter.input_batching_dims_count,
                                "scatter input_batching_dims"));
  PHAL_RETURN_IF_ERROR(io.Array(scatter.scatter_indices_batching_dims,
                                scatter.scatter_indices_batching_dims_count,
                                "scatter scatter_indices_batching_dims"));
  return WalkBody(io, scatter.combiner, "combiner");
}

template <typename Io>
Status WalkSort(Io& io, phal_kir_sort_t& sort) {
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.operand_count, "sort operand_count"));
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.is_stable, "sort is_stable"));
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.dimension, "sort dimension"));
  PHAL_RETURN_IF_ERROR(
      io.Array(sort.operands, sort.operand_count, "sort operands"));
  PHAL_RETURN_IF_ERROR(
      io.Array(sort.outputs, sort.operand_count, "sort outputs"));
  return WalkBody(io, sort.comparator, "comparator");
}

template <typename Io>
Status WalkCopy(Io& io, phal_kir_copy_t& copy) {
  PHAL_RETURN_IF_ERROR(io.Scalar(copy.source, "copy source"));
  return io.Scalar(copy.destination, "copy destination");
}

template <typename Io>
Status WalkFft(Io& io, phal_kir_fft_t& fft) {
  PHAL_RETURN_IF_ERROR(io.Scalar(fft.fft_type, "fft fft_type"));
  PHAL_RETURN_IF_ERROR(io.Scalar(fft.input, "fft input"));
  PHAL_RETURN_IF_ERROR(io.Scalar(fft.output, "fft output"));
  PHAL_RETURN_IF_ERROR(io.Scalar(fft.fft_rank, "fft fft_rank"));
  return io.Array(fft.fft_length, fft.fft_rank, "fft fft_length");
}

template <typename Io>
Status WalkLinalg(Io& io, phal_kir_linalg_t& linalg) {
  PHAL_RETURN_IF_ERROR(io.Scalar(linalg.op, "linalg op"));
  PHAL_RETURN_IF_ERROR(io.Scalar(linalg.flags, "linalg flags"));
  PHAL_RETURN_IF_ERROR(io.Scalar(linalg.transpose_a, "linalg transpose_a"));
  PHAL_RETURN_IF_ERROR(io.Scalar(linalg.operand_count, "linalg operand_count"));
  for (uint32_t& operand : linalg.operands) {
    PHAL_RETURN_IF_ERROR(io.Scalar(operand, "linalg operand"));
  }
  PHAL_RETURN_IF_ERROR(io.Scalar(linalg.result_count, "linalg result_count"));
  for (uint32_t& result : linalg.results) {
    PHAL_RETURN_IF_ERROR(io.Scalar(result, "linalg result"));
  }
  return OkStatus();
}

// The kind's struct, made writable by the walker, then its fields.
template <typename Io, typename T, typename Walk>
Status WalkKind(Io& io, const T*& pointer, const char* what, Walk walk) {
  PHAL_ASSIGN_OR_RETURN(T * kind, io.Struct(pointer, what));
  return walk(*kind);
}

template <typename Io>
Status WalkKernel(Io& io, phal_kernel_desc_t& kernel) {
  PHAL_RETURN_IF_ERROR(io.Name(kernel.name));
  PHAL_RETURN_IF_ERROR(io.Scalar(kernel.kind, "kernel kind"));
  PHAL_RETURN_IF_ERROR(io.Scalar(kernel.buffer_count, "kernel buffer_count"));
  // Four 32-bit fields per buffer at least.
  PHAL_ASSIGN_OR_RETURN(
      phal_kir_buffer_t * buffers,
      io.Records(kernel.buffers, kernel.buffer_count, 16, "buffers"));
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    phal_kir_buffer_t& buffer = buffers[i];
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.element_type, "buffer element_type"));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.access, "buffer access"));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.rank, "buffer rank"));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.reserved, "buffer reserved"));
    PHAL_RETURN_IF_ERROR(io.Array(buffer.dims, buffer.rank,
                                  "buf" + std::to_string(i) + " dims"));
  }
  auto walk = [&](auto& kind) -> Status {
    using Kind = std::remove_reference_t<decltype(kind)>;
    if constexpr (std::is_same_v<Kind, phal_kir_loop_t>) {
      return WalkLoop(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_reduce_t>) {
      return WalkReduce(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_dot_t>) {
      return WalkDot(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_conv_t>) {
      return WalkConv(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_gather_t>) {
      return WalkGather(io, kernel, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_scatter_t>) {
      return WalkScatter(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_sort_t>) {
      return WalkSort(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_fft_t>) {
      return WalkFft(io, kind);
    } else if constexpr (std::is_same_v<Kind, phal_kir_linalg_t>) {
      return WalkLinalg(io, kind);
    } else {
      return WalkCopy(io, kind);
    }
  };
  const uint32_t kind = EnumValue(kernel.kind);
  switch (kind) {
    case PHAL_KERNEL_KIND_LOOP:
      return WalkKind(io, kernel.u.loop, "loop", walk);
    case PHAL_KERNEL_KIND_REDUCE:
      return WalkKind(io, kernel.u.reduce, "reduce", walk);
    case PHAL_KERNEL_KIND_DOT:
      return WalkKind(io, kernel.u.dot, "dot", walk);
    case PHAL_KERNEL_KIND_CONV:
      return WalkKind(io, kernel.u.conv, "conv", walk);
    case PHAL_KERNEL_KIND_GATHER:
      return WalkKind(io, kernel.u.gather, "gather", walk);
    case PHAL_KERNEL_KIND_SCATTER:
      return WalkKind(io, kernel.u.scatter, "scatter", walk);
    case PHAL_KERNEL_KIND_SORT:
      return WalkKind(io, kernel.u.sort, "sort", walk);
    case PHAL_KERNEL_KIND_COPY:
      return WalkKind(io, kernel.u.copy, "copy", walk);
    case PHAL_KERNEL_KIND_FFT:
      return WalkKind(io, kernel.u.fft, "fft", walk);
    case PHAL_KERNEL_KIND_LINALG:
      return WalkKind(io, kernel.u.linalg, "linalg", walk);
    default: {
      Status error = KirKernelError(
          kernel, "kernel kind " + std::to_string(kind) + " is unknown");
      return Unimplemented(error.message());
    }
  }
}

}  // namespace kernel_walk
}  // namespace phal

#endif  // POLYHAL_SDK_KIR_KERNEL_WALK_H_
