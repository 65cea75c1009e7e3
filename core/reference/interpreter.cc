#include "core/reference/interpreter.h"

#include <cstring>
#include <string>
#include <unordered_map>

#include "core/hlo/process_groups.h"
#include "core/hlo/verifier.h"
#include "core/reference/batch_norm.h"
#include "core/reference/computation_runner.h"
#include "core/reference/convolution.h"
#include "core/reference/data_movement.h"
#include "core/reference/dot.h"
#include "core/reference/elementwise.h"
#include "core/reference/fft.h"
#include "core/reference/gather_scatter.h"
#include "core/reference/linear_algebra.h"
#include "core/reference/process_context.h"
#include "core/reference/reduce.h"
#include "core/reference/scalar_function.h"
#include "core/reference/sort.h"
#include "core/reference/top_k.h"

namespace phal {
namespace reference {
namespace {

// Where each instruction of a computation sits in post order, where its
// operands sit, and the position of its last user, so that a value is
// released as soon as nothing needs it any more.
struct ComputationPlan {
  std::vector<std::vector<std::size_t>> operand_positions;
  std::vector<std::size_t> last_use;
  std::size_t root = 0;
};

ComputationPlan MakePlan(const HloComputation& computation) {
  ComputationPlan plan;
  std::unordered_map<const HloInstruction*, std::size_t> position;
  const std::vector<HloInstruction*>& instructions = computation.instructions();
  plan.last_use.assign(instructions.size(), 0);
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    position[instructions[i]] = i;
    std::vector<std::size_t> operands;
    for (const HloInstruction* operand : instructions[i]->operands()) {
      const std::size_t operand_position = position.at(operand);
      operands.push_back(operand_position);
      plan.last_use[operand_position] = i;
    }
    plan.operand_positions.push_back(std::move(operands));
  }
  plan.root = position.at(computation.root_instruction());
  return plan;
}

// Prefixes an error with the instruction it came from.
Status Annotate(const HloInstruction& instruction, const Status& status) {
  const std::string prefix = "%" + instruction.name() + " (" +
                             std::string(HloOpcodeName(instruction.opcode())) +
                             ")";
  if (status.message().rfind(prefix, 0) == 0 ||
      status.message().rfind(instruction.name(), 0) == 0) {
    return status;
  }
  return Status(status.code(), prefix + ": " + status.message());
}

class Interpreter final : public ComputationRunner {
 public:
  // Without a process context the interpreter runs a one-process program:
  // replica-id and partition-id are 0 and collectives are refused.
  explicit Interpreter(ProcessContext* process = nullptr) : process_(process) {}

  StatusOr<Literal> Run(const HloComputation& computation,
                        std::span<const Literal* const> arguments) override;

 private:
  const ComputationPlan& PlanFor(const HloComputation& computation);
  StatusOr<Literal> EvaluateInstruction(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands);
  StatusOr<Literal> EvaluateMap(const HloInstruction& instruction,
                                std::span<const Literal* const> operands);
  StatusOr<Literal> EvaluateWhile(const HloInstruction& instruction,
                                  const Literal& initial_state);
  StatusOr<Literal> EvaluateConditional(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands);
  StatusOr<Literal> EvaluateProcessId(const HloInstruction& instruction);
  StatusOr<Literal> EvaluateCollective(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands);

