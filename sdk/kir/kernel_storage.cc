#include "sdk/kir_interpreter/kernel_storage.h"

#include <cstring>

#include "sdk/base/kir_facts.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

// "PKIR" in a little-endian host's memory.
constexpr uint32_t kMagic = 0x52494B50;
// Bumped whenever the walk below changes.
constexpr uint32_t kFormatVersion = 1;

// ---------------------------------------------------------------------------
// The walk. `Io` is one of the copier, the encoder and the decoder:
//   Scalar(field)                  one integer or enum field
//   Array(pointer, count, what)    `count` plain elements (no pointers)
//   Records(pointer, count, what)  `count` structs whose fields are walked
//                                  next; returns them writable
//   Struct(pointer, what)          one struct walked next; same
//   Name(pointer)                  the kernel's name
// Counts are always walked before the arrays they size.

template <typename Io>
Status WalkBody(Io& io, phal_kir_body_t& body, const std::string& role) {
  PHAL_RETURN_IF_ERROR(io.Scalar(body.node_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(body.operand_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(body.result_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(body.parameter_count));
  PHAL_RETURN_IF_ERROR(
      io.Array(body.nodes, body.node_count, role + " body nodes"));
  PHAL_RETURN_IF_ERROR(
      io.Array(body.operands, body.operand_count, role + " body operands"));
  return io.Array(body.results, body.result_count, role + " body results");
}

template <typename Io>
Status WalkLoop(Io& io, phal_kir_loop_t& loop) {
  PHAL_RETURN_IF_ERROR(io.Scalar(loop.rank));
  PHAL_RETURN_IF_ERROR(io.Scalar(loop.output_count));
  PHAL_RETURN_IF_ERROR(io.Array(loop.dims, loop.rank, "loop dims"));
  PHAL_RETURN_IF_ERROR(
      io.Array(loop.outputs, loop.output_count, "loop outputs"));
  return WalkBody(io, loop.body, "loop");
}

template <typename Io>
Status WalkReduce(Io& io, phal_kir_reduce_t& reduce) {
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.rank));
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.reduced_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.accumulator_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(reduce.output_count));
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
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.lhs));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.rhs));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.output));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.accumulation_type));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.batch));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.m));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.n));
  PHAL_RETURN_IF_ERROR(io.Scalar(dot.k));
  for (int i = 0; i < 3; ++i) {
    PHAL_RETURN_IF_ERROR(io.Scalar(dot.lhs_strides[i]));
    PHAL_RETURN_IF_ERROR(io.Scalar(dot.rhs_strides[i]));
  }
  return WalkBody(io, dot.epilogue, "epilogue");
}

template <typename Io>
Status WalkConv(Io& io, phal_kir_conv_t& conv) {
  for (uint32_t* field : {&conv.input, &conv.kernel, &conv.output,
                          &conv.spatial_count, &conv.reserved}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field));
  }
  PHAL_RETURN_IF_ERROR(io.Scalar(conv.accumulation_type));
  for (int64_t* field :
       {&conv.input_batch_dimension, &conv.input_feature_dimension,
        &conv.kernel_input_feature_dimension,
        &conv.kernel_output_feature_dimension, &conv.output_batch_dimension,
        &conv.output_feature_dimension, &conv.feature_group_count,
        &conv.batch_group_count}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field));
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
  for (uint32_t* field :
       {&gather.operand, &gather.start_indices, &gather.output,
        &gather.offset_dims_count, &gather.collapsed_slice_dims_count,
        &gather.start_index_map_count, &gather.operand_batching_dims_count,
        &gather.start_indices_batching_dims_count}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field));
  }
  PHAL_RETURN_IF_ERROR(io.Scalar(gather.index_vector_dim));
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
    return KernelError(
        kernel, "gather operand buffer " + std::to_string(gather.operand) +
                    " does not exist (the kernel has " +
                    std::to_string(kernel.buffer_count) + " buffers)");
  }
  return io.Array(gather.slice_sizes, kernel.buffers[gather.operand].rank,
                  "gather slice_sizes");
}

