#include "core/hlo/verifier.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/hlo/shape_inference.h"

namespace phal {
namespace {

Status InstructionError(const HloInstruction& instruction,
                        const std::string& message) {
  const std::string computation =
      instruction.parent() != nullptr ? instruction.parent()->name() : "?";
  return InvalidArgument("in computation %" + computation + ", " +
                         std::string(HloOpcodeName(instruction.opcode())) +
                         " %" + instruction.name() + ": " + message);
}

enum class CallState { kUnvisited, kOnPath, kDone };

Status ComputationError(const HloComputation& computation,
                        const std::string& message) {
  return InvalidArgument("computation %" + computation.name() + ": " + message);
}

Status VerifySharding(const HloInstruction& instruction) {
  if (!instruction.sharding().has_value()) return OkStatus();
  Status fits =
      CheckShardingFitsShape(*instruction.sharding(), instruction.shape());
  if (!fits.ok()) return InstructionError(instruction, fits.message());
  return OkStatus();
}

Status VerifyInstructionShape(const HloInstruction& instruction) {
  StatusOr<Shape> inferred = InferShape(instruction);
  if (!inferred.ok()) {
    return InstructionError(instruction, inferred.status().message());
  }
  if (!inferred->Compatible(instruction.shape())) {
    return InstructionError(instruction,
                            "stated shape " + instruction.shape().ToString() +
                                " differs from the inferred shape " +
                                inferred->ToString());
  }
  return OkStatus();
}

Status VerifyGraph(const HloComputation& computation,
                   const std::set<const HloComputation*>& module_computations) {
  std::set<const HloInstruction*> defined;
  std::set<std::string> names;
  for (const HloInstruction* instruction : computation.instructions()) {
    if (!names.insert(instruction->name()).second) {
      return InstructionError(*instruction, "the name is used twice");
    }
    for (const HloInstruction* operand : instruction->operands()) {
      if (operand == nullptr || defined.count(operand) == 0) {
        return InstructionError(
            *instruction,
            "operand " + (operand != nullptr ? "%" + operand->name() : "null") +
                " is not defined earlier in the same computation");
      }
    }
    for (const HloComputation* callee : instruction->called_computations()) {
      if (callee == nullptr || module_computations.count(callee) == 0) {
        return InstructionError(*instruction,
                                "calls a computation outside the module");
      }
    }
    defined.insert(instruction);
  }
  return OkStatus();
}

Status VerifyComputation(
    const HloComputation& computation,
    const std::set<const HloComputation*>& module_computations) {
  if (computation.instructions().empty()) {
    return ComputationError(computation, "has no instructions");
  }
  const HloInstruction* root = computation.root_instruction();
  if (root == nullptr || root->parent() != &computation) {
    return ComputationError(computation, "has no root in the computation");
  }
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    if (computation.parameter_instruction(i) == nullptr) {
      return ComputationError(computation,
                              "has no parameter " + std::to_string(i));
    }
  }
  PHAL_RETURN_IF_ERROR(VerifyGraph(computation, module_computations));
  for (const HloInstruction* instruction : computation.instructions()) {
    PHAL_RETURN_IF_ERROR(VerifyInstructionShape(*instruction));
    PHAL_RETURN_IF_ERROR(VerifySharding(*instruction));
  }
  return OkStatus();
}

// Depth-first search of the call graph from `root` for a call back into a
// computation on the current call path. Iterative, so that a long chain of
// calls cannot exhaust the stack.
Status VerifyNoRecursion(const HloComputation* root,
                         std::map<const HloComputation*, CallState>* state) {
  struct Frame {
    const HloComputation* computation;
    std::size_t instruction = 0;
    std::size_t callee = 0;
  };
  std::vector<Frame> path = {{root}};
  (*state)[root] = CallState::kOnPath;
  while (!path.empty()) {
    Frame& frame = path.back();
    const auto& instructions = frame.computation->instructions();
    if (frame.instruction == instructions.size()) {
      (*state)[frame.computation] = CallState::kDone;
      path.pop_back();
      continue;
    }
    const HloInstruction* instruction = instructions[frame.instruction];
    if (frame.callee == instruction->called_computations().size()) {
      ++frame.instruction;
      frame.callee = 0;
      continue;
    }
    const HloComputation* callee =
        instruction->called_computations()[frame.callee++];
    const CallState callee_state = (*state)[callee];
    if (callee_state == CallState::kOnPath) {
      return InstructionError(*instruction,
                              "calls %" + callee->name() +
                                  ", which is already on the call stack "
                                  "(recursion is not allowed)");
    }
    if (callee_state == CallState::kUnvisited) {
      (*state)[callee] = CallState::kOnPath;
      path.push_back({callee});
    }
  }
  return OkStatus();
}

}  // namespace

Status VerifyModule(const HloModule& module) {
  if (module.replica_count() < 1 || module.num_partitions() < 1) {
    return InvalidArgument("module " + module.name() +
                           ": replica_count and num_partitions must be at "
                           "least 1");
  }
  if (module.entry_computation() == nullptr) {
    return InvalidArgument("module " + module.name() +
                           " has no entry computation");
  }
  std::set<const HloComputation*> computations;
  std::set<std::string> names;
  for (const HloComputation* computation : module.computations()) {
    if (!names.insert(computation->name()).second) {
      return ComputationError(*computation, "the name is used twice");
    }
    computations.insert(computation);
  }
  if (computations.count(module.entry_computation()) == 0) {
    return InvalidArgument("module " + module.name() +
                           ": the entry computation is not in the module");
  }
  for (const HloComputation* computation : module.computations()) {
    PHAL_RETURN_IF_ERROR(VerifyComputation(*computation, computations));
  }
  std::map<const HloComputation*, CallState> state;
  for (const HloComputation* computation : module.computations()) {
    if (state[computation] == CallState::kUnvisited) {
      PHAL_RETURN_IF_ERROR(VerifyNoRecursion(computation, &state));
    }
  }
  return OkStatus();
}

}  // namespace phal
