#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {

Status KernelError(const phal_kernel_desc_t& kernel,
                   const std::string& message) {
  const std::string name = kernel.name != nullptr && kernel.name[0] != '\0'
                               ? kernel.name
                               : "<unnamed>";
  return InvalidArgument("kernel " + name + ": " + message);
}

std::string DimsText(std::span<const int64_t> dims) {
  std::string text = "[";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d > 0) text += ",";
    text += std::to_string(dims[d]);
  }
  return text + "]";
}

std::span<const int64_t> BufferDims(const phal_kir_buffer_t& buffer) {
  if (buffer.rank == 0) return {};
  return {buffer.dims, buffer.rank};
}

std::vector<int64_t> RowMajorStrides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (std::size_t d = dims.size(); d-- > 1;) {
    strides[d - 1] = strides[d] * dims[d];
  }
  return strides;
}

void FillRowMajorIndices(std::span<const int64_t> dims, int64_t start,
                         int64_t count, std::span<int64_t* const> indices) {
  const std::size_t rank = dims.size();
  if (rank == 0 || count == 0) return;
  std::vector<int64_t> index(rank);
  int64_t rest = start;
  for (std::size_t d = rank; d-- > 0;) {
    index[d] = rest % dims[d];
    rest /= dims[d];
  }
  const int64_t inner = dims[rank - 1];
  int64_t p = 0;
  while (p < count) {
    // A run along the innermost dimension, then one carry.
    const int64_t run = std::min(count - p, inner - index[rank - 1]);
    for (std::size_t d = 0; d + 1 < rank; ++d) {
      std::fill(indices[d] + p, indices[d] + p + run, index[d]);
    }
    for (int64_t i = 0; i < run; ++i) {
      indices[rank - 1][p + i] = index[rank - 1] + i;
    }
    p += run;
    index[rank - 1] += run - 1;
    NextIndex(dims, index);
  }
}

}  // namespace phal::kir_interpreter
