#include "sdk/kir_interpreter/index_vectors.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

template <typename T>
int64_t LoadIndex(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(value));
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return std::numeric_limits<int64_t>::max();
    }
  }
  return static_cast<int64_t>(value);
}

bool Contains(std::span<const int64_t> values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

IndexVectors::IndexVectors(const phal_kir_buffer_t& indices,
                           const uint8_t* bytes, int64_t index_vector_dim)
    : indices_(indices),
      bytes_(bytes),
      index_vector_dim_(index_vector_dim),
      strides_(RowMajorStrides(BufferDims(indices))) {}

int64_t IndexVectors::Component(std::span<const int64_t> batch_index,
                                int64_t component) const {
  int64_t offset = 0;
  std::size_t b = 0;
  for (uint32_t d = 0; d < indices_.rank; ++d) {
    const int64_t i = d == index_vector_dim_ ? component : batch_index[b++];
    offset += i * strides_[d];
  }
  const uint8_t* element =
      bytes_ +
      offset * static_cast<int64_t>(ElementTypeByteSize(indices_.element_type));
  switch (indices_.element_type) {
    case PHAL_ELEMENT_TYPE_S8:
      return LoadIndex<int8_t>(element);
    case PHAL_ELEMENT_TYPE_S16:
      return LoadIndex<int16_t>(element);
    case PHAL_ELEMENT_TYPE_S32:
      return LoadIndex<int32_t>(element);
    case PHAL_ELEMENT_TYPE_S64:
      return LoadIndex<int64_t>(element);
    case PHAL_ELEMENT_TYPE_U8:
      return LoadIndex<uint8_t>(element);
    case PHAL_ELEMENT_TYPE_U16:
      return LoadIndex<uint16_t>(element);
    case PHAL_ELEMENT_TYPE_U32:
      return LoadIndex<uint32_t>(element);
    default:
      return LoadIndex<uint64_t>(element);
  }
}

Status CheckIndexedSlices(const phal_kernel_desc_t& kernel,
                          const IndexedSlices& slices) {
  const std::string& kind = slices.kind;
  PHAL_RETURN_IF_ERROR(
      CheckBufferIndex(kernel, slices.operand, kind + " operand"));
  PHAL_RETURN_IF_ERROR(
      CheckBufferIndex(kernel, slices.indices, kind + " indices"));
  const phal_kir_buffer_t& operand = kernel.buffers[slices.operand];
  const phal_kir_buffer_t& indices = kernel.buffers[slices.indices];
  if (!IsIntegral(indices.element_type)) {
    return KernelError(kernel, kind + " indices buf" +
                                   std::to_string(slices.indices) + " is " +
                                   ElementTypeName(indices.element_type) +
                                   ", not an integer type");
  }
  const int64_t rank = operand.rank;
  const int64_t indices_rank = indices.rank;
  const int64_t ivd = slices.index_vector_dim;
  if (ivd < 0 || ivd > indices_rank) {
    return KernelError(kernel, kind + " index_vector_dim " +
                                   std::to_string(ivd) + " is outside [0, " +
                                   std::to_string(indices_rank) + "]");
  }
  PHAL_RETURN_IF_ERROR(CheckDimensionNumbers(
      kernel, slices.collapsed_dims, rank, true,
      kind + (kind == "gather" ? " collapsed_slice_dims"
                               : " inserted_window_dims")));
  PHAL_RETURN_IF_ERROR(CheckDimensionNumbers(
      kernel, slices.operand_batching_dims, rank, true,
      kind + (kind == "gather" ? " operand_batching_dims"
                               : " input_batching_dims")));
  const std::string map_name =
      kind +
      (kind == "gather" ? " start_index_map" : " scatter_dims_to_operand_dims");
  PHAL_RETURN_IF_ERROR(CheckDimensionNumbers(kernel, slices.start_index_map,
                                             rank, true, map_name));
  const std::string indices_batching_name =
      kind + (kind == "gather" ? " start_indices_batching_dims"
                               : " scatter_indices_batching_dims");
  PHAL_RETURN_IF_ERROR(
      CheckDimensionNumbers(kernel, slices.indices_batching_dims, indices_rank,
                            true, indices_batching_name));
  for (int64_t d : slices.operand_batching_dims) {
    if (Contains(slices.collapsed_dims, d) ||
        Contains(slices.start_index_map, d)) {
      return KernelError(kernel, kind + " operand batching dimension " +
                                     std::to_string(d) +
                                     " is also collapsed or indexed");
    }
  }
  if (slices.operand_batching_dims.size() !=
      slices.indices_batching_dims.size()) {
    return KernelError(kernel,
                       kind + " has " +
                           std::to_string(slices.operand_batching_dims.size()) +
                           " operand batching dims but " +
                           std::to_string(slices.indices_batching_dims.size()) +
                           " indices batching dims");
  }
  for (std::size_t k = 0; k < slices.indices_batching_dims.size(); ++k) {
    const int64_t d = slices.indices_batching_dims[k];
    const int64_t operand_d = slices.operand_batching_dims[k];
    if (d == ivd || indices.dims[d] != operand.dims[operand_d]) {
      return KernelError(kernel, indices_batching_name + " " +
                                     std::to_string(d) +
                                     " is index_vector_dim or differs in "
                                     "size from operand dimension " +
                                     std::to_string(operand_d));
    }
  }
  const int64_t vector_length = ivd < indices_rank ? indices.dims[ivd] : 1;
  if (static_cast<int64_t>(slices.start_index_map.size()) != vector_length) {
    return KernelError(
        kernel,
        map_name + " has " + std::to_string(slices.start_index_map.size()) +
            " entries for index vectors of " + std::to_string(vector_length));
  }
  return OkStatus();
}

std::vector<int64_t> WindowDims(int64_t operand_rank,
                                const IndexedSlices& slices) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (!Contains(slices.collapsed_dims, d) &&
        !Contains(slices.operand_batching_dims, d)) {
      dims.push_back(d);
    }
  }
  return dims;
}

}  // namespace phal::kir_interpreter
