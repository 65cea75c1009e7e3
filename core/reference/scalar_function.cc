#include "core/reference/scalar_function.h"

#include <cstring>
#include <unordered_map>

#include "core/reference/elementwise.h"

namespace phal::reference {
namespace {

bool IsScalar(const Shape& shape) {
  return shape.IsArray() && shape.rank() == 0;
}

bool RunsDirectly(const HloInstruction& instruction, bool is_root) {
  const HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::kTuple) {
    if (!is_root) return false;
    for (const HloInstruction* operand : instruction.operands()) {
      if (!IsScalar(operand->shape())) return false;
    }
    return true;
  }
  if (!IsScalar(instruction.shape())) return false;
  return opcode == HloOpcode::kParameter || opcode == HloOpcode::kConstant ||
         (IsElementwise(opcode) && opcode != HloOpcode::kMap);
}

}  // namespace

ScalarFunction::ScalarFunction(const HloComputation& computation,
                               ComputationRunner* runner)
    : computation_(computation), runner_(runner) {
  for (const HloInstruction* parameter : computation.parameter_instructions()) {
    parameters_.emplace_back(parameter != nullptr ? parameter->shape()
                                                  : Shape());
  }
  direct_ = PrepareDirectEvaluation();
}

bool ScalarFunction::PrepareDirectEvaluation() {
  const std::vector<HloInstruction*>& instructions =
      computation_.instructions();
  for (const HloInstruction* instruction : instructions) {
    if (!RunsDirectly(*instruction,
                      instruction == computation_.root_instruction())) {
      return false;
    }
  }
  std::unordered_map<const HloInstruction*, std::size_t> position;
  values_.reserve(instructions.size());
  for (const HloInstruction* instruction : instructions) {
    position[instruction] = values_.size();
    values_.emplace_back(instruction->opcode() == HloOpcode::kConstant
                             ? instruction->literal()
                             : Literal(instruction->shape()));
    std::vector<const Literal*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(&values_[position.at(operand)]);
    }
    operands_.push_back(std::move(operands));
  }
  const HloInstruction* root = computation_.root_instruction();
  if (root->opcode() == HloOpcode::kTuple) {
    results_ = operands_[position.at(root)];
  } else {
    results_ = {&values_[position.at(root)]};
  }
  return true;
}

Status ScalarFunction::Call(std::span<const uint8_t* const> arguments) {
  if (arguments.size() != parameters_.size()) {
    return InvalidArgument(
        computation_.name() + " takes " + std::to_string(parameters_.size()) +
        " parameters, got " + std::to_string(arguments.size()));
  }
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::memcpy(parameters_[i].data(), arguments[i],
                parameters_[i].byte_size());
  }
  return direct_ ? CallDirectly() : CallThroughRunner();
}

Status ScalarFunction::CallDirectly() {
  const std::vector<HloInstruction*>& instructions =
      computation_.instructions();
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const HloInstruction& instruction = *instructions[i];
    switch (instruction.opcode()) {
      case HloOpcode::kParameter: {
        const Literal& argument = parameters_[static_cast<std::size_t>(
            instruction.parameter_number())];
        std::memcpy(values_[i].data(), argument.data(), argument.byte_size());
        break;
      }
      case HloOpcode::kConstant:
      case HloOpcode::kTuple:
        break;
      default:
        PHAL_RETURN_IF_ERROR(
            EvaluateElementwise(instruction, operands_[i], &values_[i]));
    }
  }
  return OkStatus();
}

Status ScalarFunction::CallThroughRunner() {
  std::vector<const Literal*> arguments;
  for (const Literal& parameter : parameters_) arguments.push_back(&parameter);
  PHAL_ASSIGN_OR_RETURN(fallback_result_,
                        runner_->Run(computation_, arguments));
  results_.clear();
  if (!fallback_result_.IsTuple()) {
    results_.push_back(&fallback_result_);
    return OkStatus();
  }
  for (const Literal& element : fallback_result_.tuple_elements()) {
    results_.push_back(&element);
  }
  return OkStatus();
}

}  // namespace phal::reference
