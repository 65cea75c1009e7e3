// The start or scatter indices of gather and scatter: an integer array
// whose dimension index_vector_dim holds index vectors (or, when
// index_vector_dim equals its rank, whose every element is a one-component
// vector), and the dimension-number checks the two kinds share.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_INDEX_VECTORS_H_
#define POLYHAL_SDK_KIR_INTERPRETER_INDEX_VECTORS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::kir_interpreter {

class IndexVectors {
 public:
  IndexVectors(const phal_kir_buffer_t& indices, const uint8_t* bytes,
               int64_t index_vector_dim);

  // Component `component` of the vector at `batch_index` (an index of the
  // indices array without index_vector_dim), read as s64: u64 values above
  // INT64_MAX read as INT64_MAX, which is out of range like them.
  int64_t Component(std::span<const int64_t> batch_index,
                    int64_t component) const;

 private:
  const phal_kir_buffer_t& indices_;
  const uint8_t* bytes_;
  int64_t index_vector_dim_;
  std::vector<int64_t> strides_;
};

// The component of `batch_index` for dimension `indices_dim` of the
// indices array (batch_index skips index_vector_dim).
inline int64_t BatchComponent(std::span<const int64_t> batch_index,
                              int64_t indices_dim, int64_t index_vector_dim) {
  return batch_index[static_cast<std::size_t>(
      indices_dim < index_vector_dim ? indices_dim : indices_dim - 1)];
}

// The dimension numbers gather and scatter share, named as gather names
// them (scatter: inserted_window_dims, input_batching_dims,
// scatter_dims_to_operand_dims, scatter_indices_batching_dims).
struct IndexedSlices {
  std::string kind;  // "gather" or "scatter", for messages
  uint32_t operand = 0;
  uint32_t indices = 0;
  int64_t index_vector_dim = 0;
  std::span<const int64_t> collapsed_dims;
  std::span<const int64_t> operand_batching_dims;
  std::span<const int64_t> start_index_map;
  std::span<const int64_t> indices_batching_dims;
};

// Checks the indices buffer (integral), index_vector_dim, and the dims
// lists against the operand and indices ranks: in range, distinct,
// collapsed and batching dims disjoint, start_index_map as long as the
// index vectors and disjoint from the batching dims, batching dims of equal
// sizes on both sides.
Status CheckIndexedSlices(const phal_kernel_desc_t& kernel,
                          const IndexedSlices& slices);

// The operand dimensions that are neither collapsed nor batching, in order.
std::vector<int64_t> WindowDims(int64_t operand_rank,
                                const IndexedSlices& slices);

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_INDEX_VECTORS_H_
