#include "core/compiler/hlo_rewriter.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace phal {
namespace {

void MarkLive(const HloInstruction* instruction,
              std::set<const HloInstruction*>* live) {
  std::vector<const HloInstruction*> stack = {instruction};
  while (!stack.empty()) {
    const HloInstruction* current = stack.back();
    stack.pop_back();
    if (!live->insert(current).second) continue;
    for (const HloInstruction* operand : current->operands()) {
      stack.push_back(operand);
    }
  }
}

void MarkCalled(const HloComputation* computation,
                std::set<const HloComputation*>* called) {
  if (!called->insert(computation).second) return;
  for (const HloInstruction* instruction : computation->instructions()) {
    for (const HloComputation* callee : instruction->called_computations()) {
      MarkCalled(callee, called);
    }
  }
}

// One more than the largest N of the names "<opcode>.rw<N>" an earlier
// rewrite gave, so that the names this rewrite gives stay unique.
int64_t FirstFreeRewriteId(const HloModule& module) {
  int64_t next = 0;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      const std::string& name = instruction->name();
      const std::size_t mark = name.rfind(".rw");
      if (mark == std::string::npos || mark + 3 == name.size()) continue;
      const std::string digits = name.substr(mark + 3);
      if (digits.find_first_not_of("0123456789") != std::string::npos ||
          digits.size() > 18) {
        continue;
      }
      next = std::max<int64_t>(next, std::stoll(digits) + 1);
    }
  }
  return next;
}

}  // namespace

std::unique_ptr<HloInstruction> CloneInstruction(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, std::string name) {
  auto clone = std::make_unique<HloInstruction>(
      source.opcode(), std::move(name), source.shape());
  for (HloInstruction* operand : operands) clone->AppendOperand(operand);
  for (HloComputation* computation : called) {
    clone->AppendCalledComputation(computation);
  }
  clone->CopyAttributesFrom(source);
  return clone;
}

HloComputation* CopyComputation(
    const HloComputation& source, HloModule* module,
    std::unordered_map<const HloComputation*, HloComputation*>* copies) {
  auto known = copies->find(&source);
  if (known != copies->end()) return known->second;
  auto copy = std::make_unique<HloComputation>(source.name());
  std::unordered_map<const HloInstruction*, HloInstruction*> copied;
  for (const HloInstruction* instruction : source.instructions()) {
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(copied.at(operand));
    }
    std::vector<HloComputation*> called;
    for (const HloComputation* callee : instruction->called_computations()) {
      called.push_back(CopyComputation(*callee, module, copies));
    }
    copied[instruction] = copy->AddInstruction(
        CloneInstruction(*instruction, operands, called, instruction->name()));
  }
  copy->set_root_instruction(copied.at(source.root_instruction()));
  HloComputation* added = module->AddComputation(std::move(copy));
  (*copies)[&source] = added;
  return added;
}

HloInstruction* RewriteContext::Add(
    const HloInstruction& prototype,
    const std::vector<HloInstruction*>& operands) {
  return computation_->AddInstruction(
      CloneInstruction(prototype, operands, prototype.called_computations(),
                       std::string(HloOpcodeName(prototype.opcode())) + ".rw" +
                           std::to_string((*next_id_)++)));
}

HloInstruction* RewriteContext::AddNew(
    HloOpcode opcode, Shape shape, const std::vector<HloInstruction*>& operands,
    const std::function<void(HloInstruction&)>& configure) {
  HloInstruction prototype(opcode, "new", std::move(shape));
  if (configure) configure(prototype);
  return Add(prototype, operands);
}

HloInstruction* AddParameter(HloComputation& computation, int64_t number,
                             const Shape& shape) {
  auto parameter = std::make_unique<HloInstruction>(
      HloOpcode::kParameter, "p" + std::to_string(number), shape);
  parameter->set_parameter_number(number);
  return computation.AddInstruction(std::move(parameter));
}

std::vector<int64_t> SwapMinor(int64_t rank) {
  std::vector<int64_t> permutation(static_cast<std::size_t>(rank));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::swap(permutation[permutation.size() - 1],
            permutation[permutation.size() - 2]);
  return permutation;
}

