#include "core/hlo/hlo_builder.h"

#include <cctype>
#include <utility>

#include "core/hlo/shape_inference.h"

namespace phal {

std::string HloNameFrom(std::string text) {
  for (char& c : text) {
    const bool allowed = std::isalnum(static_cast<unsigned char>(c)) ||
                         c == '_' || c == '.' || c == '-';
    if (!allowed) c = '_';
  }
  return text;
}

HloBuilder::HloBuilder(std::string computation_name)
    : computation_(
          std::make_unique<HloComputation>(std::move(computation_name))) {}

std::unique_ptr<HloInstruction> HloBuilder::Create(
    HloOpcode opcode, Shape shape,
    const std::vector<HloInstruction*>& operands) {
  std::string name =
      std::string(HloOpcodeName(opcode)) + "." + std::to_string(next_id_++);
  auto instruction = std::make_unique<HloInstruction>(opcode, std::move(name),
                                                      std::move(shape));
  for (HloInstruction* operand : operands) instruction->AppendOperand(operand);
  return instruction;
}

StatusOr<HloInstruction*> HloBuilder::Add(
    std::unique_ptr<HloInstruction> instruction) {
  const HloOpcode opcode = instruction->opcode();
  const bool per_process = IsCollective(opcode) ||
                           opcode == HloOpcode::kReplicaId ||
                           opcode == HloOpcode::kPartitionId;
  PHAL_ASSIGN_OR_RETURN(Shape shape,
                        per_process ? InferCollectiveShape(*instruction, grid_)
                                    : InferShape(*instruction));
  instruction->mutable_shape() = std::move(shape);
  return computation_->AddInstruction(std::move(instruction));
}

HloInstruction* HloBuilder::AddParameter(const Shape& shape,
                                         const std::string& name) {
  const std::string base = HloNameFrom(name.empty() ? "parameter" : name);
  auto parameter = std::make_unique<HloInstruction>(
      HloOpcode::kParameter, base + "." + std::to_string(next_id_++), shape);
  parameter->set_parameter_number(next_parameter_++);
  return computation_->AddInstruction(std::move(parameter));
}

StatusOr<HloInstruction*> HloBuilder::Constant(Literal literal) {
  auto constant = Create(HloOpcode::kConstant, literal.shape(), {});
  constant->set_literal(std::move(literal));
  return computation_->AddInstruction(std::move(constant));
}

StatusOr<HloInstruction*> HloBuilder::ScalarConstant(ElementType type,
                                                     double value) {
  Literal literal(Shape(type, {}));
  literal.SetFromDouble(0, value);
  return Constant(std::move(literal));
}

StatusOr<HloInstruction*> HloBuilder::FullLike(const HloInstruction* like,
                                               double value) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * scalar,
                        ScalarConstant(like->shape().element_type(), value));
  return Broadcast(scalar, like->shape().dims(), {});
}

StatusOr<HloInstruction*> HloBuilder::Unary(HloOpcode opcode,
                                            HloInstruction* operand) {
  return Add(Create(opcode, Shape(), {operand}));
}

StatusOr<HloInstruction*> HloBuilder::Binary(HloOpcode opcode,
                                             HloInstruction* lhs,
                                             HloInstruction* rhs) {
  return Add(Create(opcode, Shape(), {lhs, rhs}));
}

StatusOr<HloInstruction*> HloBuilder::Compare(ComparisonDirection direction,
                                              HloInstruction* lhs,
                                              HloInstruction* rhs,
                                              ComparisonType type) {
  auto compare = Create(HloOpcode::kCompare, Shape(), {lhs, rhs});
  compare->set_comparison_direction(direction);
  compare->set_comparison_type(type);
  return Add(std::move(compare));
}

StatusOr<HloInstruction*> HloBuilder::Select(HloInstruction* predicate,
                                             HloInstruction* on_true,
                                             HloInstruction* on_false) {
  return Add(
      Create(HloOpcode::kSelect, Shape(), {predicate, on_true, on_false}));
}

StatusOr<HloInstruction*> HloBuilder::Convert(HloInstruction* operand,
                                              ElementType type) {
  if (operand->shape().element_type() == type) return operand;
  return Add(Create(HloOpcode::kConvert, Shape(type, operand->shape().dims()),
                    {operand}));
}

StatusOr<HloInstruction*> HloBuilder::Conjugate(HloInstruction* operand) {
  if (!IsComplex(operand->shape().element_type())) return operand;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * real,
                        Unary(HloOpcode::kReal, operand));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * imag,
                        Unary(HloOpcode::kImag, operand));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * negated,
                        Unary(HloOpcode::kNegate, imag));
  return Binary(HloOpcode::kComplex, real, negated);
}

