#include "core/compiler/fused_emitter.h"

#include <cstring>
#include <optional>
#include <string>

#include "core/compiler/kir_ops.h"

namespace phal {
namespace {

std::vector<int64_t> NonUnit(const std::vector<int64_t>& dims,
                             std::vector<std::size_t>* positions) {
  std::vector<int64_t> sizes;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    sizes.push_back(dims[d]);
    if (positions != nullptr) positions->push_back(d);
  }
  return sizes;
}

Status NoKirOp(const HloInstruction& instruction) {
  return Unimplemented(std::string(HloOpcodeName(instruction.opcode())) +
                       " (instruction %" + instruction.name() +
                       ") has no KIR node");
}

// The KIR node computing the elementwise `instruction` from `operands`.
StatusOr<uint32_t> EmitScalarOp(KirBody* body,
                                const HloInstruction& instruction,
                                const std::vector<uint32_t>& operands) {
  std::optional<phal_kir_op_t> op = KirOpForOpcode(instruction.opcode());
  if (!op) return NoKirOp(instruction);
  const ElementType type = instruction.shape().element_type();
  std::vector<int64_t> attributes;
  if (*op == PHAL_KIR_OP_COMPARE) {
    attributes = {KirComparisonDirection(instruction.comparison_direction()),
                  KirComparisonType(instruction.EffectiveComparisonType())};
  } else if (*op == PHAL_KIR_OP_REDUCE_PRECISION) {
    attributes = {instruction.exponent_bits(), instruction.mantissa_bits()};
  } else if (*op == PHAL_KIR_OP_BITCAST_CONVERT &&
             ElementTypeBitWidth(type) !=
                 ElementTypeBitWidth(
                     instruction.operand(0)->shape().element_type())) {
    return Unimplemented("bitcast-convert between widths (instruction %" +
                         instruction.name() + ")");
  }
  return body->Add(*op, type, operands, attributes);
}

}  // namespace

uint32_t EmitLiteralElement(KirBody* body, const Literal& literal,
                            int64_t index) {
  const std::size_t size = ElementTypeByteSize(literal.element_type());
  uint64_t words[2] = {0, 0};
  std::memcpy(words, literal.data() + static_cast<std::size_t>(index) * size,
              size);
  return body->Constant(literal.element_type(), words[0], words[1]);
}

StatusOr<std::vector<uint32_t>> EmitScalarComputation(
    KirBody* body, const HloComputation& computation,
    const std::vector<uint32_t>& parameters) {
  std::map<const HloInstruction*, uint32_t> values;
  for (const HloInstruction* instruction : computation.instructions()) {
    const HloOpcode opcode = instruction->opcode();
    if (opcode == HloOpcode::kTuple &&
        instruction == computation.root_instruction()) {
      continue;
    }
    if (!instruction->shape().IsArray() || instruction->shape().rank() != 0) {
      return Unimplemented("computation %" + computation.name() +
                           " computes on arrays (instruction %" +
                           instruction->name() +
                           "); kernels take scalar computations only");
    }
    if (opcode == HloOpcode::kParameter) {
      values[instruction] =
          parameters[static_cast<std::size_t>(instruction->parameter_number())];
    } else if (opcode == HloOpcode::kConstant) {
      values[instruction] = EmitLiteralElement(body, instruction->literal(), 0);
    } else {
      std::vector<uint32_t> operands;
      for (const HloInstruction* operand : instruction->operands()) {
        operands.push_back(values.at(operand));
      }
      if (opcode == HloOpcode::kMap) {
        PHAL_ASSIGN_OR_RETURN(
            std::vector<uint32_t> results,
            EmitScalarComputation(body, *instruction->to_apply(), operands));
        values[instruction] = results[0];
        continue;
      }
      PHAL_ASSIGN_OR_RETURN(values[instruction],
                            EmitScalarOp(body, *instruction, operands));
    }
  }
  const HloInstruction* root = computation.root_instruction();
  if (root->opcode() != HloOpcode::kTuple) return std::vector{values.at(root)};
  std::vector<uint32_t> results;
  for (const HloInstruction* operand : root->operands()) {
    results.push_back(values.at(operand));
  }
  return results;
}