HloInstruction* AddTranspose(RewriteContext& context, HloInstruction* value,
                             const std::vector<int64_t>& permutation) {
  bool identity = true;
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < permutation.size(); ++i) {
    identity &= permutation[i] == static_cast<int64_t>(i);
    dims.push_back(value->shape().dim(permutation[i]));
  }
  if (identity) return value;
  return context.AddNew(
      HloOpcode::kTranspose, Shape(value->shape().element_type(), dims),
      {value}, [&](HloInstruction& t) { t.set_dimensions(permutation); });
}

HloComputation* RewriteContext::AddBinaryComputation(
    HloOpcode opcode, ElementType type, const std::string& prefix) {
  auto computation = std::make_unique<HloComputation>(
      prefix + "." + std::to_string(module_->computations().size()));
  const Shape scalar(type, {});
  HloInstruction* parameters[] = {AddParameter(*computation, 0, scalar),
                                  AddParameter(*computation, 1, scalar)};
  auto result = std::make_unique<HloInstruction>(opcode, "result", scalar);
  result->AppendOperand(parameters[0]);
  result->AppendOperand(parameters[1]);
  computation->set_root_instruction(
      computation->AddInstruction(std::move(result)));
  return module_->AddComputation(std::move(computation));
}

StatusOr<std::unique_ptr<HloModule>> RewriteModule(const HloModule& module,
                                                   const RewriteFn& rewrite,
                                                   bool drop_dead) {
  auto result = std::make_unique<HloModule>(module.name());
  result->set_replica_count(module.replica_count());
  result->set_num_partitions(module.num_partitions());
  std::set<const HloComputation*> called;
  MarkCalled(module.entry_computation(), &called);
  std::map<const HloComputation*, HloComputation*> computations;
  int64_t next_id = FirstFreeRewriteId(module);
  for (const HloComputation* computation : module.computations()) {
    if (drop_dead && !called.count(computation)) continue;
    auto copy = std::make_unique<HloComputation>(computation->name());
    RewriteContext context(result.get(), copy.get(), &next_id);
    std::set<const HloInstruction*> live;
    MarkLive(computation->root_instruction(), &live);
    std::map<const HloInstruction*, HloInstruction*> mapped;
    for (const HloInstruction* instruction : computation->instructions()) {
      if (drop_dead && !live.count(instruction) &&
          instruction->opcode() != HloOpcode::kParameter) {
        continue;
      }
      std::vector<HloInstruction*> operands;
      for (const HloInstruction* operand : instruction->operands()) {
        operands.push_back(mapped.at(operand));
      }
      std::vector<HloComputation*> callees;
      for (const HloComputation* callee : instruction->called_computations()) {
        callees.push_back(computations.at(callee));
      }
      PHAL_ASSIGN_OR_RETURN(HloInstruction * replacement,
                            rewrite(*instruction, operands, callees, context));
      if (replacement == nullptr) {
        replacement = copy->AddInstruction(CloneInstruction(
            *instruction, operands, callees, instruction->name()));
      }
      mapped[instruction] = replacement;
    }
    copy->set_root_instruction(mapped.at(computation->root_instruction()));
    HloComputation* added = result->AddComputation(std::move(copy));
    computations[computation] = added;
    if (computation == module.entry_computation()) {
      result->set_entry_computation(added);
    }
  }
  return result;
}

namespace {

class RewritePass final : public HloPass {
 public:
  RewritePass(const char* name, RewriteFn rewrite, bool drop_dead)
      : name_(name), rewrite_(std::move(rewrite)), drop_dead_(drop_dead) {}
  const char* name() const override { return name_; }
  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    return RewriteModule(module, rewrite_, drop_dead_);
  }

 private:
  const char* name_;
  RewriteFn rewrite_;
  bool drop_dead_;
};

}  // namespace

std::unique_ptr<HloPass> MakeRewritePass(const char* name, RewriteFn rewrite,
                                         bool drop_dead) {
  return std::make_unique<RewritePass>(name, std::move(rewrite), drop_dead);
}

}  // namespace phal
