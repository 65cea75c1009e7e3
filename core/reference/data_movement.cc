#include "core/reference/data_movement.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

std::size_t ElementSize(const Literal& literal) {
  return ElementTypeByteSize(literal.element_type());
}

Status ShapeError(const HloInstruction& instruction, const std::string& what) {
  return InvalidArgument(instruction.name() + " (" +
                         std::string(HloOpcodeName(instruction.opcode())) +
                         "): " + what);
}

// Copies `operand` viewed through `view` (indexed by the result's
// dimensions) into a new literal of the instruction's shape.
Literal GatherView(const HloInstruction& instruction, const Literal& operand,
                   const StridedView& view) {
  Literal result(instruction.shape());
  StridedCopy(result.shape().dims(), ElementSize(result), operand.data(), view,
              result.data(), RowMajorView(result.shape().dims()));
  return result;
}

StatusOr<Literal> Broadcast(const HloInstruction& instruction,
                            const Literal& operand) {
  const std::vector<int64_t>& mapping = instruction.dimensions();
  if (mapping.size() != static_cast<std::size_t>(operand.shape().rank())) {
    return ShapeError(instruction,
                      "dimensions={...} must name one result "
                      "dimension per operand dimension");
  }
  const StridedView operand_view = RowMajorView(operand.shape().dims());
  StridedView view;
  view.strides.assign(static_cast<std::size_t>(instruction.shape().rank()), 0);
  for (std::size_t k = 0; k < mapping.size(); ++k) {
    if (mapping[k] < 0 || mapping[k] >= instruction.shape().rank() ||
        instruction.shape().dim(mapping[k]) !=
            operand.shape().dim(static_cast<int64_t>(k))) {
      return ShapeError(instruction, "operand dimension " + std::to_string(k) +
                                         " does not match result dimension " +
                                         std::to_string(mapping[k]));
    }
    view.strides[static_cast<std::size_t>(mapping[k])] =
        operand_view.strides[k];
  }
  return GatherView(instruction, operand, view);
}

StatusOr<Literal> Transpose(const HloInstruction& instruction,
                            const Literal& operand) {
  const std::vector<int64_t>& permutation = instruction.dimensions();
  if (permutation.size() != static_cast<std::size_t>(operand.shape().rank())) {
    return ShapeError(instruction,
                      "the permutation must have the operand's rank");
  }
  const StridedView operand_view = RowMajorView(operand.shape().dims());
  StridedView view;
  for (int64_t source_dim : permutation) {
    view.strides.push_back(
        operand_view.strides[static_cast<std::size_t>(source_dim)]);
  }
  return GatherView(instruction, operand, view);
}

StatusOr<Literal> Reverse(const HloInstruction& instruction,
                          const Literal& operand) {
  StridedView view = RowMajorView(operand.shape().dims());
  for (int64_t dim : instruction.dimensions()) {
    const auto d = static_cast<std::size_t>(dim);
    if (operand.shape().dim(dim) == 0) continue;
    view.offset += (operand.shape().dim(dim) - 1) * view.strides[d];
    view.strides[d] = -view.strides[d];
  }
  return GatherView(instruction, operand, view);
}

StatusOr<Literal> Slice(const HloInstruction& instruction,
                        const Literal& operand) {
  StridedView view = RowMajorView(operand.shape().dims());
  const auto rank = static_cast<std::size_t>(operand.shape().rank());
  if (instruction.slice_starts().size() != rank ||
      instruction.slice_strides().size() != rank) {
    return ShapeError(instruction, "slice={...} must have the operand's rank");
  }
  for (std::size_t d = 0; d < rank; ++d) {
    view.offset += instruction.slice_starts()[d] * view.strides[d];
    view.strides[d] *= instruction.slice_strides()[d];
  }
  return GatherView(instruction, operand, view);
}

// Start indices of dynamic-slice and dynamic-update-slice, clamped so that
// a window of `window_dims` fits in `dims` (StableHLO semantics).
std::vector<int64_t> ClampedStarts(std::span<const Literal* const> indices,
                                   const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& window_dims) {
  std::vector<int64_t> starts;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const int64_t highest = std::max<int64_t>(0, dims[d] - window_dims[d]);
    starts.push_back(
        std::clamp<int64_t>(ReadIndex(*indices[d], 0), 0, highest));
  }
  return starts;
}

StatusOr<Literal> DynamicSlice(const HloInstruction& instruction,
                               std::span<const Literal* const> operands) {
  const Literal& operand = *operands[0];
  const std::vector<int64_t>& sizes = instruction.dynamic_slice_sizes();
  if (operands.size() != static_cast<std::size_t>(operand.shape().rank()) + 1 ||
      sizes.size() != static_cast<std::size_t>(operand.shape().rank())) {
    return ShapeError(instruction,
                      "needs one start index and one size per "
                      "operand dimension");
  }
  const std::vector<int64_t> starts =
      ClampedStarts(operands.subspan(1), operand.shape().dims(), sizes);
  StridedView view = RowMajorView(operand.shape().dims());
  for (std::size_t d = 0; d < starts.size(); ++d) {
    view.offset += starts[d] * view.strides[d];
  }
  return GatherView(instruction, operand, view);
}