StatusOr<HloInstruction*> HloBuilder::Broadcast(
    HloInstruction* operand, const std::vector<int64_t>& dims,
    const std::vector<int64_t>& mapping) {
  // Size-1 operand dimensions that grow (StableHLO's broadcast_in_dim allows
  // them) are reshaped away first, so the broadcast only adds dimensions.
  const Shape& shape = operand->shape();
  HloInstruction* source = operand;
  std::vector<int64_t> kept_mapping = mapping;
  if (shape.IsArray() && mapping.size() == shape.dims().size()) {
    std::vector<int64_t> kept_dims;
    kept_mapping.clear();
    for (std::size_t i = 0; i < mapping.size(); ++i) {
      const int64_t target = mapping[i];
      const bool grows = shape.dims()[i] == 1 && target >= 0 &&
                         target < static_cast<int64_t>(dims.size()) &&
                         dims[static_cast<std::size_t>(target)] != 1;
      if (grows) continue;
      kept_dims.push_back(shape.dims()[i]);
      kept_mapping.push_back(target);
    }
    if (kept_dims.size() != shape.dims().size()) {
      PHAL_ASSIGN_OR_RETURN(source, Reshape(operand, kept_dims));
    }
  }
  auto broadcast = Create(HloOpcode::kBroadcast,
                          Shape(shape.element_type(), dims), {source});
  broadcast->set_dimensions(kept_mapping);
  return Add(std::move(broadcast));
}

StatusOr<HloInstruction*> HloBuilder::Reshape(
    HloInstruction* operand, const std::vector<int64_t>& dims) {
  return Add(Create(HloOpcode::kReshape,
                    Shape(operand->shape().element_type(), dims), {operand}));
}

StatusOr<HloInstruction*> HloBuilder::Iota(const Shape& shape,
                                           int64_t dimension) {
  auto iota = Create(HloOpcode::kIota, shape, {});
  iota->set_iota_dimension(dimension);
  return Add(std::move(iota));
}

StatusOr<HloInstruction*> HloBuilder::Slice(HloInstruction* operand,
                                            std::vector<int64_t> starts,
                                            std::vector<int64_t> limits) {
  std::vector<int64_t> strides(starts.size(), 1);
  return Slice(operand, std::move(starts), std::move(limits),
               std::move(strides));
}

StatusOr<HloInstruction*> HloBuilder::Slice(HloInstruction* operand,
                                            std::vector<int64_t> starts,
                                            std::vector<int64_t> limits,
                                            std::vector<int64_t> strides) {
  auto slice = Create(HloOpcode::kSlice, Shape(), {operand});
  slice->set_slice(std::move(starts), std::move(limits), std::move(strides));
  return Add(std::move(slice));
}

StatusOr<HloInstruction*> HloBuilder::Cholesky(HloInstruction* a, bool lower) {
  auto cholesky = Create(HloOpcode::kCholesky, Shape(), {a});
  LinearAlgebraOptions options;
  options.lower = lower;
  cholesky->set_linear_algebra(options);
  return Add(std::move(cholesky));
}

StatusOr<HloInstruction*> HloBuilder::TriangularSolve(
    HloInstruction* a, HloInstruction* b, const LinearAlgebraOptions& options) {
  auto solve = Create(HloOpcode::kTriangularSolve, Shape(), {a, b});
  solve->set_linear_algebra(options);
  return Add(std::move(solve));
}

StatusOr<HloInstruction*> HloBuilder::Tuple(
    const std::vector<HloInstruction*>& elements) {
  return Add(Create(HloOpcode::kTuple, Shape(), elements));
}

StatusOr<HloInstruction*> HloBuilder::GetTupleElement(HloInstruction* tuple,
                                                      int64_t index) {
  auto element = Create(HloOpcode::kGetTupleElement, Shape(), {tuple});
  element->set_tuple_index(index);
  return Add(std::move(element));
}

StatusOr<std::vector<HloInstruction*>> HloBuilder::Untuple(
    HloInstruction* value) {
  if (!value->shape().IsTuple()) return std::vector<HloInstruction*>{value};
  std::vector<HloInstruction*> elements;
  const auto count = static_cast<int64_t>(value->shape().tuple_shapes().size());
  for (int64_t i = 0; i < count; ++i) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * element, GetTupleElement(value, i));
    elements.push_back(element);
  }
  return elements;
}

std::unique_ptr<HloComputation> HloBuilder::Build(HloInstruction* root) {
  computation_->set_root_instruction(root);
  return std::move(computation_);
}

}  // namespace phal