  ProcessContext* process_;
  std::unordered_map<const HloComputation*, ComputationPlan> plans_;
};

const ComputationPlan& Interpreter::PlanFor(const HloComputation& computation) {
  auto it = plans_.find(&computation);
  if (it == plans_.end()) {
    it = plans_.emplace(&computation, MakePlan(computation)).first;
  }
  return it->second;
}

StatusOr<Literal> Interpreter::Run(const HloComputation& computation,
                                   std::span<const Literal* const> arguments) {
  if (computation.root_instruction() == nullptr) {
    return InvalidArgument("computation " + computation.name() +
                           " has no root instruction");
  }
  if (static_cast<int64_t>(arguments.size()) != computation.num_parameters()) {
    return InvalidArgument("computation " + computation.name() + " takes " +
                           std::to_string(computation.num_parameters()) +
                           " arguments, got " +
                           std::to_string(arguments.size()));
  }
  const ComputationPlan& plan = PlanFor(computation);
  const std::vector<HloInstruction*>& instructions = computation.instructions();
  std::vector<Literal> owned(instructions.size());
  std::vector<const Literal*> values(instructions.size(), nullptr);
  std::vector<const Literal*> operands;
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const HloInstruction& instruction = *instructions[i];
    if (instruction.opcode() == HloOpcode::kParameter) {
      values[i] =
          arguments[static_cast<std::size_t>(instruction.parameter_number())];
      continue;
    }
    if (instruction.opcode() == HloOpcode::kConstant) {
      values[i] = &instruction.literal();
      continue;
    }
    if (process_ != nullptr && process_->cancelled()) {
      return Status(PHAL_ABORTED, "abandoned before %" + instruction.name() +
                                      ": another process failed");
    }
    operands.clear();
    for (std::size_t position : plan.operand_positions[i]) {
      operands.push_back(values[position]);
    }
    StatusOr<Literal> result = EvaluateInstruction(instruction, operands);
    if (!result.ok()) return Annotate(instruction, result.status());
    if (!result->shape().Compatible(instruction.shape())) {
      return Internal("%" + instruction.name() + " evaluated to " +
                      result->shape().ToString() + " but its shape is " +
                      instruction.shape().ToString());
    }
    owned[i] = std::move(*result);
    values[i] = &owned[i];
    for (std::size_t position : plan.operand_positions[i]) {
      if (plan.last_use[position] == i && position != plan.root) {
        owned[position] = Literal();
      }
    }
  }
  if (values[plan.root] == &owned[plan.root]) {
    return std::move(owned[plan.root]);
  }
  return *values[plan.root];
}

StatusOr<Literal> Interpreter::EvaluateInstruction(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  const HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::kMap) return EvaluateMap(instruction, operands);
  if (IsElementwise(opcode)) {
    Literal result(instruction.shape());
    PHAL_RETURN_IF_ERROR(EvaluateElementwise(instruction, operands, &result));
    return result;
  }
  if (IsDataMovement(opcode)) {
    return EvaluateDataMovement(instruction, operands);
  }
  switch (opcode) {
    case HloOpcode::kTuple: {
      std::vector<Literal> elements;
      for (const Literal* operand : operands) elements.push_back(*operand);
      return Literal::Tuple(std::move(elements));
    }
    case HloOpcode::kGetTupleElement: {
      const auto& elements = operands[0]->tuple_elements();
      const auto index = static_cast<std::size_t>(instruction.tuple_index());
      if (index >= elements.size()) {
        return InvalidArgument("tuple index " + std::to_string(index) +
                               " is out of range for " +
                               operands[0]->shape().ToString());
      }
      return elements[index];
    }
    case HloOpcode::kOptimizationBarrier:
      return *operands[0];
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
      return Run(*instruction.to_apply(), operands);
    case HloOpcode::kWhile:
      return EvaluateWhile(instruction, *operands[0]);
    case HloOpcode::kConditional:
      return EvaluateConditional(instruction, operands);
    case HloOpcode::kReduce:
      return EvaluateReduce(instruction, operands, this);
    case HloOpcode::kReduceWindow:
      return EvaluateReduceWindow(instruction, operands, this);
    case HloOpcode::kSelectAndScatter:
      return EvaluateSelectAndScatter(instruction, operands, this);
    case HloOpcode::kDot:
      return EvaluateDot(instruction, *operands[0], *operands[1]);
    case HloOpcode::kConvolution:
      return EvaluateConvolution(instruction, *operands[0], *operands[1]);
    case HloOpcode::kGather:
      return EvaluateGather(instruction, *operands[0], *operands[1]);
    case HloOpcode::kScatter:
      return EvaluateScatter(instruction, operands, this);
    case HloOpcode::kSort:
      return EvaluateSort(instruction, operands, this);
    case HloOpcode::kTopK:
      return EvaluateTopK(instruction, *operands[0]);
    case HloOpcode::kFft:
      return EvaluateFft(instruction, *operands[0]);
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormGrad:
      return EvaluateBatchNorm(instruction, operands);
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
      return EvaluateProcessId(instruction);
    default:
      if (IsCollective(opcode)) {
        return EvaluateCollective(instruction, operands);
      }
      if (IsLinearAlgebra(opcode)) {
        return EvaluateLinearAlgebra(instruction, operands);
      }
      return Unimplemented("the reference interpreter has no rule for " +
                           std::string(HloOpcodeName(opcode)));
  }
}

StatusOr<Literal> Interpreter::EvaluateMap(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  ScalarFunction function(*instruction.to_apply(), this);
  Literal result(instruction.shape());
  const std::size_t result_size = ElementTypeByteSize(result.element_type());
  std::vector<const uint8_t*> arguments(operands.size());
  for (int64_t i = 0; i < result.ElementCount(); ++i) {
    for (std::size_t k = 0; k < operands.size(); ++k) {
      const auto size = static_cast<int64_t>(
          ElementTypeByteSize(operands[k]->element_type()));
      arguments[k] = operands[k]->data() + i * size;
    }
    PHAL_RETURN_IF_ERROR(function.Call(arguments));
    std::memcpy(result.data() + i * static_cast<int64_t>(result_size),
                function.result(0), result_size);
  }
  return result;
}