StatusOr<Literal> DynamicUpdateSlice(const HloInstruction& instruction,
                                     std::span<const Literal* const> operands) {
  const Literal& operand = *operands[0];
  const Literal& update = *operands[1];
  if (operands.size() != static_cast<std::size_t>(operand.shape().rank()) + 2 ||
      update.shape().rank() != operand.shape().rank()) {
    return ShapeError(instruction,
                      "needs an update of the operand's rank and "
                      "one start index per dimension");
  }
  Literal result = operand;
  const std::vector<int64_t> starts = ClampedStarts(
      operands.subspan(2), operand.shape().dims(), update.shape().dims());
  StridedView destination = RowMajorView(operand.shape().dims());
  for (std::size_t d = 0; d < starts.size(); ++d) {
    destination.offset += starts[d] * destination.strides[d];
  }
  StridedCopy(update.shape().dims(), ElementSize(update), update.data(),
              RowMajorView(update.shape().dims()), result.data(), destination);
  return result;
}

StatusOr<Literal> Pad(const HloInstruction& instruction, const Literal& operand,
                      const Literal& padding_value) {
  const std::vector<PaddingDimension>& config =
      instruction.padding_config().dimensions;
  if (config.size() != static_cast<std::size_t>(operand.shape().rank())) {
    return ShapeError(instruction,
                      "padding={...} must have the operand's rank");
  }
  Literal result(instruction.shape());
  const std::size_t size = ElementSize(result);
  for (int64_t i = 0; i < result.ElementCount(); ++i) {
    std::memcpy(result.data() + i * static_cast<int64_t>(size),
                padding_value.data(), size);
  }
  // Operand element i lands at low + i * (interior + 1); negative padding
  // drops the operand elements that land outside the result.
  const StridedView operand_view = RowMajorView(operand.shape().dims());
  const StridedView result_view = RowMajorView(result.shape().dims());
  std::vector<int64_t> kept_dims;
  StridedView source{0, operand_view.strides};
  StridedView destination{0, {}};
  for (std::size_t d = 0; d < config.size(); ++d) {
    const int64_t step = config[d].interior + 1;
    const int64_t low = config[d].low;
    const int64_t first = low >= 0 ? 0 : (-low + step - 1) / step;
    const int64_t output_size = result.shape().dim(static_cast<int64_t>(d));
    int64_t last = operand.shape().dim(static_cast<int64_t>(d)) - 1;
    if (low + last * step >= output_size) {
      last = output_size - 1 - low < 0 ? -1 : (output_size - 1 - low) / step;
    }
    kept_dims.push_back(std::max<int64_t>(0, last - first + 1));
    source.offset += first * operand_view.strides[d];
    destination.offset += (low + first * step) * result_view.strides[d];
    destination.strides.push_back(step * result_view.strides[d]);
  }
  StridedCopy(kept_dims, size, operand.data(), source, result.data(),
              destination);
  return result;
}

StatusOr<Literal> Concatenate(const HloInstruction& instruction,
                              std::span<const Literal* const> operands) {
  if (instruction.dimensions().size() != 1) {
    return ShapeError(instruction, "needs exactly one dimension");
  }
  const int64_t axis = instruction.dimensions(0);
  Literal result(instruction.shape());
  const StridedView result_view = RowMajorView(result.shape().dims());
  StridedView destination = result_view;
  for (const Literal* operand : operands) {
    if (operand->shape().rank() != result.shape().rank()) {
      return ShapeError(instruction, "operands must have the result's rank");
    }
    StridedCopy(operand->shape().dims(), ElementSize(result), operand->data(),
                RowMajorView(operand->shape().dims()), result.data(),
                destination);
    destination.offset += operand->shape().dim(axis) *
                          result_view.strides[static_cast<std::size_t>(axis)];
  }
  return result;
}

Literal Iota(const HloInstruction& instruction) {
  Literal result(instruction.shape());
  const std::vector<int64_t>& dims = result.shape().dims();
  if (result.ElementCount() == 0) return result;
  std::vector<int64_t> index(dims.size(), 0);
  const auto axis = static_cast<std::size_t>(instruction.iota_dimension());
  int64_t linear = 0;
  do {
    result.SetFromInt64(linear++, index[axis]);
  } while (NextIndex(dims, index));
  return result;
}

