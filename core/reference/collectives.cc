#include "core/reference/collectives.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "core/reference/scalar_function.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

// Part `index` of `count` equal parts of `x` along `dimension`.
Literal Part(const Literal& x, int64_t dimension, int64_t index,
             int64_t count) {
  std::vector<int64_t> dims = x.shape().dims();
  const auto d = static_cast<std::size_t>(dimension);
  dims[d] /= count;
  Literal part(Shape(x.element_type(), dims));
  StridedView source = RowMajorView(x.shape().dims());
  source.offset = index * dims[d] * source.strides[d];
  StridedCopy(dims, ElementTypeByteSize(x.element_type()), x.data(), source,
              part.data(), RowMajorView(dims));
  return part;
}

// The arrays `parts` (of one shape) concatenated along `dimension`.
Literal Concatenate(const std::vector<const Literal*>& parts,
                    int64_t dimension) {
  const Shape& part_shape = parts[0]->shape();
  std::vector<int64_t> dims = part_shape.dims();
  const auto d = static_cast<std::size_t>(dimension);
  dims[d] *= static_cast<int64_t>(parts.size());
  Literal result(Shape(part_shape.element_type(), dims));
  StridedView destination = RowMajorView(dims);
  for (std::size_t j = 0; j < parts.size(); ++j) {
    destination.offset = static_cast<int64_t>(j) * part_shape.dim(dimension) *
                         destination.strides[d];
    StridedCopy(part_shape.dims(),
                ElementTypeByteSize(part_shape.element_type()),
                parts[j]->data(), RowMajorView(part_shape.dims()),
                result.data(), destination);
  }
  return result;
}

// accumulator[i] = op(accumulator[i], value[i]) over elements of type T, for
// the ops whose result these C++ operations give exactly as the
// interpreter computes them (IEEE sums and products rounded once; integer
// ops wrapping).
template <typename T>
bool CombineTyped(HloOpcode op, Literal& accumulator, const Literal& value) {
  T* out = reinterpret_cast<T*>(accumulator.data());
  const T* in = reinterpret_cast<const T*>(value.data());
  const int64_t count = accumulator.ElementCount();
  // Integers wrap: their sums and products are taken in 64 unsigned bits.
  using Wide = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;
  switch (op) {
    case HloOpcode::kAdd:
      for (int64_t i = 0; i < count; ++i) {
        out[i] = static_cast<T>(static_cast<Wide>(out[i]) +
                                static_cast<Wide>(in[i]));
      }
      return true;
    case HloOpcode::kMultiply:
      for (int64_t i = 0; i < count; ++i) {
        out[i] = static_cast<T>(static_cast<Wide>(out[i]) *
                                static_cast<Wide>(in[i]));
      }
      return true;
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case HloOpcode::kMaximum:
        for (int64_t i = 0; i < count; ++i) out[i] = std::max(out[i], in[i]);
        return true;
      case HloOpcode::kMinimum:
        for (int64_t i = 0; i < count; ++i) out[i] = std::min(out[i], in[i]);
        return true;
      case HloOpcode::kAnd:
        for (int64_t i = 0; i < count; ++i) out[i] &= in[i];
        return true;
      case HloOpcode::kOr:
        for (int64_t i = 0; i < count; ++i) out[i] |= in[i];
        return true;
      case HloOpcode::kXor:
        for (int64_t i = 0; i < count; ++i) out[i] ^= in[i];
        return true;
      default:
        break;
    }
  }
  return false;
}

// Combines `value` into `accumulator` without calling the reducer, when it
// is a plain op of a type CombineTyped takes; false otherwise.
bool CombineDirectly(HloOpcode op, Literal& accumulator, const Literal& value) {
  switch (accumulator.element_type()) {
    case PHAL_ELEMENT_TYPE_F32:
      return CombineTyped<float>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_F64:
      return CombineTyped<double>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_S8:
      return CombineTyped<int8_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_S16:
      return CombineTyped<int16_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_S32:
      return CombineTyped<int32_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_S64:
      return CombineTyped<int64_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_U8:
      return CombineTyped<uint8_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_U16:
      return CombineTyped<uint16_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_U32:
      return CombineTyped<uint32_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_U64:
      return CombineTyped<uint64_t>(op, accumulator, value);
    case PHAL_ELEMENT_TYPE_PRED:
      // Booleans are one byte of 0 or 1: and/or/xor keep them so.
      if (op != HloOpcode::kAnd && op != HloOpcode::kOr &&
          op != HloOpcode::kXor) {
        return false;
      }
      return CombineTyped<uint8_t>(op, accumulator, value);
    default:
      return false;
  }
}

