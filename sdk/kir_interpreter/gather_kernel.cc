// GATHER: StableHLO gather. Each output element copies the operand element
// at its slice's start (clamped so the slice fits, as the specification
// says) plus its offset in the slice.
#include <algorithm>
#include <cstring>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/index_vectors.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

IndexedSlices SlicesOf(const phal_kir_gather_t& g) {
  IndexedSlices slices;
  slices.kind = "gather";
  slices.operand = g.operand;
  slices.indices = g.start_indices;
  slices.index_vector_dim = g.index_vector_dim;
  slices.collapsed_dims = {g.collapsed_slice_dims,
                           g.collapsed_slice_dims_count};
  slices.operand_batching_dims = {g.operand_batching_dims,
                                  g.operand_batching_dims_count};
  slices.start_index_map = {g.start_index_map, g.start_index_map_count};
  slices.indices_batching_dims = {g.start_indices_batching_dims,
                                  g.start_indices_batching_dims_count};
  return slices;
}

class GatherKernel final : public CompiledKernel {
 public:
  explicit GatherKernel(const phal_kernel_desc_t& kernel)
      : kernel_(kernel), gather_(*kernel.u.gather), slices_(SlicesOf(gather_)) {
    const phal_kir_buffer_t& operand = kernel.buffers[gather_.operand];
    window_dims_ = WindowDims(operand.rank, slices_);
    const std::span<const int64_t> offset_dims(gather_.offset_dims,
                                               gather_.offset_dims_count);
    const phal_kir_buffer_t& output = kernel.buffers[gather_.output];
    for (int64_t d = 0; d < output.rank; ++d) {
      is_offset_.push_back(std::find(offset_dims.begin(), offset_dims.end(),
                                     d) != offset_dims.end());
    }
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const phal_kir_buffer_t& operand = kernel_.buffers[gather_.operand];
    const phal_kir_buffer_t& output = kernel_.buffers[gather_.output];
    const std::span<const int64_t> result_dims = BufferDims(output);
    if (ElementCount(result_dims) == 0) return OkStatus();
    const uint32_t inputs[] = {gather_.operand, gather_.start_indices};
    OutputTargets targets(kernel_, buffers, {&gather_.output, 1}, inputs);
    const auto size =
        static_cast<int64_t>(ElementTypeByteSize(operand.element_type));
    const std::span<const int64_t> operand_dims = BufferDims(operand);
    const std::vector<int64_t> operand_strides = RowMajorStrides(operand_dims);
    const IndexVectors vectors(kernel_.buffers[gather_.start_indices],
                               buffers[gather_.start_indices],
                               gather_.index_vector_dim);
    const uint8_t* source = buffers[gather_.operand];
    uint8_t* out = targets[gather_.output];
    std::vector<int64_t> result_index(result_dims.size(), 0);
    std::vector<int64_t> batch_index, operand_index(operand_dims.size());
    int64_t linear = 0;
    do {
      batch_index.clear();
      for (std::size_t d = 0; d < result_dims.size(); ++d) {
        if (!is_offset_[d]) batch_index.push_back(result_index[d]);
      }
      std::fill(operand_index.begin(), operand_index.end(), 0);
      for (std::size_t k = 0; k < slices_.start_index_map.size(); ++k) {
        const auto d = static_cast<std::size_t>(slices_.start_index_map[k]);
        const int64_t highest =
            std::max<int64_t>(0, operand_dims[d] - gather_.slice_sizes[d]);
        operand_index[d] = std::clamp<int64_t>(
            vectors.Component(batch_index, static_cast<int64_t>(k)), 0,
            highest);
      }
      for (std::size_t k = 0; k < slices_.operand_batching_dims.size(); ++k) {
        operand_index[static_cast<std::size_t>(
            slices_.operand_batching_dims[k])] +=
            BatchComponent(batch_index, slices_.indices_batching_dims[k],
                           gather_.index_vector_dim);
      }
      int64_t offset = 0;
      for (std::size_t k = 0; k < window_dims_.size(); ++k) {
        operand_index[static_cast<std::size_t>(window_dims_[k])] +=
            result_index[static_cast<std::size_t>(gather_.offset_dims[k])];
      }
      for (std::size_t d = 0; d < operand_index.size(); ++d) {
        if (operand_index[d] < 0 || operand_index[d] >= operand_dims[d]) {
          return OutOfRange(KernelError(kernel_, "gather reads operand index " +
                                                     DimsText(operand_index) +
                                                     " outside " +
                                                     DimsText(operand_dims))
                                .message());
        }
        offset += operand_index[d] * operand_strides[d];
      }
      std::memcpy(out + linear * size, source + offset * size,
                  static_cast<std::size_t>(size));
      ++linear;
    } while (NextIndex(result_dims, result_index));
    targets.Commit();
    return OkStatus();
  }

