#include "core/reference/sort.h"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/reference/scalar_function.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

// Orders positions of one slice with the comparator computation.
class SliceComparator {
 public:
  SliceComparator(std::span<const Literal* const> operands,
                  ScalarFunction* comparator)
      : operands_(operands),
        comparator_(comparator),
        arguments_(2 * operands.size()) {}

  void set_slice(int64_t base, int64_t stride) {
    base_ = base;
    stride_ = stride;
  }

  // True when the element at slice position `lhs` goes before `rhs`.
  bool Before(int64_t lhs, int64_t rhs) {
    if (!status_.ok()) return false;
    for (std::size_t k = 0; k < operands_.size(); ++k) {
      const auto size = static_cast<int64_t>(
          ElementTypeByteSize(operands_[k]->element_type()));
      arguments_[2 * k] = operands_[k]->data() + (base_ + lhs * stride_) * size;
      arguments_[2 * k + 1] =
          operands_[k]->data() + (base_ + rhs * stride_) * size;
    }
    status_ = comparator_->Call(arguments_);
    return status_.ok() && *comparator_->result(0) != 0;
  }

  const Status& status() const { return status_; }

 private:
  std::span<const Literal* const> operands_;
  ScalarFunction* comparator_;
  std::vector<const uint8_t*> arguments_;
  int64_t base_ = 0, stride_ = 1;
  Status status_;
};

// Bottom-up stable merge sort of `order`: a right element moves ahead of a
// left one only when it compares strictly before it.
void MergeSort(std::vector<int64_t>& order, SliceComparator& comparator) {
  const std::size_t count = order.size();
  std::vector<int64_t> merged(count);
  for (std::size_t width = 1; width < count; width *= 2) {
    for (std::size_t low = 0; low < count; low += 2 * width) {
      const std::size_t middle = std::min(low + width, count);
      const std::size_t high = std::min(low + 2 * width, count);
      std::size_t left = low, right = middle, out = low;
      while (left < middle && right < high) {
        merged[out++] = comparator.Before(order[right], order[left])
                            ? order[right++]
                            : order[left++];
      }
      while (left < middle) merged[out++] = order[left++];
      while (right < high) merged[out++] = order[right++];
    }
    order.swap(merged);
  }
}

}  // namespace

StatusOr<Literal> EvaluateSort(const HloInstruction& instruction,
                               std::span<const Literal* const> operands,
                               ComputationRunner* runner) {
  if (operands.empty() || instruction.dimensions().size() != 1) {
    return InvalidArgument("sort needs operands and one dimension");
  }
  const std::vector<int64_t>& dims = operands[0]->shape().dims();
  for (const Literal* operand : operands) {
    if (operand->shape().dims() != dims) {
      return InvalidArgument("sort operands must have equal dimensions");
    }
  }
  const int64_t axis = instruction.dimensions(0);
  if (axis < 0 || axis >= static_cast<int64_t>(dims.size())) {
    return InvalidArgument("sort dimension " + std::to_string(axis) +
                           " is out of range");
  }
  std::vector<Literal> results;
  for (const Literal* operand : operands) results.push_back(*operand);

  const std::vector<int64_t> strides = RowMajorView(dims).strides;
  const int64_t length = dims[static_cast<std::size_t>(axis)];
  const int64_t stride = strides[static_cast<std::size_t>(axis)];
  std::vector<int64_t> outer_dims = dims;
  outer_dims[static_cast<std::size_t>(axis)] = 1;

  ScalarFunction function(*instruction.to_apply(), runner);
  SliceComparator comparator(operands, &function);
  std::vector<int64_t> order(static_cast<std::size_t>(length));
  std::vector<int64_t> outer_index(dims.size(), 0);
  if (ElementCount(dims) == 0) {
    return results.size() == 1 ? std::move(results[0])
                               : Literal::Tuple(std::move(results));
  }
  do {
    int64_t base = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      base += outer_index[d] * strides[d];
    }
    comparator.set_slice(base, stride);
    std::iota(order.begin(), order.end(), 0);
    MergeSort(order, comparator);
    PHAL_RETURN_IF_ERROR(comparator.status());
    for (std::size_t k = 0; k < operands.size(); ++k) {
      const auto size = static_cast<int64_t>(
          ElementTypeByteSize(operands[k]->element_type()));
      for (int64_t i = 0; i < length; ++i) {
        std::memcpy(
            results[k].data() + (base + i * stride) * size,
            operands[k]->data() +
                (base + order[static_cast<std::size_t>(i)] * stride) * size,
            static_cast<std::size_t>(size));
      }
    }
  } while (NextIndex(outer_dims, outer_index));
  if (results.size() == 1) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

}  // namespace phal::reference
