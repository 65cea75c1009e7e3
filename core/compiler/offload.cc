#include "core/compiler/offload.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/compiler/counted_loop.h"
#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/process_ops.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"

namespace phal {
namespace {

// Instructions that are never asked about: parameters and constants join
// no part (a part that uses a constant gets a copy of it); tuples and
// get-tuple-element join the part of their operands when those are all
// accepted.
bool IsStructural(HloOpcode opcode) {
  return opcode == HloOpcode::kParameter || opcode == HloOpcode::kConstant ||
         opcode == HloOpcode::kTuple || opcode == HloOpcode::kGetTupleElement;
}

bool IsLeaf(const HloInstruction& instruction) {
  return instruction.opcode() == HloOpcode::kParameter ||
         instruction.opcode() == HloOpcode::kConstant;
}

// What a part recomputes rather than reads: an iota, or a broadcast,
// reshape or elementwise operation of constants and such values. Like the
// fusion planner's duplicable values, these are cheaper to compute where
// they are read than to pass between parts through memory.
bool IsConstantExpression(
    const HloInstruction& instruction,
    const std::unordered_set<const HloInstruction*>& copied) {
  const HloOpcode opcode = instruction.opcode();
  if (!instruction.shape().IsArray() ||
      !instruction.called_computations().empty()) {
    return false;
  }
  if (opcode == HloOpcode::kIota) return true;
  if (opcode != HloOpcode::kBroadcast && opcode != HloOpcode::kReshape &&
      !IsElementwise(opcode)) {
    return false;
  }
  for (const HloInstruction* operand : instruction.operands()) {
    if (operand->opcode() != HloOpcode::kConstant &&
        copied.count(operand) == 0) {
      return false;
    }
  }
  return true;
}

bool IsHostControlFlow(HloOpcode opcode) {
  return opcode == HloOpcode::kWhile || opcode == HloOpcode::kConditional ||
         opcode == HloOpcode::kCall;
}

// The parts of one computation: part_of maps each member to its part.
// An accepted instruction's part is the largest number of non-members on
// a path to it that some member reaches; two members of one part therefore
// have no path between them through a non-member (it would make the later
// one's number larger), so each part is convex.
// `copied`: accepted constant expressions, which join no part and are
// copied into each part that reads them.
struct ComputationParts {
  std::unordered_map<const HloInstruction*, int> part_of;
  std::unordered_set<const HloInstruction*> copied;
  int count = 0;
};

// In a while body, an update of the loop state (a dynamic-update-slice or
// scatter of a parameter's element, a scan's stacked outputs) runs in place
// as a kernel, where a part would copy the whole state every trip.
bool UpdatesLoopStateInPlace(const HloInstruction& instruction) {
  if (instruction.opcode() != HloOpcode::kDynamicUpdateSlice &&
      instruction.opcode() != HloOpcode::kScatter) {
    return false;
  }
  const HloInstruction* target = instruction.operand(0);
  while (target->opcode() == HloOpcode::kGetTupleElement) {
    target = target->operand(0);
  }
  return target->opcode() == HloOpcode::kParameter;
}

StatusOr<ComputationParts> FindParts(const HloComputation& computation,
                                     const OffloadRules& rules,
                                     bool while_body) {
  std::unordered_map<const HloInstruction*, bool> accepted;
  std::unordered_map<const HloInstruction*, int> depth;
  // Whether a member is the instruction or reaches it.
  std::unordered_map<const HloInstruction*, bool> after_member;
  std::map<int, int> part_of_depth;
  ComputationParts parts;
  // The root's own values are computed by a part, never copied.
  std::unordered_set<const HloInstruction*> returned = {
      computation.root_instruction()};
  if (computation.root_instruction()->opcode() == HloOpcode::kTuple) {
    for (const HloInstruction* operand :
         computation.root_instruction()->operands()) {
      returned.insert(operand);
    }
  }
  for (const HloInstruction* instruction : computation.instructions()) {
    const HloOpcode opcode = instruction->opcode();
    bool takes = false;
    if (returned.count(instruction) == 0 &&
        IsConstantExpression(*instruction, parts.copied)) {
      PHAL_ASSIGN_OR_RETURN(const bool copy, rules.accepts(*instruction));
      if (copy) {
        parts.copied.insert(instruction);
        accepted[instruction] = false;
        depth[instruction] = 0;
        after_member[instruction] = false;
        continue;
      }
    }
    if (opcode == HloOpcode::kTuple || opcode == HloOpcode::kGetTupleElement) {
      // Joins the part of its operands when each is accepted or a
      // parameter or constant, and one is accepted.
      bool any = false;
      bool all = true;
      for (const HloInstruction* operand : instruction->operands()) {
        any = any || accepted.at(operand);
        all = all && (accepted.at(operand) || IsLeaf(*operand) ||
                      parts.copied.count(operand) != 0);
      }
      takes = any && all;
    } else if (!IsStructural(opcode) && !IsProcessOp(opcode) &&
               (rules.control_flow || !IsHostControlFlow(opcode)) &&
               !(while_body && UpdatesLoopStateInPlace(*instruction))) {
      PHAL_ASSIGN_OR_RETURN(takes, rules.accepts(*instruction));
    }
    accepted[instruction] = takes;
    // Only a non-member that some member reaches can lie on a path between
    // two members: the others (parameters, constants, what reads only
    // them) separate no parts.
    int d = 0;
    bool after = takes;
    for (const HloInstruction* operand : instruction->operands()) {
      const bool barrier = !accepted.at(operand) && after_member.at(operand);
      d = std::max(d, depth.at(operand) + (barrier ? 1 : 0));
      after = after || after_member.at(operand);
    }
    depth[instruction] = d;
    after_member[instruction] = after;
    if (!takes) continue;
    auto [found, added] = part_of_depth.emplace(d, parts.count);
    if (added) ++parts.count;
    parts.part_of[instruction] = found->second;
  }
  // Parts numbered in the order of their depth.
  std::map<int, int> renumber;
  int next = 0;
  for (const auto& [d, part] : part_of_depth) renumber[part] = next++;
  for (auto& [instruction, part] : parts.part_of) part = renumber.at(part);
  return parts;
}

// The part's computation and the computations it calls, as a module of its
// own printed as XLA HLO text.
std::string PartText(const HloComputation& part, const HloModule& module) {
  HloModule text_module(part.name());
  text_module.set_replica_count(module.replica_count());
  text_module.set_num_partitions(module.num_partitions());
  std::unordered_map<const HloComputation*, HloComputation*> copies;
  text_module.set_entry_computation(
      CopyComputation(part, &text_module, &copies));
  return HloModuleToText(text_module);
}

// Rebuilds one computation the host runs with each part moved into a
// computation of its own and called where it stood.
class PartBuilder {
 public:
  PartBuilder(
      const HloComputation& source, const ComputationParts& parts,
      const OffloadRules& rules, bool is_entry, HloModule* module,
      std::unordered_map<const HloComputation*, HloComputation*>* copies,
      std::set<std::string>* names, std::vector<OffloadedPart>* made,
      std::map<std::string, int64_t>* trip_counts)
      : source_(source),
        parts_(parts),
        rules_(rules),
        is_entry_(is_entry),
        module_(module),
        copies_(copies),
        names_(names),
        made_(made),
        trip_counts_(trip_counts),
        result_(std::make_unique<HloComputation>(source.name())),
        emitted_(static_cast<std::size_t>(parts.count), false) {
    for (std::size_t i = 0; i < source.instructions().size(); ++i) {
      position_[source.instructions()[i]] = i;
    }
  }

