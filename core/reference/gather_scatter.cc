#include "core/reference/gather_scatter.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/reference/data_movement.h"
#include "core/reference/scalar_function.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::size_t At(int64_t index) { return static_cast<std::size_t>(index); }

// Reads index vectors out of a start/scatter indices array whose
// index_vector_dim holds the vector components (or, when index_vector_dim
// equals the rank, each element is a one-component vector).
class IndexVectors {
 public:
  IndexVectors(const Literal& indices, int64_t index_vector_dim)
      : indices_(indices),
        index_vector_dim_(index_vector_dim),
        strides_(RowMajorView(indices.shape().dims()).strides) {}

  // Component `component` of the vector at `batch_index` (an index of the
  // indices array without index_vector_dim).
  int64_t Component(const std::vector<int64_t>& batch_index,
                    int64_t component) const {
    int64_t offset = 0;
    std::size_t b = 0;
    for (int64_t d = 0; d < indices_.shape().rank(); ++d) {
      const int64_t i = d == index_vector_dim_ ? component : batch_index[b++];
      offset += i * strides_[At(d)];
    }
    return ReadIndex(indices_, offset);
  }

 private:
  const Literal& indices_;
  int64_t index_vector_dim_;
  std::vector<int64_t> strides_;
};

// batch_index[d_start - (d_start < index_vector_dim ? 0 : 1)]: the batch
// index component for dimension d_start of the indices array.
int64_t BatchComponent(const std::vector<int64_t>& batch_index,
                       int64_t indices_dim, int64_t index_vector_dim) {
  return batch_index[At(indices_dim < index_vector_dim ? indices_dim
                                                       : indices_dim - 1)];
}

int64_t Linear(const std::vector<int64_t>& index,
               const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (std::size_t d = 0; d < index.size(); ++d)
    offset += index[d] * strides[d];
  return offset;
}

}  // namespace

StatusOr<Literal> EvaluateGather(const HloInstruction& instruction,
                                 const Literal& operand,
                                 const Literal& start_indices) {
  const GatherDimensionNumbers& numbers =
      instruction.gather_dimension_numbers();
  const std::vector<int64_t>& slice_sizes = instruction.gather_slice_sizes();
  const int64_t operand_rank = operand.shape().rank();
  if (static_cast<int64_t>(slice_sizes.size()) != operand_rank) {
    return InvalidArgument("gather slice_sizes must have the operand's rank");
  }
  Literal result(instruction.shape());
  const std::size_t size = ElementTypeByteSize(result.element_type());
  const std::vector<int64_t>& result_dims = result.shape().dims();
  const std::vector<int64_t> operand_strides =
      RowMajorView(operand.shape().dims()).strides;
  const IndexVectors vectors(start_indices, numbers.index_vector_dim);

  // Operand dimensions that receive offset_dims, in order.
  std::vector<int64_t> offset_operand_dims;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (!Contains(numbers.collapsed_slice_dims, d) &&
        !Contains(numbers.operand_batching_dims, d)) {
      offset_operand_dims.push_back(d);
    }
  }
  if (offset_operand_dims.size() != numbers.offset_dims.size()) {
    return InvalidArgument(
        "gather offset_dims do not match the operand "
        "dimensions that are neither collapsed nor batching");
  }
  if (result.ElementCount() == 0) return result;
  std::vector<int64_t> result_index(result_dims.size(), 0);
  std::vector<int64_t> batch_index, operand_index(At(operand_rank));
  int64_t linear = 0;
  do {
    batch_index.clear();
    for (std::size_t d = 0; d < result_dims.size(); ++d) {
      if (!Contains(numbers.offset_dims, static_cast<int64_t>(d))) {
        batch_index.push_back(result_index[d]);
      }
    }
    std::fill(operand_index.begin(), operand_index.end(), 0);
    for (std::size_t k = 0; k < numbers.start_index_map.size(); ++k) {
      const int64_t d = numbers.start_index_map[k];
      const int64_t highest =
          std::max<int64_t>(0, operand.shape().dim(d) - slice_sizes[At(d)]);
      operand_index[At(d)] = std::clamp<int64_t>(
          vectors.Component(batch_index, static_cast<int64_t>(k)), 0, highest);
    }
    for (std::size_t k = 0; k < numbers.operand_batching_dims.size(); ++k) {
      operand_index[At(numbers.operand_batching_dims[k])] +=
          BatchComponent(batch_index, numbers.start_indices_batching_dims[k],
                         numbers.index_vector_dim);
    }
    for (std::size_t k = 0; k < offset_operand_dims.size(); ++k) {
      operand_index[At(offset_operand_dims[k])] +=
          result_index[At(numbers.offset_dims[k])];
    }
    std::memcpy(result.data() + linear * static_cast<int64_t>(size),
                operand.data() + Linear(operand_index, operand_strides) *
                                     static_cast<int64_t>(size),
                size);
    ++linear;
  } while (NextIndex(result_dims, result_index));
  return result;
}

