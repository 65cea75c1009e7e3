#include "core/compiler/fusion_planner.h"

#include "core/compiler/process_ops.h"

#include <algorithm>
#include <queue>
#include <string>

namespace phal {

ElementType ProductAccumulationType(ElementType result_type) {
  if (result_type == PHAL_ELEMENT_TYPE_F16 ||
      result_type == PHAL_ELEMENT_TYPE_BF16) {
    return PHAL_ELEMENT_TYPE_F32;
  }
  return result_type;
}

namespace {

// Whether a dot or convolution `hero` may read `convert`'s input and
// convert it to the accumulation type itself, instead of reading the
// convert's result: only when that gives the same value, as when the
// convert loses nothing (bf16 -> f32) or converts to the accumulation type
// itself. A narrowing convert (f32 -> bf16) must round first.
bool FoldsIntoProducts(const HloInstruction& hero,
                       const HloInstruction& convert) {
  const ElementType target = convert.shape().element_type();
  return ConvertsExactly(convert.operand(0)->shape().element_type(), target) ||
         target == ProductAccumulationType(hero.shape().element_type());
}

bool IsLeafPlumbing(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

// Runs on the host as a step of its own: control flow, and the ops that
// depend on the process (process_ops.h).
bool IsHostStep(HloOpcode opcode) {
  return opcode == HloOpcode::kWhile || opcode == HloOpcode::kConditional ||
         opcode == HloOpcode::kCall || IsProcessOp(opcode);
}

bool IsScalarConstant(const HloInstruction& instruction) {
  return instruction.opcode() == HloOpcode::kConstant &&
         instruction.shape().IsArray() && instruction.shape().rank() == 0;
}

// Cheap enough to recompute in every kernel that reads it.
bool IsDuplicable(const HloInstruction& instruction) {
  if (instruction.opcode() == HloOpcode::kIota) return true;
  return instruction.opcode() == HloOpcode::kBroadcast &&
         IsScalarConstant(*instruction.operand(0));
}

bool IsPureElementwise(const HloInstruction& instruction) {
  return IsElementwise(instruction.opcode());
}

// Instructions some kernel computes inline, with the users they serve.
using InlinedFor =
    std::unordered_map<const HloInstruction*, std::set<const HloInstruction*>>;

class GroupBuilder {
 public:
  // `read_from_memory`: values kernels planned earlier read from memory
  // (the inputs of the converts they fold into their products), which must
  // therefore be some kernel's output, not computed inline.
  // `position`: each instruction's place in the computation's order.
  GroupBuilder(const std::set<const HloInstruction*>& forbidden,
               const std::unordered_map<const HloInstruction*, int>& assigned,
               const InlinedFor& inlined_for,
               const std::set<const HloInstruction*>& read_from_memory,
               const std::unordered_map<const HloInstruction*, int>& position)
      : forbidden_(forbidden),
        assigned_(assigned),
        inlined_for_(inlined_for),
        read_from_memory_(read_from_memory),
        position_(position) {}

  FusionGroup Build(HloInstruction* root) {
    group_.root = root;
    group_.members.insert(root);
    group_.outputs.push_back(root);
    if (IsHero(*root)) {
      group_.hero = root;
      PushPrologue(*root);
    } else {
      for (HloInstruction* operand : root->operands()) Push(operand);
    }
    // Latest first: a producer is considered after every user of it the
    // group may take, so that one whose users all join is absorbed, not
    // made an extra output because a user was still waiting its turn.
    while (!work_.empty()) {
      HloInstruction* producer = work_.top().second;
      work_.pop();
      Consider(producer);
    }
    return std::move(group_);
  }

 private:
  bool Available(const HloInstruction* instruction) const {
    return !group_.members.count(instruction) &&
           !assigned_.count(instruction) && !forbidden_.count(instruction) &&
           !stays_in_memory_.count(instruction) &&
           !read_from_memory_.count(instruction) &&
           !IsLeafPlumbing(instruction->opcode()) &&
           !IsHostStep(instruction->opcode());
  }

  // Every user of `instruction` is in the group, or computes it inline
  // itself (a kernel built earlier that recomputes it).
  bool AllUsersInside(const HloInstruction& instruction) const {
    const auto inlined = inlined_for_.find(&instruction);
    for (const HloInstruction* user : instruction.users()) {
      if (group_.members.count(user)) continue;
      if (inlined != inlined_for_.end() && inlined->second.count(user)) {
        continue;
      }
      return false;
    }
    return true;
  }

  void PushPrologue(const HloInstruction& hero) {
    switch (hero.opcode()) {
      case HloOpcode::kReduce:
      case HloOpcode::kReduceWindow:
        for (int64_t i = 0; i < hero.operand_count() / 2; ++i) {
          Push(hero.operand(i));
        }
        break;
      case HloOpcode::kDot:
      case HloOpcode::kConvolution:
        // These kernels read their operands from memory, converting them
        // on the fly at most.
        for (HloInstruction* operand : hero.operands()) {
          if (operand->opcode() == HloOpcode::kConvert &&
              FoldsIntoProducts(hero, *operand)) {
            converts_.insert(operand);
            stays_in_memory_.insert(operand->operand(0));
            Push(operand);
          } else {
            stays_in_memory_.insert(operand);
          }
        }
        break;
      default:
        for (const HloInstruction* operand : hero.operands()) {
          stays_in_memory_.insert(operand);
        }
        break;
    }
  }

  bool EpilogueEligible(const HloInstruction& hero) const {
    if (group_.hero != nullptr || group_.outputs.size() != 1) return false;
    if (!hero.shape().IsArray() || !AllUsersInside(hero)) return false;
    const HloOpcode opcode = hero.opcode();
    if (opcode != HloOpcode::kReduce && opcode != HloOpcode::kDot &&
        opcode != HloOpcode::kConvolution) {
      return false;
    }
    // The epilogue has the hero's value at its own index only: whatever
    // reads the hero is elementwise over the hero's shape. Members that do
    // not read it (a step's slice of a loop's inputs) are any loop code.
    std::set<const HloInstruction*> readers;
    std::vector<const HloInstruction*> stack = {&hero};
    while (!stack.empty()) {
      const HloInstruction* value = stack.back();
      stack.pop_back();
      for (const HloInstruction* user : value->users()) {
        if (group_.members.count(user) && readers.insert(user).second) {
          stack.push_back(user);
        }
      }
    }
    for (const HloInstruction* reader : readers) {
      if (!IsPureElementwise(*reader) ||
          reader->shape().dims() != hero.shape().dims()) {
        return false;
      }
    }
    return true;
  }

  void Absorb(HloInstruction* producer) {
    group_.members.insert(producer);
    for (HloInstruction* operand : producer->operands()) Push(operand);
  }

  void Push(HloInstruction* producer) {
    work_.emplace(position_.at(producer), producer);
  }

  void Consider(HloInstruction* producer) {
    if (!Available(producer)) return;
    if (IsHero(*producer)) {
      if (group_.hero == nullptr && EpilogueEligible(*producer)) {
        group_.hero = producer;
        group_.members.insert(producer);
        PushPrologue(*producer);
      }
      return;
    }
    if (!IsLoopFusible(*producer)) return;
    if (converts_.count(producer)) {
      group_.members.insert(producer);
      if (!AllUsersInside(*producer)) group_.recomputed.insert(producer);
      return;
    }
    if (AllUsersInside(*producer) || IsDuplicable(*producer)) {
      Absorb(producer);
      return;
    }
    if (group_.hero == nullptr && producer->shape().IsArray() &&
        producer->shape().dims() == group_.root->shape().dims()) {
      group_.outputs.push_back(producer);
      Absorb(producer);
    }
  }

  const std::set<const HloInstruction*>& forbidden_;
  const std::unordered_map<const HloInstruction*, int>& assigned_;
  const InlinedFor& inlined_for_;
  const std::set<const HloInstruction*>& read_from_memory_;
  const std::unordered_map<const HloInstruction*, int>& position_;
  FusionGroup group_;
  std::set<const HloInstruction*> converts_;
  std::set<const HloInstruction*> stays_in_memory_;
  std::priority_queue<std::pair<int, HloInstruction*>> work_;
};

// True when some instruction reachable from `start` through users is in
// `targets`.
bool ReachesAny(const HloInstruction* start,
                const std::set<const HloInstruction*>& targets) {
  std::vector<const HloInstruction*> stack = {start};
  std::set<const HloInstruction*> seen;
  while (!stack.empty()) {
    const HloInstruction* current = stack.back();
    stack.pop_back();
    if (!seen.insert(current).second) continue;
    if (targets.count(current)) return true;
    for (const HloInstruction* user : current->users()) stack.push_back(user);
  }
  return false;
}

// What `group`'s kernel waits for: its members, every instruction they read
// transitively, and the whole of every group already planned that computes
// one of those (a kernel runs once, all of its outputs together).
std::set<const HloInstruction*> Upstream(
    const FusionGroup& group, const std::vector<FusionGroup>& planned,
    const std::unordered_map<const HloInstruction*, int>& assigned) {
  std::set<const HloInstruction*> seen(group.members.begin(),
                                       group.members.end());
  std::set<int> seen_groups;
  std::vector<const HloInstruction*> stack;
  for (const HloInstruction* member : group.members) {
    for (const HloInstruction* operand : member->operands()) {
      stack.push_back(operand);
    }
  }
  while (!stack.empty()) {
    const HloInstruction* current = stack.back();
    stack.pop_back();
    if (!seen.insert(current).second) continue;
    for (const HloInstruction* operand : current->operands()) {
      stack.push_back(operand);
    }
    const auto owner = assigned.find(current);
    if (owner != assigned.end() && seen_groups.insert(owner->second).second) {
      for (const HloInstruction* member :
           planned[static_cast<std::size_t>(owner->second)].members) {
        stack.push_back(member);
      }
    }
  }
  return seen;
}

// An extra output whose outside users lead back into what the group waits
// for, which would make the kernels wait on each other; null if none.
HloInstruction* CyclicOutput(
    const FusionGroup& group, const std::vector<FusionGroup>& planned,
    const std::unordered_map<const HloInstruction*, int>& assigned) {
  if (group.outputs.size() < 2) return nullptr;
  const std::set<const HloInstruction*> upstream =
      Upstream(group, planned, assigned);
  for (std::size_t i = 1; i < group.outputs.size(); ++i) {
    HloInstruction* output = group.outputs[i];
    for (const HloInstruction* user : output->users()) {
      if (!group.members.count(user) && ReachesAny(user, upstream)) {
        return output;
      }
    }
  }
  return nullptr;
}

Status CheckSupported(const HloInstruction& instruction) {
  const HloOpcode opcode = instruction.opcode();
  if (IsLeafPlumbing(opcode) || IsHostStep(opcode) ||
      IsLoopFusible(instruction) || IsHero(instruction)) {
    return OkStatus();
  }
  return Unimplemented(std::string(HloOpcodeName(opcode)) + " (instruction %" +
                       instruction.name() +
                       ") has no kernel kind and no decomposition");
}

// The units that produce the leaves `instruction` reads.
class Scheduler {
 public:
  Scheduler(const HloComputation& computation, FusionPlan* plan)
      : computation_(computation), plan_(plan) {}

  Status Run(const std::vector<HloInstruction*>& controls) {
    const auto& order = computation_.instructions();
    for (std::size_t i = 0; i < order.size(); ++i) position_[order[i]] = i;
    std::vector<HloInstruction*> unit_roots;
    for (std::size_t g = 0; g < plan_->groups.size(); ++g) {
      for (HloInstruction* output : plan_->groups[g].outputs) {
        producer_[output] = static_cast<int>(g);
      }
      unit_roots.push_back(plan_->groups[g].root);
    }
    for (HloInstruction* control : controls) {
      producer_[control] = static_cast<int>(unit_roots.size());
      unit_roots.push_back(control);
    }
    const std::size_t count = unit_roots.size();
    std::vector<std::set<int>> dependents(count);
    std::vector<int> pending(count, 0);
    for (std::size_t u = 0; u < count; ++u) {
      std::set<int> deps;
      for (const HloInstruction* input : UnitInputs(u, unit_roots[u])) {
        Producers(input, &deps);
      }
      deps.erase(static_cast<int>(u));
      for (int d : deps) {
        if (dependents[d].insert(static_cast<int>(u)).second) ++pending[u];
      }
    }
    using Entry = std::pair<std::size_t, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    for (std::size_t u = 0; u < count; ++u) {
      if (pending[u] == 0) ready.emplace(position_[unit_roots[u]], u);
    }
    while (!ready.empty()) {
      const int u = ready.top().second;
      ready.pop();
      ScheduledUnit unit;
      if (static_cast<std::size_t>(u) < plan_->groups.size()) {
        unit.group = u;
      } else {
        unit.control = unit_roots[u];
      }
      plan_->schedule.push_back(unit);
      for (int d : dependents[u]) {
        if (--pending[d] == 0) ready.emplace(position_[unit_roots[d]], d);
      }
    }
    if (plan_->schedule.size() == count) return OkStatus();
    for (std::size_t u = 0; u < count; ++u) {
      if (pending[u] > 0) {
        return Internal("the kernels planned for %" + computation_.name() +
                        " wait on each other (%" + unit_roots[u]->name() +
                        " is never ready)");
      }
    }
    return Internal("the kernels planned for %" + computation_.name() +
                    " could not be ordered");
  }

 private:
  std::vector<const HloInstruction*> UnitInputs(std::size_t unit,
                                                const HloInstruction* root) {
    std::vector<const HloInstruction*> inputs;
    if (unit >= plan_->groups.size()) {
      for (const HloInstruction* operand : root->operands()) {
        inputs.push_back(operand);
      }
      return inputs;
    }
    const FusionGroup& group = plan_->groups[unit];
    for (const HloInstruction* member : group.members) {
      for (const HloInstruction* operand : member->operands()) {
        if (!group.members.count(operand)) inputs.push_back(operand);
      }
    }
    return inputs;
  }

  void Producers(const HloInstruction* value, std::set<int>* units) {
    auto found = producer_.find(value);
    if (found != producer_.end()) {
      units->insert(found->second);
      return;
    }
    for (const HloInstruction* operand : value->operands()) {
      Producers(operand, units);
    }
  }

  const HloComputation& computation_;
  FusionPlan* plan_;
  std::unordered_map<const HloInstruction*, std::size_t> position_;
  std::unordered_map<const HloInstruction*, int> producer_;
};

}  // namespace

bool IsLoopFusible(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kIota:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kCopy:
      return true;
    default:
      return IsElementwise(instruction.opcode());
  }
}

bool IsHero(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kReduce:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
    case HloOpcode::kGather:
    case HloOpcode::kScatter:
    case HloOpcode::kSort:
    case HloOpcode::kFft:
      return true;
    default:
      return IsLinearAlgebra(instruction.opcode());
  }
}