  HloComputation* Build() {
    // Copied constant expressions are emitted where an instruction outside
    // the parts reads them.
    for (const HloInstruction* instruction : source_.instructions()) {
      if (parts_.copied.count(instruction) == 0) Emit(instruction);
    }
    Emit(source_.root_instruction());
    result_->set_root_instruction(value_.at(source_.root_instruction()));
    HloComputation* added = module_->AddComputation(std::move(result_));
    (*copies_)[&source_] = added;
    return added;
  }

 private:
  int PartOf(const HloInstruction* instruction) const {
    auto found = parts_.part_of.find(instruction);
    return found == parts_.part_of.end() ? -1 : found->second;
  }

  std::vector<HloComputation*> Called(const HloInstruction& instruction) {
    std::vector<HloComputation*> called;
    for (const HloComputation* callee : instruction.called_computations()) {
      called.push_back(copies_->at(callee));
    }
    return called;
  }

  void Emit(const HloInstruction* instruction) {
    if (value_.count(instruction) != 0) return;
    const int part = PartOf(instruction);
    if (part >= 0) {
      EmitPart(part);
      return;
    }
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      Emit(operand);
      operands.push_back(value_.at(operand));
    }
    value_[instruction] = result_->AddInstruction(CloneInstruction(
        *instruction, operands, Called(*instruction), instruction->name()));
  }