std::vector<uint32_t> Reindex(KirBody* body, const std::vector<uint32_t>& index,
                              const std::vector<int64_t>& from,
                              const std::vector<int64_t>& to) {
  std::vector<std::size_t> from_positions;
  std::vector<std::size_t> to_positions;
  std::vector<uint32_t> result(to.size(), body->Index64(0));
  if (NonUnit(from, &from_positions) == NonUnit(to, &to_positions)) {
    for (std::size_t i = 0; i < to_positions.size(); ++i) {
      result[to_positions[i]] = index[from_positions[i]];
    }
    return result;
  }
  // Dimensions are taken in groups whose extents have equal products on
  // both sides (a reshape only splits and merges dimensions within such
  // groups), so each result index is computed from its own group's indices
  // only: a dimension both shapes share stays the plain index, and the
  // divisions of a split row index do not reach the columns, which a
  // kernel then reads contiguously (a dot's [1, m, n] sums as the
  // [b, h, w, n] its epilogue reads beside them).
  const bool empty = std::find(from.begin(), from.end(), 0) != from.end() ||
                     std::find(to.begin(), to.end(), 0) != to.end();
  std::size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    const std::size_t i0 = i, j0 = j;
    int64_t from_product = 1, to_product = 1;
    do {
      if (i < from.size() && (from_product <= to_product || j >= to.size())) {
        from_product *= from[i++];
      } else {
        to_product *= to[j++];
      }
    } while (!empty && from_product != to_product &&
             (i < from.size() || j < to.size()));
    if (empty) {
      i = from.size();
      j = to.size();
    }
    uint32_t linear = body->Index64(0);
    int64_t stride = 1;
    for (std::size_t d = i; d-- > i0;) {
      linear = body->AddIndex(linear, body->MultiplyIndex(index[d], stride));
      stride *= from[d];
    }
    stride = 1;
    for (std::size_t d = j; d-- > j0;) {
      if (to[d] != 1) {
        const uint32_t value =
            stride == 1 ? linear : body->DivideIndex(linear, stride);
        result[d] = d == j0 ? value : body->RemainderIndex(value, to[d]);
      }
      stride *= to[d];
    }
  }
  return result;
}

FusedEmitter::FusedEmitter(KirBody* body,
                           const std::set<const HloInstruction*>* members,
                           InputBufferFn input_buffer)
    : body_(body), members_(members), input_buffer_(std::move(input_buffer)) {}

std::vector<uint32_t> FusedEmitter::IterationIndex(std::size_t rank) {
  std::vector<uint32_t> index;
  for (std::size_t d = 0; d < rank; ++d) {
    index.push_back(body_->Index(static_cast<int64_t>(d)));
  }
  return index;
}

StatusOr<uint32_t> FusedEmitter::Emit(const HloInstruction& instruction,
                                      const std::vector<uint32_t>& index) {
  auto bound = bound_.find(&instruction);
  if (bound != bound_.end()) return bound->second;
  const auto key = std::make_pair(&instruction, index);
  auto found = emitted_.find(key);
  if (found != emitted_.end()) return found->second;
  uint32_t node = 0;
  if (instruction.opcode() == HloOpcode::kConstant &&
      instruction.shape().rank() == 0) {
    node = EmitLiteralElement(body_, instruction.literal(), 0);
  } else if (!members_->count(&instruction)) {
    PHAL_ASSIGN_OR_RETURN(uint32_t buffer, input_buffer_(instruction));
    node = body_->Read(instruction.shape().element_type(), buffer, index);
  } else {
    PHAL_ASSIGN_OR_RETURN(node, EmitInline(instruction, index));
  }
  emitted_[key] = node;
  return node;
}

