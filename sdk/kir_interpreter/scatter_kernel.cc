// SCATTER: StableHLO scatter. The output starts as the operand; update
// elements are combined into it one after another in row-major order of
// the updates (those landing outside the operand are skipped). Runs of
// updates with distinct targets go through the combiner as one batch, so
// the result equals the sequential one while dispatch stays per batch.
#include <algorithm>
#include <cstring>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/index_vectors.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

IndexedSlices SlicesOf(const phal_kir_scatter_t& s) {
  IndexedSlices slices;
  slices.kind = "scatter";
  slices.operand = s.operand;
  slices.indices = s.scatter_indices;
  slices.index_vector_dim = s.index_vector_dim;
  slices.collapsed_dims = {s.inserted_window_dims,
                           s.inserted_window_dims_count};
  slices.operand_batching_dims = {s.input_batching_dims,
                                  s.input_batching_dims_count};
  slices.start_index_map = {s.scatter_dims_to_operand_dims,
                            s.scatter_dims_to_operand_dims_count};
  slices.indices_batching_dims = {s.scatter_indices_batching_dims,
                                  s.scatter_indices_batching_dims_count};
  return slices;
}

// Pending updates whose targets are distinct, combined together.
class CombineBatch {
 public:
  CombineBatch(const CompiledBody& combiner, int64_t element_size,
               int64_t output_elements)
      : frame_(combiner, kMaxBatch),
        size_(element_size),
        current_(static_cast<std::size_t>(kMaxBatch * element_size)),
        updates_(static_cast<std::size_t>(kMaxBatch * element_size)),
        stamps_(static_cast<std::size_t>(output_elements), 0) {}

  // Queues combining update element `update` into output element `target`,
  // first applying what is queued if `target` is already among it.
  Status Add(std::span<uint8_t* const> buffers, uint8_t* output,
             const uint8_t* updates, int64_t target, int64_t update) {
    uint64_t& stamp = stamps_[static_cast<std::size_t>(target)];
    if (stamp == batch_ || count() == kMaxBatch) {
      PHAL_RETURN_IF_ERROR(Flush(buffers, output));
    }
    stamp = batch_;
    std::memcpy(updates_.data() + count() * size_, updates + update * size_,
                static_cast<std::size_t>(size_));
    targets_.push_back(target);
    return OkStatus();
  }

  Status Flush(std::span<uint8_t* const> buffers, uint8_t* output) {
    const int64_t n = count();
    ++batch_;
    if (n == 0) return OkStatus();
    const auto size = static_cast<std::size_t>(size_);
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(current_.data() + i * size_, output + targets_[i] * size_,
                  size);
    }
    const uint8_t* parameters[] = {current_.data(), updates_.data()};
    PHAL_RETURN_IF_ERROR(frame_.Evaluate(buffers, n, {}, parameters));
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(output + targets_[i] * size_, frame_.result(0) + i * size_,
                  size);
    }
    targets_.clear();
    return OkStatus();
  }

 private:
  int64_t count() const { return static_cast<int64_t>(targets_.size()); }

  BodyFrame frame_;
  int64_t size_;
  std::vector<uint8_t> current_, updates_;
  std::vector<int64_t> targets_;
  // stamps_[t] == batch_ when output element t is queued.
  std::vector<uint64_t> stamps_;
  uint64_t batch_ = 1;
};

class ScatterKernel final : public CompiledKernel {
 public:
  ScatterKernel(const phal_kernel_desc_t& kernel, CompiledBody combiner)
      : kernel_(kernel),
        scatter_(*kernel.u.scatter),
        slices_(SlicesOf(scatter_)),
        combiner_(std::move(combiner)) {
    window_dims_ = WindowDims(kernel.buffers[scatter_.operand].rank, slices_);
    const phal_kir_buffer_t& updates = kernel.buffers[scatter_.updates];
    for (int64_t d = 0; d < updates.rank; ++d) {
      is_window_.push_back(
          std::find(
              scatter_.update_window_dims,
              scatter_.update_window_dims + scatter_.update_window_dims_count,
              d) !=
          scatter_.update_window_dims + scatter_.update_window_dims_count);
    }
    inputs_ = combiner_.read_buffers();
    inputs_.insert(inputs_.end(), {scatter_.operand, scatter_.scatter_indices,
                                   scatter_.updates});
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const phal_kir_buffer_t& output = kernel_.buffers[scatter_.output];
    OutputTargets targets(kernel_, buffers, {&scatter_.output, 1}, inputs_);
    uint8_t* out = targets[scatter_.output];
    const uint64_t bytes = BufferByteSize(output);
    if (bytes > 0 && out != buffers[scatter_.operand]) {
      std::memmove(out, buffers[scatter_.operand], bytes);
    }
    const std::span<const int64_t> update_dims =
        BufferDims(kernel_.buffers[scatter_.updates]);
    const std::span<const int64_t> input_dims = BufferDims(output);
    if (ElementCount(update_dims) == 0) {
      targets.Commit();
      return OkStatus();
    }
    const std::vector<int64_t> input_strides = RowMajorStrides(input_dims);
    const IndexVectors vectors(kernel_.buffers[scatter_.scatter_indices],
                               buffers[scatter_.scatter_indices],
                               scatter_.index_vector_dim);
    const auto size =
        static_cast<int64_t>(ElementTypeByteSize(output.element_type));
    CombineBatch batch(combiner_, size, ElementCount(input_dims));
    std::vector<int64_t> update_index(update_dims.size(), 0);
    std::vector<int64_t> scatter_index, input_index(input_dims.size());
    int64_t update_linear = 0;
    do {
      scatter_index.clear();
      for (std::size_t d = 0; d < update_dims.size(); ++d) {
        if (!is_window_[d]) scatter_index.push_back(update_index[d]);
      }
      std::fill(input_index.begin(), input_index.end(), 0);
      for (std::size_t k = 0; k < slices_.start_index_map.size(); ++k) {
        input_index[static_cast<std::size_t>(slices_.start_index_map[k])] =
            vectors.Component(scatter_index, static_cast<int64_t>(k));
      }
      for (std::size_t k = 0; k < slices_.operand_batching_dims.size(); ++k) {
        input_index[static_cast<std::size_t>(
            slices_.operand_batching_dims[k])] +=
            BatchComponent(scatter_index, slices_.indices_batching_dims[k],
                           scatter_.index_vector_dim);
      }
      for (std::size_t k = 0; k < window_dims_.size(); ++k) {
        input_index[static_cast<std::size_t>(window_dims_[k])] +=
            update_index[static_cast<std::size_t>(
                scatter_.update_window_dims[k])];
      }
      bool in_bounds = true;
      int64_t target = 0;
      for (std::size_t d = 0; d < input_dims.size(); ++d) {
        in_bounds =
            in_bounds && input_index[d] >= 0 && input_index[d] < input_dims[d];
        target += input_index[d] * input_strides[d];
      }
      if (in_bounds) {
        PHAL_RETURN_IF_ERROR(batch.Add(buffers, out, buffers[scatter_.updates],
                                       target, update_linear));
      }
      ++update_linear;
    } while (NextIndex(update_dims, update_index));
    PHAL_RETURN_IF_ERROR(batch.Flush(buffers, out));
    targets.Commit();
    return OkStatus();
  }