StatusOr<Literal> EvaluateScatter(const HloInstruction& instruction,
                                  std::span<const Literal* const> operands,
                                  ComputationRunner* runner) {
  const ScatterDimensionNumbers& numbers =
      instruction.scatter_dimension_numbers();
  if (operands.size() < 3 || operands.size() % 2 != 1) {
    return InvalidArgument("scatter takes N inputs, the indices and N updates");
  }
  const std::size_t n = (operands.size() - 1) / 2;
  std::vector<Literal> results;
  for (std::size_t k = 0; k < n; ++k) results.push_back(*operands[k]);
  const Literal& indices = *operands[n];
  const std::span<const Literal* const> updates = operands.subspan(n + 1);
  const std::vector<int64_t>& input_dims = results[0].shape().dims();
  const std::vector<int64_t>& update_dims = updates[0]->shape().dims();
  const std::vector<int64_t> input_strides = RowMajorView(input_dims).strides;
  const auto input_rank = static_cast<int64_t>(input_dims.size());
  const IndexVectors vectors(indices, numbers.index_vector_dim);

  std::vector<int64_t> window_input_dims;
  for (int64_t d = 0; d < input_rank; ++d) {
    if (!Contains(numbers.inserted_window_dims, d) &&
        !Contains(numbers.input_batching_dims, d)) {
      window_input_dims.push_back(d);
    }
  }
  if (window_input_dims.size() != numbers.update_window_dims.size()) {
    return InvalidArgument(
        "scatter update_window_dims do not match the input "
        "dimensions that are neither inserted nor batching");
  }
  ScalarFunction combiner(*instruction.to_apply(), runner);
  std::vector<const uint8_t*> arguments(2 * n);
  std::vector<int64_t> update_index(update_dims.size(), 0);
  std::vector<int64_t> scatter_index, input_index(At(input_rank));
  if (ElementCount(update_dims) == 0) {
    return n == 1 ? std::move(results[0]) : Literal::Tuple(std::move(results));
  }
  int64_t update_linear = 0;
  do {
    scatter_index.clear();
    for (std::size_t d = 0; d < update_dims.size(); ++d) {
      if (!Contains(numbers.update_window_dims, static_cast<int64_t>(d))) {
        scatter_index.push_back(update_index[d]);
      }
    }
    std::fill(input_index.begin(), input_index.end(), 0);
    for (std::size_t k = 0; k < numbers.scatter_dims_to_operand_dims.size();
         ++k) {
      input_index[At(numbers.scatter_dims_to_operand_dims[k])] =
          vectors.Component(scatter_index, static_cast<int64_t>(k));
    }
    for (std::size_t k = 0; k < numbers.input_batching_dims.size(); ++k) {
      input_index[At(numbers.input_batching_dims[k])] += BatchComponent(
          scatter_index, numbers.scatter_indices_batching_dims[k],
          numbers.index_vector_dim);
    }
    for (std::size_t k = 0; k < window_input_dims.size(); ++k) {
      input_index[At(window_input_dims[k])] +=
          update_index[At(numbers.update_window_dims[k])];
    }
    bool in_bounds = true;
    for (int64_t d = 0; d < input_rank; ++d) {
      in_bounds = in_bounds && input_index[At(d)] >= 0 &&
                  input_index[At(d)] < input_dims[At(d)];
    }
    if (in_bounds) {
      const int64_t target = Linear(input_index, input_strides);
      for (std::size_t k = 0; k < n; ++k) {
        const auto size = static_cast<int64_t>(
            ElementTypeByteSize(results[k].element_type()));
        arguments[k] = results[k].data() + target * size;
        arguments[n + k] = updates[k]->data() + update_linear * size;
      }
      PHAL_RETURN_IF_ERROR(combiner.Call(arguments));
      for (std::size_t k = 0; k < n; ++k) {
        const auto size = ElementTypeByteSize(results[k].element_type());
        std::memcpy(results[k].data() + target * static_cast<int64_t>(size),
                    combiner.result(static_cast<int64_t>(k)), size);
      }
    }
    ++update_linear;
  } while (NextIndex(update_dims, update_index));
  if (n == 1) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

}  // namespace phal::reference