 private:
  const phal_kernel_desc_t& kernel_;
  const phal_kir_gather_t& gather_;
  IndexedSlices slices_;
  std::vector<int64_t> window_dims_;
  std::vector<bool> is_offset_;
};

// Slice sizes, offset_dims and the output shape against the operand and
// the indices.
Status CheckGatherShapes(const phal_kernel_desc_t& kernel,
                         const phal_kir_gather_t& g,
                         const IndexedSlices& slices) {
  const phal_kir_buffer_t& operand = kernel.buffers[g.operand];
  const phal_kir_buffer_t& indices = kernel.buffers[g.start_indices];
  const phal_kir_buffer_t& output = kernel.buffers[g.output];
  const std::span<const int64_t> slice_sizes(g.slice_sizes, operand.rank);
  for (uint32_t d = 0; d < operand.rank; ++d) {
    const bool single =
        std::find(slices.collapsed_dims.begin(), slices.collapsed_dims.end(),
                  d) != slices.collapsed_dims.end() ||
        std::find(slices.operand_batching_dims.begin(),
                  slices.operand_batching_dims.end(),
                  d) != slices.operand_batching_dims.end();
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand.dims[d] ||
        (single && slice_sizes[d] > 1)) {
      return KernelError(kernel, "gather slice_sizes " + DimsText(slice_sizes) +
                                     " do not fit operand " +
                                     DimsText(BufferDims(operand)));
    }
  }
  const std::span<const int64_t> offset_dims(g.offset_dims,
                                             g.offset_dims_count);
  PHAL_RETURN_IF_ERROR(CheckDimensionNumbers(kernel, offset_dims, output.rank,
                                             true, "gather offset_dims"));
  const std::vector<int64_t> window = WindowDims(operand.rank, slices);
  if (window.size() != offset_dims.size()) {
    return KernelError(kernel,
                       "gather offset_dims " + DimsText(offset_dims) +
                           " do not match the operand dimensions that are "
                           "neither collapsed nor batching " +
                           DimsText(window));
  }
  for (std::size_t k = 0; k < window.size(); ++k) {
    if (output.dims[offset_dims[k]] > slice_sizes[window[k]]) {
      return KernelError(
          kernel, "gather output " + DimsText(BufferDims(output)) +
                      " is wider than slice_sizes " + DimsText(slice_sizes));
    }
  }
  std::vector<int64_t> batch_dims, indices_batch_dims;
  for (uint32_t d = 0; d < output.rank; ++d) {
    if (std::find(offset_dims.begin(), offset_dims.end(), d) ==
        offset_dims.end()) {
      batch_dims.push_back(output.dims[d]);
    }
  }
  for (uint32_t d = 0; d < indices.rank; ++d) {
    if (d != g.index_vector_dim) indices_batch_dims.push_back(indices.dims[d]);
  }
  if (batch_dims != indices_batch_dims) {
    return KernelError(kernel, "gather output " + DimsText(BufferDims(output)) +
                                   " has batch dimensions " +
                                   DimsText(batch_dims) + ", the indices " +
                                   DimsText(indices_batch_dims));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileGatherKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_gather_t& g = *kernel.u.gather;
  const IndexedSlices slices = SlicesOf(g);
  PHAL_RETURN_IF_ERROR(CheckIndexedSlices(kernel, slices));
  PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, g.output, "gather output"));
  const ElementType type = kernel.buffers[g.operand].element_type;
  if (kernel.buffers[g.output].element_type != type) {
    return KernelError(
        kernel, std::string("gather output is ") +
                    ElementTypeName(kernel.buffers[g.output].element_type) +
                    ", the operand " + ElementTypeName(type));
  }
  PHAL_RETURN_IF_ERROR(CheckGatherShapes(kernel, g, slices));
  return std::unique_ptr<CompiledKernel>(new GatherKernel(kernel));
}

}  // namespace phal::kir_interpreter
