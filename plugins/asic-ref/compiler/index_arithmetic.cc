#include "compiler/index_arithmetic.h"

#include <algorithm>

namespace phal::asic_ref {

uint32_t ReadLinear(KirBody& body, uint32_t buffer, phal_element_type_t type,
                    std::span<const int64_t> dims, uint32_t offset) {
  std::vector<uint32_t> indices(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    uint32_t index = stride == 1 ? offset : body.DivideIndex(offset, stride);
    if (d > 0) index = body.RemainderIndex(index, dims[d]);
    indices[d] = index;
    stride *= dims[d];
  }
  return body.Read(type, buffer, indices);
}

uint32_t ClampToExtent(KirBody& body, uint32_t value, int64_t limit) {
  constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;
  const uint32_t below =
      body.Add(PHAL_KIR_OP_MINIMUM, kS64, {value, body.Index64(limit - 1)});
  return body.Add(PHAL_KIR_OP_MAXIMUM, kS64, {below, body.Index64(0)});
}

std::vector<uint32_t> SliceIndex(
    KirBody& v, const SliceDims& dims, uint32_t operand_rank,
    std::span<const uint32_t> batch, std::span<const uint32_t> window,
    const std::function<uint32_t(int64_t, uint32_t)>& start) {
  using Node = uint32_t;
  auto contains = [](std::span<const int64_t> values, int64_t value) {
    return std::find(values.begin(), values.end(), value) != values.end();
  };
  std::vector<Node> index(operand_rank);
  for (uint32_t d = 0; d < operand_rank; ++d) index[d] = v.Index64(0);
  for (size_t k = 0; k < dims.start_index_map.size(); ++k) {
    std::vector<Node> at;
    size_t b = 0;
    for (uint32_t d = 0; d < dims.indices->rank; ++d) {
      at.push_back(d == dims.index_vector_dim
                       ? v.Index64(static_cast<int64_t>(k))
                       : batch[b++]);
    }
    const int64_t d = dims.start_index_map[k];
    index[d] = v.AddIndex(index[d],
                          start(d, v.Convert(v.Read(dims.indices->element_type,
                                                    dims.indices_buffer, at),
                                             PHAL_ELEMENT_TYPE_S64)));
  }
  for (size_t k = 0; k < dims.operand_batching_dims.size(); ++k) {
    const int64_t indices_dim = dims.indices_batching_dims[k];
    const Node position =
        batch[indices_dim < dims.index_vector_dim ? indices_dim
                                                  : indices_dim - 1];
    const int64_t d = dims.operand_batching_dims[k];
    index[d] = v.AddIndex(index[d], position);
  }
  size_t w = 0;
  for (uint32_t d = 0; d < operand_rank; ++d) {
    if (contains(dims.collapsed_dims, d) ||
        contains(dims.operand_batching_dims, d)) {
      continue;
    }
    index[d] = v.AddIndex(index[d], window[w++]);
  }
  return index;
}

}  // namespace phal::asic_ref