StatusOr<uint32_t> FusedEmitter::EmitInline(
    const HloInstruction& instruction, const std::vector<uint32_t>& index) {
  const Shape& shape = instruction.shape();
  switch (instruction.opcode()) {
    case HloOpcode::kBroadcast: {
      std::vector<uint32_t> operand_index;
      for (int64_t d : instruction.dimensions()) {
        operand_index.push_back(index[static_cast<std::size_t>(d)]);
      }
      return Emit(*instruction.operand(0), operand_index);
    }
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
      return Emit(*instruction.operand(0),
                  Reindex(body_, index, shape.dims(),
                          instruction.operand(0)->shape().dims()));
    case HloOpcode::kTranspose: {
      std::vector<uint32_t> operand_index(index.size());
      for (std::size_t d = 0; d < index.size(); ++d) {
        operand_index[static_cast<std::size_t>(instruction.dimensions()[d])] =
            index[d];
      }
      return Emit(*instruction.operand(0), operand_index);
    }
    case HloOpcode::kSlice: {
      std::vector<uint32_t> operand_index;
      for (std::size_t d = 0; d < index.size(); ++d) {
        operand_index.push_back(body_->AddIndex(
            body_->Index64(instruction.slice_starts()[d]),
            body_->MultiplyIndex(index[d], instruction.slice_strides()[d])));
      }
      return Emit(*instruction.operand(0), operand_index);
    }
    case HloOpcode::kReverse: {
      std::vector<uint32_t> operand_index = index;
      for (int64_t d : instruction.dimensions()) {
        const auto i = static_cast<std::size_t>(d);
        operand_index[i] =
            body_->SubtractIndex(body_->Index64(shape.dim(d) - 1), index[i]);
      }
      return Emit(*instruction.operand(0), operand_index);
    }
    case HloOpcode::kIota: {
      const uint32_t value =
          index[static_cast<std::size_t>(instruction.iota_dimension())];
      if (shape.element_type() == PHAL_ELEMENT_TYPE_S64) return value;
      const uint32_t operands[] = {value};
      return body_->Add(PHAL_KIR_OP_CONVERT, shape.element_type(), operands);
    }
    case HloOpcode::kCopy:
      return Emit(*instruction.operand(0), index);
    case HloOpcode::kConcatenate:
      return EmitConcatenate(instruction, index);
    case HloOpcode::kPad:
      return EmitPad(instruction, index);
    case HloOpcode::kDynamicSlice:
      return EmitDynamicSlice(instruction, index);
    case HloOpcode::kDynamicUpdateSlice:
      return EmitDynamicUpdateSlice(instruction, index);
    default:
      return EmitElementwise(instruction, index);
  }
}

StatusOr<uint32_t> FusedEmitter::EmitElementwise(
    const HloInstruction& instruction, const std::vector<uint32_t>& index) {
  std::vector<uint32_t> operands;
  for (const HloInstruction* operand : instruction.operands()) {
    // select's predicate and clamp's bounds may be scalars that broadcast.
    const bool scalar = operand->shape().rank() == 0;
    PHAL_ASSIGN_OR_RETURN(
        uint32_t node,
        Emit(*operand, scalar ? std::vector<uint32_t>() : index));
    operands.push_back(node);
  }
  if (instruction.opcode() == HloOpcode::kMap) {
    PHAL_ASSIGN_OR_RETURN(
        std::vector<uint32_t> results,
        EmitScalarComputation(body_, *instruction.to_apply(), operands));
    return results[0];
  }
  return EmitScalarOp(body_, instruction, operands);
}

StatusOr<uint32_t> FusedEmitter::EmitConcatenate(
    const HloInstruction& instruction, const std::vector<uint32_t>& index) {
  const auto dimension = static_cast<std::size_t>(instruction.dimensions()[0]);
  const ElementType type = instruction.shape().element_type();
  // Operands are chosen from the last: select(i < end of k, value k, ...).
  std::vector<int64_t> starts;
  int64_t offset = 0;
  for (const HloInstruction* operand : instruction.operands()) {
    starts.push_back(offset);
    offset += operand->shape().dim(static_cast<int64_t>(dimension));
  }
  std::optional<uint32_t> result;
  for (int64_t k = instruction.operand_count() - 1; k >= 0; --k) {
    const HloInstruction& operand = *instruction.operand(k);
    const int64_t size = operand.shape().dim(static_cast<int64_t>(dimension));
    if (size == 0) continue;
    std::vector<uint32_t> operand_index = index;
    operand_index[dimension] = body_->ClampIndex(
        0,
        body_->SubtractIndex(
            index[dimension],
            body_->Index64(starts[static_cast<std::size_t>(k)])),
        size - 1);
    PHAL_ASSIGN_OR_RETURN(uint32_t value, Emit(operand, operand_index));
    if (!result) {
      result = value;
      continue;
    }
    const uint32_t inside = body_->CompareIndex(
        PHAL_KIR_COMPARE_LT, index[dimension],
        body_->Index64(starts[static_cast<std::size_t>(k)] + size));
    const uint32_t operands[] = {inside, value, *result};
    result = body_->Add(PHAL_KIR_OP_SELECT, type, operands);
  }
  return *result;
}

