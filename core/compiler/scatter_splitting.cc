#include "core/compiler/decompositions.h"

#include <map>
#include <set>

namespace phal {
namespace {

// The parameters `value` depends on, by number.
std::set<int64_t> ParametersReached(const HloInstruction* value) {
  std::set<int64_t> reached;
  std::vector<const HloInstruction*> stack = {value};
  std::set<const HloInstruction*> seen;
  while (!stack.empty()) {
    const HloInstruction* current = stack.back();
    stack.pop_back();
    if (!seen.insert(current).second) continue;
    if (current->opcode() == HloOpcode::kParameter) {
      reached.insert(current->parameter_number());
    }
    for (const HloInstruction* operand : current->operands()) {
      stack.push_back(operand);
    }
  }
  return reached;
}

// A two-parameter computation (current, update) computing `result` of the
// variadic update computation, whose parameters `current` and `update` it
// takes; every other parameter must be unused by `result`.
HloComputation* ExtractCombiner(RewriteContext& context,
                                const HloInstruction* result, int64_t current,
                                int64_t update) {
  auto computation = std::make_unique<HloComputation>(
      "scatter_combiner." +
      std::to_string(context.module()->computations().size()));
  std::map<const HloInstruction*, HloInstruction*> copies;
  const HloComputation& source = *result->parent();
  for (const HloInstruction* instruction : source.instructions()) {
    if (instruction->opcode() == HloOpcode::kParameter) {
      const int64_t number = instruction->parameter_number();
      if (number != current && number != update) continue;
      auto parameter = std::make_unique<HloInstruction>(
          HloOpcode::kParameter, instruction->name(), instruction->shape());
      parameter->set_parameter_number(number == current ? 0 : 1);
      copies[instruction] = computation->AddInstruction(std::move(parameter));
      continue;
    }
    std::vector<HloInstruction*> operands;
    bool available = true;
    for (const HloInstruction* operand : instruction->operands()) {
      auto found = copies.find(operand);
      available = available && found != copies.end();
      if (available) operands.push_back(found->second);
    }
    if (!available) continue;
    copies[instruction] = computation->AddInstruction(CloneInstruction(
        *instruction, operands, instruction->called_computations(),
        instruction->name()));
  }
  computation->set_root_instruction(copies.at(result));
  return context.module()->AddComputation(std::move(computation));
}

}  // namespace

StatusOr<HloInstruction*> SplitVariadicScatter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context) {
  const int64_t n = (source.operand_count() - 1) / 2;
  if (n <= 1) return nullptr;
  const HloComputation& combiner = *called[0];
  const HloInstruction* root = combiner.root_instruction();
  if (root->opcode() != HloOpcode::kTuple || root->operand_count() != n) {
    return Unimplemented("scatter of several operands (instruction %" +
                         source.name() +
                         "): its update computation's root is not a tuple of "
                         "one value per operand");
  }
  std::vector<HloInstruction*> results;
  for (int64_t i = 0; i < n; ++i) {
    const HloInstruction* result = root->operand(i);
    for (int64_t parameter : ParametersReached(result)) {
      if (parameter == i || parameter == n + i) continue;
      return Unimplemented(
          "scatter of several operands (instruction %" + source.name() +
          "): result " + std::to_string(i) +
          " of its update computation reads parameter " +
          std::to_string(parameter) +
          ", so the operands cannot be scattered one at a time");
    }
    HloComputation* single = ExtractCombiner(context, result, i, n + i);
    results.push_back(context.AddNew(
        HloOpcode::kScatter, source.shape().tuple_shapes()[i],
        {operands[i], operands[n], operands[n + 1 + i]},
        [&](HloInstruction& scatter) {
          scatter.set_scatter_dimension_numbers(
              source.scatter_dimension_numbers());
          scatter.set_indices_are_sorted(source.indices_are_sorted());
          scatter.set_unique_indices(source.unique_indices());
          scatter.AppendCalledComputation(single);
        }));
  }
  return context.AddNew(HloOpcode::kTuple, source.shape(), results);
}

}  // namespace phal
