// The index arithmetic asic-ref's compiler writes into KIR bodies (built
// with the KIR library's KirBody, sdk/kir/body.h) when it expresses
// convolution, gather, scatter and the dots the matrix unit does not take
// as ordinary loops and reductions, which the vector unit then runs.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_INDEX_ARITHMETIC_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_INDEX_ARITHMETIC_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/kir/body.h"
#include "sdk/kir/kernel.h"

namespace phal::asic_ref {

// The element at row-major `offset` (an s64 node) of a buffer of `dims`.
uint32_t ReadLinear(KirBody& body, uint32_t buffer, phal_element_type_t type,
                    std::span<const int64_t> dims, uint32_t offset);

// `value` (an s64 node) clamped into [0, limit - 1].
uint32_t ClampToExtent(KirBody& body, uint32_t value, int64_t limit);

// The dimension numbers gather and scatter share, in gather's names
// (scatter: inserted_window_dims, input_batching_dims,
// scatter_dims_to_operand_dims, scatter_indices_batching_dims).
struct SliceDims {
  uint32_t indices_buffer = 0;
  const phal_kir_buffer_t* indices = nullptr;
  int64_t index_vector_dim = 0;
  std::span<const int64_t> start_index_map;
  std::span<const int64_t> collapsed_dims;
  std::span<const int64_t> operand_batching_dims;
  std::span<const int64_t> indices_batching_dims;
};

// The operand index an element of a gather's output (or a scatter's
// update) names, per operand dimension: the start index vector at the
// element's `batch` position (each component through `start`, which may
// clamp it), plus the batching position, plus the `window` offsets on the
// dimensions that are neither collapsed nor batching.
std::vector<uint32_t> SliceIndex(
    KirBody& body, const SliceDims& dims, uint32_t operand_rank,
    std::span<const uint32_t> batch, std::span<const uint32_t> window,
    const std::function<uint32_t(int64_t, uint32_t)>& start);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_INDEX_ARITHMETIC_H_