StatusOr<uint32_t> FusedEmitter::EmitPad(const HloInstruction& instruction,
                                         const std::vector<uint32_t>& index) {
  const HloInstruction& operand = *instruction.operand(0);
  std::vector<uint32_t> operand_index;
  uint32_t inside = 0;
  bool always_inside = true;
  for (std::size_t d = 0; d < index.size(); ++d) {
    const PaddingDimension& pad = instruction.padding_config().dimensions[d];
    const int64_t size = operand.shape().dim(static_cast<int64_t>(d));
    const int64_t step = pad.interior + 1;
    const uint32_t shifted =
        body_->SubtractIndex(index[d], body_->Index64(pad.low));
    const uint32_t position = body_->DivideIndex(shifted, step);
    operand_index.push_back(body_->ClampIndex(0, position, size - 1));
    if (pad.low == 0 && pad.high == 0 && pad.interior == 0) continue;
    uint32_t condition = body_->And(
        body_->CompareIndex(PHAL_KIR_COMPARE_GE, shifted, body_->Index64(0)),
        body_->CompareIndex(PHAL_KIR_COMPARE_LT, position,
                            body_->Index64(size)));
    if (step > 1) {
      condition = body_->And(
          condition, body_->CompareIndex(PHAL_KIR_COMPARE_EQ,
                                         body_->RemainderIndex(shifted, step),
                                         body_->Index64(0)));
    }
    inside = always_inside ? condition : body_->And(inside, condition);
    always_inside = false;
  }
  PHAL_ASSIGN_OR_RETURN(uint32_t value, Emit(operand, operand_index));
  if (always_inside) return value;
  PHAL_ASSIGN_OR_RETURN(uint32_t padding, Emit(*instruction.operand(1), {}));
  const uint32_t operands[] = {inside, value, padding};
  return body_->Add(PHAL_KIR_OP_SELECT, instruction.shape().element_type(),
                    operands);
}

StatusOr<uint32_t> FusedEmitter::ClampedStart(const HloInstruction& operand,
                                              int64_t limit) {
  PHAL_ASSIGN_OR_RETURN(uint32_t start, Emit(operand, {}));
  if (operand.shape().element_type() != PHAL_ELEMENT_TYPE_S64) {
    const uint32_t operands[] = {start};
    start = body_->Add(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_S64, operands);
  }
  return body_->ClampIndex(0, start, limit);
}

StatusOr<uint32_t> FusedEmitter::EmitDynamicSlice(
    const HloInstruction& instruction, const std::vector<uint32_t>& index) {
  const HloInstruction& operand = *instruction.operand(0);
  std::vector<uint32_t> operand_index;
  for (std::size_t d = 0; d < index.size(); ++d) {
    const auto dim = static_cast<int64_t>(d);
    PHAL_ASSIGN_OR_RETURN(
        uint32_t start,
        ClampedStart(*instruction.operand(dim + 1),
                     operand.shape().dim(dim) - instruction.shape().dim(dim)));
    operand_index.push_back(body_->AddIndex(start, index[d]));
  }
  return Emit(operand, operand_index);
}

StatusOr<uint32_t> FusedEmitter::EmitDynamicUpdateSlice(
    const HloInstruction& instruction, const std::vector<uint32_t>& index) {
  const HloInstruction& update = *instruction.operand(1);
  std::vector<uint32_t> update_index;
  uint32_t inside = 0;
  for (std::size_t d = 0; d < index.size(); ++d) {
    const auto dim = static_cast<int64_t>(d);
    const int64_t size = update.shape().dim(dim);
    PHAL_ASSIGN_OR_RETURN(uint32_t start,
                          ClampedStart(*instruction.operand(dim + 2),
                                       instruction.shape().dim(dim) - size));
    const uint32_t relative = body_->SubtractIndex(index[d], start);
    update_index.push_back(body_->ClampIndex(0, relative, size - 1));
    const uint32_t condition = body_->And(
        body_->CompareIndex(PHAL_KIR_COMPARE_GE, relative, body_->Index64(0)),
        body_->CompareIndex(PHAL_KIR_COMPARE_LT, relative,
                            body_->Index64(size)));
    inside = d == 0 ? condition : body_->And(inside, condition);
  }
  PHAL_ASSIGN_OR_RETURN(uint32_t original,
                        Emit(*instruction.operand(0), index));
  if (update.shape().ElementCount() == 0) return original;
  PHAL_ASSIGN_OR_RETURN(uint32_t updated, Emit(update, update_index));
  if (index.empty()) return updated;
  const uint32_t operands[] = {inside, updated, original};
  return body_->Add(PHAL_KIR_OP_SELECT, instruction.shape().element_type(),
                    operands);
}

}  // namespace phal