 private:
  const phal_kernel_desc_t& kernel_;
  const phal_kir_scatter_t& scatter_;
  IndexedSlices slices_;
  CompiledBody combiner_;
  std::vector<int64_t> window_dims_;
  std::vector<bool> is_window_;
  std::vector<uint32_t> inputs_;
};

// update_window_dims and the updates' scatter dimensions against the
// operand and the indices.
Status CheckScatterShapes(const phal_kernel_desc_t& kernel,
                          const phal_kir_scatter_t& s,
                          const IndexedSlices& slices) {
  const phal_kir_buffer_t& operand = kernel.buffers[s.operand];
  const phal_kir_buffer_t& indices = kernel.buffers[s.scatter_indices];
  const phal_kir_buffer_t& updates = kernel.buffers[s.updates];
  const std::span<const int64_t> window_dims(s.update_window_dims,
                                             s.update_window_dims_count);
  PHAL_RETURN_IF_ERROR(CheckDimensionNumbers(
      kernel, window_dims, updates.rank, true, "scatter update_window_dims"));
  const std::vector<int64_t> window = WindowDims(operand.rank, slices);
  if (window.size() != window_dims.size()) {
    return KernelError(kernel,
                       "scatter update_window_dims " + DimsText(window_dims) +
                           " do not match the operand dimensions that are "
                           "neither inserted nor batching " +
                           DimsText(window));
  }
  std::vector<int64_t> scatter_dims, indices_batch_dims;
  for (uint32_t d = 0; d < updates.rank; ++d) {
    if (std::find(window_dims.begin(), window_dims.end(), d) ==
        window_dims.end()) {
      scatter_dims.push_back(updates.dims[d]);
    }
  }
  for (uint32_t d = 0; d < indices.rank; ++d) {
    if (d != s.index_vector_dim) indices_batch_dims.push_back(indices.dims[d]);
  }
  if (scatter_dims != indices_batch_dims) {
    return KernelError(
        kernel, "scatter updates " + DimsText(BufferDims(updates)) +
                    " have scatter dimensions " + DimsText(scatter_dims) +
                    ", the indices " + DimsText(indices_batch_dims));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileScatterKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_scatter_t& s = *kernel.u.scatter;
  const IndexedSlices slices = SlicesOf(s);
  PHAL_RETURN_IF_ERROR(CheckIndexedSlices(kernel, slices));
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, s.updates, "scatter updates"));
  const phal_kir_buffer_t& operand = kernel.buffers[s.operand];
  PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, s.output, "scatter output",
                                         BufferDims(operand)));
  const ElementType type = operand.element_type;
  for (uint32_t buffer : {s.output, s.updates}) {
    if (kernel.buffers[buffer].element_type != type) {
      return KernelError(
          kernel, "scatter buf" + std::to_string(buffer) + " is " +
                      ElementTypeName(kernel.buffers[buffer].element_type) +
                      ", the operand " + ElementTypeName(type));
    }
  }
  PHAL_RETURN_IF_ERROR(CheckScatterShapes(kernel, s, slices));
  BodySignature signature{"combiner", 0, {type, type}, 1};
  PHAL_ASSIGN_OR_RETURN(CompiledBody combiner,
                        CompiledBody::Compile(kernel, s.combiner, signature));
  PHAL_RETURN_IF_ERROR(combiner.CheckResultType(0, type, "the scatter output"));
  return std::unique_ptr<CompiledKernel>(
      new ScatterKernel(kernel, std::move(combiner)));
}

}  // namespace phal::kir_interpreter