// Bytes of `literal` in the physical order of `minor_to_major` (row-major
// when empty): what a buffer with that layout holds.
std::vector<uint8_t> PhysicalBytes(const Literal& literal,
                                   const std::vector<int64_t>& minor_to_major) {
  const std::vector<int64_t>& dims = literal.shape().dims();
  std::vector<uint8_t> bytes(literal.byte_size());
  if (minor_to_major.empty()) {
    std::copy_n(literal.data(), bytes.size(), bytes.begin());
    return bytes;
  }
  // Walk the dimensions major to minor; the destination is dense in that
  // order.
  std::vector<int64_t> physical_dims;
  StridedView source;
  const StridedView row_major = RowMajorView(dims);
  for (auto it = minor_to_major.rbegin(); it != minor_to_major.rend(); ++it) {
    physical_dims.push_back(dims[static_cast<std::size_t>(*it)]);
    source.strides.push_back(row_major.strides[static_cast<std::size_t>(*it)]);
  }
  StridedCopy(physical_dims, ElementSize(literal), literal.data(), source,
              bytes.data(), RowMajorView(physical_dims));
  return bytes;
}

// Bitcast reinterprets the operand's buffer (in its layout) as the result's
// buffer (in its layout); with row-major layouts on both sides this is a
// reshape.
StatusOr<Literal> Bitcast(const HloInstruction& instruction,
                          const Literal& operand,
                          const std::vector<int64_t>& operand_layout) {
  Literal result(instruction.shape());
  if (result.byte_size() != operand.byte_size()) {
    return ShapeError(instruction, "bitcast from " +
                                       operand.shape().ToString() +
                                       " changes the size in bytes");
  }
  const std::vector<uint8_t> bytes = PhysicalBytes(operand, operand_layout);
  const std::vector<int64_t>& layout = instruction.shape().minor_to_major();
  if (layout.empty()) {
    std::copy(bytes.begin(), bytes.end(), result.data());
    return result;
  }
  const std::vector<int64_t>& dims = result.shape().dims();
  std::vector<int64_t> physical_dims;
  StridedView destination;
  const StridedView row_major = RowMajorView(dims);
  for (auto it = layout.rbegin(); it != layout.rend(); ++it) {
    physical_dims.push_back(dims[static_cast<std::size_t>(*it)]);
    destination.strides.push_back(
        row_major.strides[static_cast<std::size_t>(*it)]);
  }
  StridedCopy(physical_dims, ElementSize(result), bytes.data(),
              RowMajorView(physical_dims), result.data(), destination);
  return result;
}

StatusOr<Literal> Reshape(const HloInstruction& instruction,
                          const Literal& operand) {
  Literal result(instruction.shape());
  if (result.byte_size() != operand.byte_size()) {
    return ShapeError(instruction, "reshape from " +
                                       operand.shape().ToString() +
                                       " changes the element count");
  }
  std::copy_n(operand.data(), operand.byte_size(), result.data());
  return result;
}

}  // namespace

int64_t ReadIndex(const Literal& literal, int64_t element) {
  const int64_t value = literal.GetAsInt64(element);
  // u64 values above INT64_MAX come back negative; they are out of range
  // just as large positive values are.
  if (literal.element_type() == PHAL_ELEMENT_TYPE_U64 && value < 0) {
    return INT64_MAX;
  }
  return value;
}

bool IsDataMovement(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBitcast:
    case HloOpcode::kBroadcast:
    case HloOpcode::kConcatenate:
    case HloOpcode::kCopy:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kIota:
    case HloOpcode::kPad:
    case HloOpcode::kReshape:
    case HloOpcode::kReverse:
    case HloOpcode::kSlice:
    case HloOpcode::kTranspose:
      return true;
    default:
      return false;
  }
}

StatusOr<Literal> EvaluateDataMovement(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  switch (instruction.opcode()) {
    case HloOpcode::kIota:
      return Iota(instruction);
    case HloOpcode::kConcatenate:
      return Concatenate(instruction, operands);
    case HloOpcode::kDynamicSlice:
      return DynamicSlice(instruction, operands);
    case HloOpcode::kDynamicUpdateSlice:
      return DynamicUpdateSlice(instruction, operands);
    default:
      break;
  }
  if (operands.empty()) return ShapeError(instruction, "needs an operand");
  const Literal& operand = *operands[0];
  switch (instruction.opcode()) {
    case HloOpcode::kBroadcast:
      return Broadcast(instruction, operand);
    case HloOpcode::kTranspose:
      return Transpose(instruction, operand);
    case HloOpcode::kReverse:
      return Reverse(instruction, operand);
    case HloOpcode::kSlice:
      return Slice(instruction, operand);
    case HloOpcode::kReshape:
      return Reshape(instruction, operand);
    case HloOpcode::kBitcast:
      return Bitcast(instruction, operand,
                     instruction.operand(0)->shape().minor_to_major());
    case HloOpcode::kCopy:
      return operand;
    case HloOpcode::kPad:
      if (operands.size() != 2)
        return ShapeError(instruction, "needs 2 operands");
      return Pad(instruction, operand, *operands[1]);
    default:
      return ShapeError(instruction, "not a data-movement op");
  }
}

}  // namespace phal::reference