template <typename Io>
Status WalkScatter(Io& io, phal_kir_scatter_t& scatter) {
  for (uint32_t* field :
       {&scatter.operand, &scatter.scatter_indices, &scatter.updates,
        &scatter.output, &scatter.update_window_dims_count,
        &scatter.inserted_window_dims_count,
        &scatter.scatter_dims_to_operand_dims_count,
        &scatter.input_batching_dims_count,
        &scatter.scatter_indices_batching_dims_count,
        &scatter.unique_indices}) {
    PHAL_RETURN_IF_ERROR(io.Scalar(*field));
  }
  PHAL_RETURN_IF_ERROR(io.Scalar(scatter.index_vector_dim));
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
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.operand_count));
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.is_stable));
  PHAL_RETURN_IF_ERROR(io.Scalar(sort.dimension));
  PHAL_RETURN_IF_ERROR(
      io.Array(sort.operands, sort.operand_count, "sort operands"));
  PHAL_RETURN_IF_ERROR(
      io.Array(sort.outputs, sort.operand_count, "sort outputs"));
  return WalkBody(io, sort.comparator, "comparator");
}

template <typename Io>
Status WalkCopy(Io& io, phal_kir_copy_t& copy) {
  PHAL_RETURN_IF_ERROR(io.Scalar(copy.source));
  return io.Scalar(copy.destination);
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
  PHAL_RETURN_IF_ERROR(io.Scalar(kernel.kind));
  PHAL_RETURN_IF_ERROR(io.Scalar(kernel.buffer_count));
  // Four 32-bit fields per buffer at least.
  PHAL_ASSIGN_OR_RETURN(
      phal_kir_buffer_t * buffers,
      io.Records(kernel.buffers, kernel.buffer_count, 16, "buffers"));
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    phal_kir_buffer_t& buffer = buffers[i];
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.element_type));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.access));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.rank));
    PHAL_RETURN_IF_ERROR(io.Scalar(buffer.reserved));
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
    default: {
      Status error = KernelError(
          kernel, "kernel kind " + std::to_string(kind) + " is unknown");
      return Unimplemented(error.message());
    }
  }
}

// Appends the description's fields to a byte string.
class Encoder {
 public:
  explicit Encoder(std::string& bytes) : bytes_(bytes) {}

  template <typename T>
  Status Scalar(const T& field) {
    Append(&field, sizeof(field));
    return OkStatus();
  }
  template <typename T>
  Status Array(const T* pointer, uint64_t count, const std::string&) {
    if (count > 0) Append(pointer, count * sizeof(T));
    return OkStatus();
  }
  template <typename T>
  StatusOr<T*> Records(const T* pointer, uint64_t, uint64_t,
                       const std::string&) {
    return const_cast<T*>(pointer);
  }
  template <typename T>
  StatusOr<T*> Struct(const T* pointer, const char*) {
    return const_cast<T*>(pointer);
  }
  Status Name(const char* name) {
    const auto length = static_cast<uint32_t>(std::strlen(name));
    Append(&length, sizeof(length));
    Append(name, length);
    return OkStatus();
  }

 private:
  void Append(const void* data, std::size_t size) {
    bytes_.append(static_cast<const char*>(data), size);
  }

  std::string& bytes_;
};

}  // namespace

// Replaces every pointer of a shallow copy of the caller's description with
// a copy owned by the storage.
class KernelStorage::Copier {
 public:
  explicit Copier(KernelStorage& storage) : storage_(storage) {}

  template <typename T>
  Status Scalar(const T&) {
    return OkStatus();
  }
  template <typename T>
  Status Array(const T*& pointer, uint64_t count, const std::string& what) {
    PHAL_ASSIGN_OR_RETURN(T * copy, Records(pointer, count, 0, what));
    (void)copy;
    return OkStatus();
  }
  template <typename T>
  StatusOr<T*> Records(const T*& pointer, uint64_t count, uint64_t,
                       const std::string& what) {
    if (count == 0) {
      pointer = nullptr;
      return static_cast<T*>(nullptr);
    }
    if (pointer == nullptr) {
      return KernelError(
          storage_.desc_,
          what + " is NULL but has " + std::to_string(count) + " entries");
    }
    T* copy = storage_.Allocate<T>(count);
    std::memcpy(static_cast<void*>(copy), pointer, count * sizeof(T));
    pointer = copy;
    return copy;
  }
  template <typename T>
  StatusOr<T*> Struct(const T*& pointer, const char* what) {
    return Records(pointer, 1, 0, std::string(what) + " description");
  }
  Status Name(const char*& name) {
    storage_.set_name(name != nullptr ? name : "");
    name = storage_.desc_.name;
    return OkStatus();
  }

 private:
  KernelStorage& storage_;
};

// Reads the fields Encoder wrote into a zeroed description.
class KernelStorage::Decoder {
 public:
  Decoder(KernelStorage& storage, std::string_view bytes)
      : storage_(storage), bytes_(bytes) {}