StatusOr<FusionPlan> PlanFusion(const HloComputation& computation) {
  FusionPlan plan;
  std::unordered_map<const HloInstruction*, int> assigned;
  InlinedFor inlined_for;
  std::vector<HloInstruction*> controls;
  std::set<const HloInstruction*> read_from_memory;
  const auto& order = computation.instructions();
  std::unordered_map<const HloInstruction*, int> position;
  for (std::size_t i = 0; i < order.size(); ++i) {
    position[order[i]] = static_cast<int>(i);
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    HloInstruction* instruction = *it;
    PHAL_RETURN_IF_ERROR(CheckSupported(*instruction));
    const HloOpcode opcode = instruction->opcode();
    if (IsHostStep(opcode)) controls.push_back(instruction);
    if (IsLeafPlumbing(opcode) || IsHostStep(opcode) ||
        assigned.count(instruction)) {
      continue;
    }
    bool needed = instruction == computation.root_instruction();
    for (const HloInstruction* user : instruction->users()) {
      if (!inlined_for[instruction].count(user)) needed = true;
    }
    if (!needed) continue;
    const bool is_view =
        opcode == HloOpcode::kReshape || opcode == HloOpcode::kBitcast;
    if (is_view && (instruction->operand(0)->users().size() > 1 ||
                    !IsLoopFusible(*instruction->operand(0)))) {
      plan.aliases.insert(instruction);
      continue;
    }
    std::set<const HloInstruction*> forbidden;
    FusionGroup group;
    while (true) {
      group = GroupBuilder(forbidden, assigned, inlined_for, read_from_memory,
                           position)
                  .Build(instruction);
      HloInstruction* cyclic = CyclicOutput(group, plan.groups, assigned);
      if (cyclic == nullptr) break;
      forbidden.insert(cyclic);
    }
    // A product that converts an operand on the fly reads the convert's
    // input from memory, even where another kernel also computes the
    // convert (for a user outside this one).
    if (group.hero != nullptr &&
        (group.hero->opcode() == HloOpcode::kDot ||
         group.hero->opcode() == HloOpcode::kConvolution)) {
      for (const HloInstruction* operand : group.hero->operands()) {
        if (operand->opcode() == HloOpcode::kConvert &&
            group.members.count(operand)) {
          read_from_memory.insert(operand->operand(0));
        }
      }
    }
    const int index = static_cast<int>(plan.groups.size());
    for (const HloInstruction* member : group.members) {
      const bool duplicated =
          (IsDuplicable(*member) || group.recomputed.count(member)) &&
          member != group.root &&
          std::find(group.outputs.begin(), group.outputs.end(), member) ==
              group.outputs.end();
      if (!duplicated) {
        assigned[member] = index;
        continue;
      }
      for (const HloInstruction* user : member->users()) {
        if (group.members.count(user)) inlined_for[member].insert(user);
      }
    }
    plan.groups.push_back(std::move(group));
  }
  std::reverse(controls.begin(), controls.end());
  PHAL_RETURN_IF_ERROR(Scheduler(computation, &plan).Run(controls));
  return plan;
}

}  // namespace phal