  std::string UniqueName(const std::string& base) {
    std::string name = base;
    for (int n = 1; names_->count(name) != 0 ||
                    source_.GetInstructionWithName(name) != nullptr;
         ++n) {
      name = base + "." + std::to_string(n);
    }
    names_->insert(name);
    return name;
  }

  void EmitPart(int part) {
    if (emitted_[static_cast<std::size_t>(part)]) return;
    emitted_[static_cast<std::size_t>(part)] = true;
    std::vector<const HloInstruction*> members;
    for (const HloInstruction* instruction : source_.instructions()) {
      if (PartOf(instruction) == part) members.push_back(instruction);
    }
    // The values the part reads from outside (constants are copied in):
    // the computation's parameters by number first, then the others in
    // the computation's order.
    std::vector<const HloInstruction*> inputs;
    std::unordered_set<const HloInstruction*> seen;
    for (const HloInstruction* member : members) {
      for (const HloInstruction* operand : member->operands()) {
        if (PartOf(operand) == part ||
            operand->opcode() == HloOpcode::kConstant ||
            parts_.copied.count(operand) != 0 || !seen.insert(operand).second) {
          continue;
        }
        inputs.push_back(operand);
      }
    }
    auto order = [&](const HloInstruction* a, const HloInstruction* b) {
      const bool pa = a->opcode() == HloOpcode::kParameter;
      const bool pb = b->opcode() == HloOpcode::kParameter;
      if (pa != pb) return pa;
      if (pa) return a->parameter_number() < b->parameter_number();
      return position_.at(a) < position_.at(b);
    };
    std::sort(inputs.begin(), inputs.end(), order);
    for (const HloInstruction* input : inputs) Emit(input);

    // The values the part gives out: the computation's root, or the
    // members its root tuple lists in that order, then every other member
    // used outside the part, in the computation's order.
    std::vector<const HloInstruction*> outputs;
    std::unordered_set<const HloInstruction*> output_set;
    auto add_output = [&](const HloInstruction* member) {
      if (output_set.insert(member).second) outputs.push_back(member);
    };
    const HloInstruction* root = source_.root_instruction();
    if (PartOf(root) == part) {
      add_output(root);
    } else if (root->opcode() == HloOpcode::kTuple) {
      for (const HloInstruction* operand : root->operands()) {
        if (PartOf(operand) == part) add_output(operand);
      }
    }
    for (const HloInstruction* member : members) {
      for (const HloInstruction* user : member->users()) {
        if (PartOf(user) != part) add_output(member);
      }
    }

    const std::string name = UniqueName(source_.name() + ".offload." +
                                        std::to_string(made_->size()));
    auto computation = std::make_unique<HloComputation>(name);
    std::unordered_map<const HloInstruction*, HloInstruction*> inner;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      auto parameter = std::make_unique<HloInstruction>(
          HloOpcode::kParameter, inputs[i]->name(), inputs[i]->shape());
      parameter->set_parameter_number(static_cast<int64_t>(i));
      inner[inputs[i]] = computation->AddInstruction(std::move(parameter));
    }
    // Constants and constant expressions, copied into the part.
    std::function<HloInstruction*(const HloInstruction*)> inside =
        [&](const HloInstruction* value) {
          auto found = inner.find(value);
          if (found != inner.end()) return found->second;
          std::vector<HloInstruction*> operands;
          for (const HloInstruction* operand : value->operands()) {
            operands.push_back(inside(operand));
          }
          HloInstruction* copy = computation->AddInstruction(
              CloneInstruction(*value, operands, {}, value->name()));
          inner[value] = copy;
          return copy;
        };
    for (const HloInstruction* member : members) {
      std::vector<HloInstruction*> operands;
      for (const HloInstruction* operand : member->operands()) {
        operands.push_back(inside(operand));
      }
      inner[member] = computation->AddInstruction(
          CloneInstruction(*member, operands, Called(*member), member->name()));
      if (member->opcode() == HloOpcode::kWhile) {
        if (const std::optional<CountedLoop> counted =
                FindCountedLoop(*member)) {
          (*trip_counts_)[name + "/" + member->name()] = counted->trips();
        }
      }
    }
    HloInstruction* part_root = nullptr;
    if (outputs.size() == 1) {
      part_root = inner.at(outputs[0]);
    } else {
      std::vector<Shape> shapes;
      for (const HloInstruction* output : outputs) {
        shapes.push_back(output->shape());
      }
      auto tuple = std::make_unique<HloInstruction>(
          HloOpcode::kTuple, name + ".results", Shape::Tuple(shapes));
      for (const HloInstruction* output : outputs) {
        tuple->AppendOperand(inner.at(output));
      }
      part_root = computation->AddInstruction(std::move(tuple));
    }
    computation->set_root_instruction(part_root);
    const Shape result_shape = part_root->shape();
    HloComputation* added = module_->AddComputation(std::move(computation));