  template <typename T>
  Status Scalar(T& field) {
    return Read(&field, sizeof(field), "a field");
  }
  template <typename T>
  Status Array(const T*& pointer, uint64_t count, const std::string& what) {
    pointer = nullptr;
    if (count == 0) return OkStatus();
    if (count > Remaining() / sizeof(T)) return Truncated(what);
    T* array = storage_.Allocate<T>(count);
    PHAL_RETURN_IF_ERROR(Read(array, count * sizeof(T), what));
    pointer = array;
    return OkStatus();
  }
  // `min_bytes`: the least each record's fields take in the encoding, so
  // that a corrupt count cannot make it allocate more than the bytes hold.
  template <typename T>
  StatusOr<T*> Records(const T*& pointer, uint64_t count, uint64_t min_bytes,
                       const std::string& what) {
    pointer = nullptr;
    if (count == 0) return static_cast<T*>(nullptr);
    if (count > Remaining() / min_bytes) return Truncated(what);
    T* records = storage_.Allocate<T>(count);
    pointer = records;
    return records;
  }
  template <typename T>
  StatusOr<T*> Struct(const T*& pointer, const char*) {
    T* record = storage_.Allocate<T>(1);
    pointer = record;
    return record;
  }
  Status Name(const char*& name) {
    uint32_t length = 0;
    PHAL_RETURN_IF_ERROR(Read(&length, sizeof(length), "the kernel name"));
    if (length > Remaining()) return Truncated("the kernel name");
    storage_.set_name(std::string(bytes_.substr(position_, length)));
    position_ += length;
    name = storage_.desc_.name;
    return OkStatus();
  }

  std::size_t Remaining() const { return bytes_.size() - position_; }

 private:
  Status Read(void* destination, std::size_t size, const std::string& what) {
    if (size > Remaining()) return Truncated(what);
    std::memcpy(destination, bytes_.data() + position_, size);
    position_ += size;
    return OkStatus();
  }
  Status Truncated(const std::string& what) const {
    return Status(PHAL_DATA_LOSS, "serialized KIR kernel ends inside " + what +
                                      " (" + std::to_string(bytes_.size()) +
                                      " bytes)");
  }

  KernelStorage& storage_;
  std::string_view bytes_;
  std::size_t position_ = 0;
};

StatusOr<std::unique_ptr<KernelStorage>> KernelStorage::Copy(
    const phal_kernel_desc_t& desc) {
  if (desc.struct_size < sizeof(phal_kernel_desc_t)) {
    return KernelError(desc, "struct_size " + std::to_string(desc.struct_size) +
                                 " is less than the " +
                                 std::to_string(sizeof(phal_kernel_desc_t)) +
                                 " bytes of phal_kernel_desc_t");
  }
  std::unique_ptr<KernelStorage> storage(new KernelStorage);
  std::memcpy(static_cast<void*>(&storage->desc_), &desc, sizeof(desc));
  storage->desc_.next = nullptr;
  Copier copier(*storage);
  PHAL_RETURN_IF_ERROR(WalkKernel(copier, storage->desc_));
  return storage;
}

std::string KernelStorage::Encode() const {
  std::string bytes;
  Encoder encoder(bytes);
  phal_kernel_desc_t desc = desc_;
  (void)encoder.Scalar(kMagic);
  (void)encoder.Scalar(kFormatVersion);
  (void)WalkKernel(encoder, desc);
  return bytes;
}

StatusOr<std::unique_ptr<KernelStorage>> KernelStorage::Decode(
    std::string_view bytes) {
  std::unique_ptr<KernelStorage> storage(new KernelStorage);
  Decoder decoder(*storage, bytes);
  uint32_t magic = 0, version = 0;
  if (!decoder.Scalar(magic).ok() || magic != kMagic) {
    return InvalidArgument("not a serialized KIR kernel (no PKIR magic)");
  }
  if (!decoder.Scalar(version).ok() || version != kFormatVersion) {
    return InvalidArgument("serialized KIR kernel of format version " +
                           std::to_string(version) + "; this library reads " +
                           std::to_string(kFormatVersion));
  }
  phal_kernel_desc_t& desc = storage->desc_;
  desc.struct_size = sizeof(phal_kernel_desc_t);
  PHAL_RETURN_IF_ERROR(WalkKernel(decoder, desc));
  if (decoder.Remaining() != 0) {
    return Status(PHAL_DATA_LOSS, "serialized KIR kernel " + storage->name() +
                                      " has " +
                                      std::to_string(decoder.Remaining()) +
                                      " bytes after its last field");
  }
  return storage;
}

}  // namespace phal::kir_interpreter