// Operand `operand` of every member, combined element by element in group
// order with `reducer`.
StatusOr<Literal> Reduce(
    const HloComputation& reducer, ComputationRunner* runner,
    std::span<const std::vector<Literal>* const> group_operands,
    std::size_t operand) {
  Literal accumulator = (*group_operands[0])[operand];
  if (const std::optional<HloOpcode> op = PlainReducer(reducer)) {
    bool direct = true;
    for (std::size_t j = 1; j < group_operands.size() && direct; ++j) {
      direct = CombineDirectly(*op, accumulator, (*group_operands[j])[operand]);
    }
    // The first combination decides for all: the type and op are the same.
    if (direct) return accumulator;
    accumulator = (*group_operands[0])[operand];
  }
  ScalarFunction function(reducer, runner);
  const auto size =
      static_cast<int64_t>(ElementTypeByteSize(accumulator.element_type()));
  for (std::size_t j = 1; j < group_operands.size(); ++j) {
    const Literal& value = (*group_operands[j])[operand];
    for (int64_t i = 0; i < accumulator.ElementCount(); ++i) {
      const uint8_t* arguments[] = {accumulator.data() + i * size,
                                    value.data() + i * size};
      PHAL_RETURN_IF_ERROR(function.Call(arguments));
      std::memcpy(accumulator.data() + i * size, function.result(0),
                  static_cast<std::size_t>(size));
    }
  }
  return accumulator;
}

// Operand `operand` of every member, in group order.
std::vector<const Literal*> Across(
    std::span<const std::vector<Literal>* const> group_operands,
    std::size_t operand) {
  std::vector<const Literal*> values;
  for (const std::vector<Literal>* operands : group_operands) {
    values.push_back(&(*operands)[operand]);
  }
  return values;
}

StatusOr<Literal> ResultOfOperand(
    const HloInstruction& instruction, int64_t member,
    std::span<const std::vector<Literal>* const> group_operands,
    std::size_t operand, ComputationRunner* runner) {
  const auto size = static_cast<int64_t>(group_operands.size());
  switch (instruction.opcode()) {
    case HloOpcode::kAllReduce:
      return Reduce(*instruction.to_apply(), runner, group_operands, operand);
    case HloOpcode::kReduceScatter: {
      PHAL_ASSIGN_OR_RETURN(Literal sum, Reduce(*instruction.to_apply(), runner,
                                                group_operands, operand));
      return Part(sum, instruction.dimensions(0), member, size);
    }
    case HloOpcode::kAllGather:
      return Concatenate(Across(group_operands, operand),
                         instruction.dimensions(0));
    case HloOpcode::kAllToAll: {
      // Each member splits its operand into `size` parts and sends part i
      // to member i, which concatenates what it receives in group order.
      std::vector<Literal> parts;
      for (const Literal* value : Across(group_operands, operand)) {
        parts.push_back(Part(*value, instruction.dimensions(0), member, size));
      }
      std::vector<const Literal*> part_pointers;
      for (const Literal& part : parts) part_pointers.push_back(&part);
      return Concatenate(part_pointers, instruction.dimensions(0));
    }
    case HloOpcode::kCollectiveBroadcast:
      return (*group_operands[0])[operand];
    default:
      return Internal(std::string(HloOpcodeName(instruction.opcode())) +
                      " is not a collective of a group");
  }
}

}  // namespace

std::optional<HloOpcode> PlainReducer(const HloComputation& reducer) {
  const HloInstruction* root = reducer.root_instruction();
  if (reducer.num_parameters() != 2 || root->operand_count() != 2 ||
      root->operand(0)->opcode() != HloOpcode::kParameter ||
      root->operand(1)->opcode() != HloOpcode::kParameter ||
      root->operand(0) == root->operand(1)) {
    return std::nullopt;
  }
  return root->opcode();
}

StatusOr<Literal> EvaluateGroupCollective(
    const HloInstruction& instruction, int64_t member,
    std::span<const std::vector<Literal>* const> group_operands,
    ComputationRunner* runner) {
  const std::size_t operand_count = group_operands[0]->size();
  std::vector<Literal> results;
  if (instruction.opcode() == HloOpcode::kAllToAll &&
      instruction.dimensions().empty()) {
    // The tuple form: member j sent its operand `member` here.
    for (const std::vector<Literal>* operands : group_operands) {
      results.push_back((*operands)[static_cast<std::size_t>(member)]);
    }
    return Literal::Tuple(std::move(results));
  }
  for (std::size_t operand = 0; operand < operand_count; ++operand) {
    PHAL_ASSIGN_OR_RETURN(
        Literal result,
        ResultOfOperand(instruction, member, group_operands, operand, runner));
    results.push_back(std::move(result));
  }
  if (!instruction.shape().IsTuple()) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

}  // namespace phal::reference