    auto call =
        std::make_unique<HloInstruction>(HloOpcode::kCall, name, result_shape);
    for (const HloInstruction* input : inputs) {
      call->AppendOperand(value_.at(input));
    }
    call->AppendCalledComputation(added);
    HloInstruction* called = result_->AddInstruction(std::move(call));
    if (outputs.size() == 1) {
      value_[outputs[0]] = called;
    } else {
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        auto element = std::make_unique<HloInstruction>(
            HloOpcode::kGetTupleElement, outputs[i]->name(),
            outputs[i]->shape());
        element->set_tuple_index(static_cast<int64_t>(i));
        element->AppendOperand(called);
        value_[outputs[i]] = result_->AddInstruction(std::move(element));
      }
    }

    OffloadedPart made;
    made.name = name;
    made.hlo_text = PartText(*added, *module_);
    if (is_entry_ && IsWholeProgram(members, inputs, outputs)) {
      made.stablehlo = rules_.stablehlo_source;
    }
    made_->push_back(std::move(made));
  }

  // Whether the part is the entry computation itself: every instruction
  // but the structural ones, reading the parameters in order and giving
  // the root's values in order.
  bool IsWholeProgram(const std::vector<const HloInstruction*>& members,
                      const std::vector<const HloInstruction*>& inputs,
                      const std::vector<const HloInstruction*>& outputs) const {
    std::size_t outside = 0;
    for (const HloInstruction* instruction : source_.instructions()) {
      if (PartOf(instruction) < 0 && (IsStructural(instruction->opcode()) ||
                                      parts_.copied.count(instruction) != 0)) {
        ++outside;
      }
    }
    if (members.size() + outside != source_.instructions().size()) {
      return false;
    }
    if (inputs.size() != source_.parameter_instructions().size()) return false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i] != source_.parameter_instruction(static_cast<int64_t>(i)) ||
          !inputs[i]->shape().IsArray()) {
        return false;
      }
    }
    const HloInstruction* root = source_.root_instruction();
    if (PartOf(root) >= 0) {
      if (outputs.size() != 1) return false;
      if (root->shape().IsArray()) return true;
      for (const Shape& element : root->shape().tuple_shapes()) {
        if (!element.IsArray()) return false;
      }
      return true;
    }
    if (root->opcode() != HloOpcode::kTuple ||
        static_cast<int64_t>(outputs.size()) != root->operand_count()) {
      return false;
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (root->operand(static_cast<int64_t>(i)) != outputs[i] ||
          !outputs[i]->shape().IsArray()) {
        return false;
      }
    }
    return true;
  }

  const HloComputation& source_;
  const ComputationParts& parts_;
  const OffloadRules& rules_;
  bool is_entry_;
  HloModule* module_;
  std::unordered_map<const HloComputation*, HloComputation*>* copies_;
  std::set<std::string>* names_;
  std::vector<OffloadedPart>* made_;
  std::map<std::string, int64_t>* trip_counts_;
  std::unique_ptr<HloComputation> result_;
  std::vector<bool> emitted_;
  std::unordered_map<const HloInstruction*, std::size_t> position_;
  std::unordered_map<const HloInstruction*, HloInstruction*> value_;
};

}  // namespace

