#include "core/hlo/computation.h"

namespace phal {

HloComputation::HloComputation(std::string name) : name_(std::move(name)) {}

HloInstruction* HloComputation::AddInstruction(
    std::unique_ptr<HloInstruction> instruction) {
  HloInstruction* added = instruction.get();
  added->set_parent(this);
  owned_instructions_.push_back(std::move(instruction));
  instructions_.push_back(added);
  if (root_ == nullptr) root_ = added;
  if (added->opcode() == HloOpcode::kParameter &&
      added->parameter_number() >= 0) {
    const auto number = static_cast<std::size_t>(added->parameter_number());
    if (parameters_.size() <= number) parameters_.resize(number + 1, nullptr);
    if (parameters_[number] == nullptr) parameters_[number] = added;
  }
  return added;
}

HloInstruction* HloComputation::GetInstructionWithName(
    std::string_view name) const {
  for (HloInstruction* instruction : instructions_) {
    if (instruction->name() == name) return instruction;
  }
  return nullptr;
}

std::vector<Shape> HloComputation::ParameterShapes() const {
  std::vector<Shape> shapes;
  shapes.reserve(parameters_.size());
  for (const HloInstruction* parameter : parameters_) {
    shapes.push_back(parameter != nullptr ? parameter->shape() : Shape());
  }
  return shapes;
}

bool HloComputation::Identical(const HloComputation& other) const {
  if (name_ != other.name_ ||
      instructions_.size() != other.instructions_.size()) {
    return false;
  }
  if ((root_ == nullptr) != (other.root_ == nullptr)) return false;
  if (root_ != nullptr && root_->name() != other.root_->name()) return false;
  for (std::size_t i = 0; i < instructions_.size(); ++i) {
    if (!instructions_[i]->Identical(*other.instructions_[i])) return false;
  }
  return true;
}

}  // namespace phal
