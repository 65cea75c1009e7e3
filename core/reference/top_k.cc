#include "core/reference/top_k.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <vector>

namespace phal::reference {
namespace {

// A key whose integer order is the element type's total order.
int64_t OrderKey(const Literal& literal, int64_t index) {
  ElementType type = literal.element_type();
  if (IsFloat(type)) {
    int64_t bits = std::bit_cast<int64_t>(literal.GetAsDouble(index));
    return bits ^ ((bits >> 63) & INT64_MAX);
  }
  int64_t value = literal.GetAsInt64(index);
  // Unsigned 64-bit values above INT64_MAX arrive as their bit pattern;
  // flipping the sign bit makes signed comparison order them correctly.
  if (type == PHAL_ELEMENT_TYPE_U64) value ^= INT64_MIN;
  return value;
}

}  // namespace

StatusOr<Literal> EvaluateTopK(const HloInstruction& instruction,
                               const Literal& operand) {
  if (IsComplex(operand.element_type())) {
    return Unimplemented("topk of complex values has no order");
  }
  const int64_t length = operand.shape().dims().back();
  const int64_t k = instruction.top_k();
  const int64_t rows = length == 0 ? 0 : operand.ElementCount() / length;
  const std::size_t element_size = ElementTypeByteSize(operand.element_type());
  Literal result(instruction.shape());
  Literal& values = result.mutable_tuple_elements()[0];
  Literal& indices = result.mutable_tuple_elements()[1];
  std::vector<int64_t> keys(static_cast<std::size_t>(length));
  std::vector<int64_t> order(static_cast<std::size_t>(length));
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t i = 0; i < length; ++i) {
      keys[static_cast<std::size_t>(i)] = OrderKey(operand, row * length + i);
    }
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      int64_t key_a = keys[static_cast<std::size_t>(a)];
      int64_t key_b = keys[static_cast<std::size_t>(b)];
      return instruction.largest() ? key_a > key_b : key_a < key_b;
    });
    for (int64_t j = 0; j < k; ++j) {
      int64_t source = row * length + order[static_cast<std::size_t>(j)];
      int64_t target = row * k + j;
      std::memcpy(values.data() + target * element_size,
                  operand.data() + source * element_size, element_size);
      indices.SetFromInt64(target, order[static_cast<std::size_t>(j)]);
    }
  }
  return result;
}

}  // namespace phal::reference