StatusOr<OffloadedModule> OffloadAcceptedParts(
    std::unique_ptr<HloModule> module, const OffloadRules& rules) {
  OffloadedModule result;
  if (!rules.accepts) {
    result.module = std::move(module);
    return result;
  }
  // The computations the host runs, from the entry down through while,
  // conditional and call instructions that stay outside the parts.
  std::unordered_map<const HloComputation*, ComputationParts> parts;
  std::vector<const HloComputation*> work = {module->entry_computation()};
  std::set<const HloComputation*> bodies;
  while (!work.empty()) {
    const HloComputation* computation = work.back();
    work.pop_back();
    if (parts.count(computation) != 0) continue;
    PHAL_ASSIGN_OR_RETURN(
        ComputationParts found,
        FindParts(*computation, rules, bodies.count(computation) != 0));
    for (const HloInstruction* instruction : computation->instructions()) {
      if (IsHostControlFlow(instruction->opcode()) &&
          found.part_of.count(instruction) == 0) {
        if (instruction->opcode() == HloOpcode::kWhile) {
          bodies.insert(instruction->while_body());
        }
        for (const HloComputation* callee :
             instruction->called_computations()) {
          work.push_back(callee);
        }
      }
    }
    parts.emplace(computation, std::move(found));
  }
  bool any = false;
  for (const auto& [computation, found] : parts) {
    any |= found.count > 0;
    for (const HloInstruction* instruction : computation->instructions()) {
      if (instruction->opcode() != HloOpcode::kWhile ||
          found.part_of.count(instruction) != 0) {
        continue;
      }
      if (const std::optional<CountedLoop> counted =
              FindCountedLoop(*instruction)) {
        result.trip_counts[computation->name() + "/" + instruction->name()] =
            counted->trips();
      }
    }
  }
  if (!any) {
    result.module = std::move(module);
    return result;
  }

  auto rebuilt = std::make_unique<HloModule>(module->name());
  rebuilt->set_replica_count(module->replica_count());
  rebuilt->set_num_partitions(module->num_partitions());
  rebuilt->set_spmd_global(module->spmd_global());
  std::set<std::string> names;
  for (const HloComputation* computation : module->computations()) {
    names.insert(computation->name());
  }
  std::unordered_map<const HloComputation*, HloComputation*> copies;
  for (const HloComputation* computation : module->computations()) {
    auto found = parts.find(computation);
    if (found == parts.end() || found->second.count == 0) {
      CopyComputation(*computation, rebuilt.get(), &copies);
      continue;
    }
    PartBuilder builder(*computation, found->second, rules,
                        computation == module->entry_computation(),
                        rebuilt.get(), &copies, &names, &result.parts,
                        &result.trip_counts);
    builder.Build();
  }
  rebuilt->set_entry_computation(copies.at(module->entry_computation()));
  PHAL_RETURN_IF_ERROR(VerifyModule(*rebuilt));
  result.module = std::move(rebuilt);
  return result;
}

Status AttachOffloads(std::vector<OffloadedPart> parts, Program* program) {
  std::unordered_map<std::string, int> index;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    index[parts[i].name] = static_cast<int>(i);
  }
  std::vector<bool> found(parts.size(), false);
  for (ComputationPlan& plan : program->computations) {
    for (Step& step : plan.steps) {
      if (step.kind != StepKind::kCall) continue;
      const ComputationPlan& callee =
          program->computations[static_cast<std::size_t>(step.computations[0])];
      auto part = index.find(callee.name);
      if (part == index.end()) continue;
      step.offload = part->second;
      parts[static_cast<std::size_t>(part->second)].computation =
          step.computations[0];
      found[static_cast<std::size_t>(part->second)] = true;
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!found[i]) {
      return Internal("the offloaded part " + parts[i].name +
                      " has no call step");
    }
  }
  program->offloads = std::move(parts);
  return OkStatus();
}

}  // namespace phal
