#include "sdk/kir_interpreter/accumulation.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {

Status RunEpilogueOnSums(const phal_kernel_desc_t& kernel,
                         std::span<uint8_t* const> buffers,
                         const CompiledBody& epilogue,
                         std::span<const int64_t> dims,
                         ElementType accumulation_type, const uint8_t* sums,
                         uint32_t output, std::span<const uint32_t> inputs) {
  const int64_t points = ElementCount(dims);
  if (points == 0) return OkStatus();
  OutputTargets targets(kernel, buffers, {&output, 1}, inputs);
  const int64_t batch = std::min(points, kMaxBatch);
  BodyFrame frame(epilogue, batch);
  std::vector<int64_t> index_storage(dims.size() *
                                     static_cast<std::size_t>(batch));
  std::vector<int64_t*> indices;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    indices.push_back(index_storage.data() + d * batch);
  }
  const std::vector<const int64_t*> index_views(indices.begin(), indices.end());
  const int64_t sum_size = StorageBytes(accumulation_type);
  const int64_t out_size = StorageBytes(epilogue.result_type(0));
  for (int64_t start = 0; start < points; start += batch) {
    const int64_t count = std::min(batch, points - start);
    FillRowMajorIndices(dims, start, count, indices);
    const uint8_t* sum[] = {sums + start * sum_size};
    PHAL_RETURN_IF_ERROR(frame.Evaluate(buffers, count, index_views, sum));
    std::memcpy(targets[output] + start * out_size, frame.result(0),
                static_cast<std::size_t>(count * out_size));
  }
  targets.Commit();
  return OkStatus();
}

}  // namespace phal::kir_interpreter