StatusOr<Literal> Interpreter::EvaluateWhile(const HloInstruction& instruction,
                                             const Literal& initial_state) {
  Literal state = initial_state;
  while (true) {
    const Literal* arguments[] = {&state};
    PHAL_ASSIGN_OR_RETURN(Literal condition,
                          Run(*instruction.while_condition(), arguments));
    if (condition.IsTuple() || condition.ElementCount() != 1) {
      return InvalidArgument("the while condition must return pred[]");
    }
    if (condition.GetAsInt64(0) == 0) return state;
    PHAL_ASSIGN_OR_RETURN(state, Run(*instruction.while_body(), arguments));
  }
}

// A pred selector picks branch 0 when true and 1 when false; an integer
// selector picks that branch, or the last one when out of range (as XLA
// and the StableHLO case op do).
StatusOr<Literal> Interpreter::EvaluateConditional(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  const Literal& selector = *operands[0];
  const auto& branches = instruction.branch_computations();
  const auto branch_count = static_cast<int64_t>(branches.size());
  int64_t branch = 0;
  if (selector.element_type() == PHAL_ELEMENT_TYPE_PRED) {
    branch = selector.GetAsInt64(0) != 0 ? 0 : 1;
  } else {
    branch = ReadIndex(selector, 0);
    if (branch < 0 || branch >= branch_count) branch = branch_count - 1;
  }
  if (branch < 0 || static_cast<std::size_t>(branch) + 1 >= operands.size()) {
    return InvalidArgument("conditional has no branch " +
                           std::to_string(branch) + " with an operand");
  }
  const Literal* arguments[] = {operands[static_cast<std::size_t>(branch) + 1]};
  return Run(*branches[static_cast<std::size_t>(branch)], arguments);
}

// The ids of the process this interpreter runs as, u32 scalars as in the
// StableHLO spec.
StatusOr<Literal> Interpreter::EvaluateProcessId(
    const HloInstruction& instruction) {
  const bool replica = instruction.opcode() == HloOpcode::kReplicaId;
  if (process_ == nullptr) {
    if (ProcessGridOf(instruction).process_count() != 1) {
      return FailedPrecondition(
          "the program runs on several processes: evaluate it with "
          "EvaluateSpmd (core/reference/spmd_interpreter.h)");
    }
    return Literal::Scalar(PHAL_ELEMENT_TYPE_U32, 0);
  }
  const int64_t id =
      replica ? process_->replica_id() : process_->partition_id();
  return Literal::Scalar(PHAL_ELEMENT_TYPE_U32, id);
}

StatusOr<Literal> Interpreter::EvaluateCollective(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  if (process_ == nullptr) {
    return FailedPrecondition(
        "a collective needs the processes it runs between: evaluate the "
        "module with EvaluateSpmd (core/reference/spmd_interpreter.h)");
  }
  return process_->EvaluateCollective(instruction, operands, this);
}

}  // namespace

StatusOr<Literal> EvaluateProcess(const HloModule& module,
                                  const std::vector<Literal>& arguments,
                                  ProcessContext* process) {
  const HloComputation* entry = module.entry_computation();
  const std::vector<HloInstruction*>& parameters =
      entry->parameter_instructions();
  if (arguments.size() != parameters.size()) {
    return InvalidArgument("module " + module.name() + " takes " +
                           std::to_string(parameters.size()) +
                           " arguments, got " +
                           std::to_string(arguments.size()));
  }
  std::vector<const Literal*> argument_pointers;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (parameters[i] == nullptr ||
        !arguments[i].shape().Compatible(parameters[i]->shape())) {
      return InvalidArgument(
          "argument " + std::to_string(i) + " of module " + module.name() +
          " has shape " + arguments[i].shape().ToString() +
          ", the parameter expects " +
          (parameters[i] ? parameters[i]->shape().ToString() : "nothing"));
    }
    argument_pointers.push_back(&arguments[i]);
  }
  Interpreter interpreter(process);
  return interpreter.Run(*entry, argument_pointers);
}

}  // namespace reference

StatusOr<Literal> Evaluate(const HloModule& module,
                           const std::vector<Literal>& arguments) {
  // The op implementations rely on well-formed shapes and attributes.
  PHAL_RETURN_IF_ERROR(VerifyModule(module));
  return reference::EvaluateProcess(module, arguments, nullptr);
}

}  // namespace phal
