#include "core/compiler/buffer_assignment.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace phal {
namespace {

// True when every READ of `buffer` in the loop body reads the element at
// the iteration index, so the kernel may overwrite it in place.
bool ReadsOnlyAtIterationPoint(const KirKernel& kernel, uint32_t buffer) {
  if (kernel.kind() != PHAL_KERNEL_KIND_LOOP ||
      kernel.buffers()[buffer].dims != kernel.dims) {
    return false;
  }
  const KirBody& body = kernel.body;
  for (uint32_t i = 0; i < body.nodes().size(); ++i) {
    const phal_kir_node_t& node = body.node(i);
    if (node.op != PHAL_KIR_OP_READ ||
        node.attributes[0] != static_cast<int64_t>(buffer)) {
      continue;
    }
    std::span<const uint32_t> index = body.operands_of(i);
    for (std::size_t d = 0; d < index.size(); ++d) {
      const phal_kir_node_t& operand = body.node(index[d]);
      if (operand.op != PHAL_KIR_OP_INDEX ||
          operand.attributes[0] != static_cast<int64_t>(d)) {
        return false;
      }
    }
  }
  return true;
}

class Assigner {
 public:
  // `may_update_parameters`: kernels may update a parameter in place (the
  // executor then hands the computation parameters no one else holds).
  Assigner(Program* program, ComputationPlan* plan, bool may_update_parameters)
      : program_(program),
        plan_(plan),
        may_update_parameters_(may_update_parameters) {}

  void Run() {
    ComputeLastUses();
    for (std::size_t s = 0; s < plan_->steps.size(); ++s) {
      Step& step = plan_->steps[s];
      if (step.kind == StepKind::kKernel) AssignKernel(step, s);
      ReleaseDead(s);
    }
  }

 private:
  bool IsSlotLeaf(int leaf) const { return kernel_outputs_.count(leaf) > 0; }

  // A parameter leaf that no result passes on, whose buffer a kernel may
  // update in place.
  bool IsUpdatableParameter(int leaf) const {
    return may_update_parameters_ && leaf < plan_->parameter_leaf_count &&
           last_use_[leaf] != std::numeric_limits<int>::max();
  }

  // Makes `leaf` the output of an in-place update of `input`: it shares
  // the input's slot, or its buffer when the input is a parameter.
  void ShareBuffer(int leaf, int input) {
    const int parameter =
        input < plan_->parameter_leaf_count ? input : ParameterOf(input);
    if (parameter < 0) {
      plan_->leaf_slot[leaf] = plan_->leaf_slot[input];
      return;
    }
    plan_->leaf_parameter.resize(plan_->leaf_shapes.size(), -1);
    plan_->leaf_parameter[leaf] = parameter;
  }

  // The parameter whose buffer holds kernel output `leaf`, or -1.
  int ParameterOf(int leaf) const {
    return plan_->leaf_parameter.empty() ? -1 : plan_->leaf_parameter[leaf];
  }

  void ComputeLastUses() {
    last_use_.assign(plan_->leaf_shapes.size(), -1);
    constexpr int kForever = std::numeric_limits<int>::max();
    for (std::size_t s = 0; s < plan_->steps.size(); ++s) {
      const Step& step = plan_->steps[s];
      const int now = static_cast<int>(s);
      auto use = [&](int leaf) {
        last_use_[leaf] = std::max(last_use_[leaf], now);
      };
      if (step.kind == StepKind::kKernel) {
        for (int leaf : step.buffers) use(leaf);
        for (int leaf : step.outputs) kernel_outputs_.insert(leaf);
      }
      if (step.selector >= 0) use(step.selector);
      for (const auto& operands : step.operands) {
        for (int leaf : operands) use(leaf);
      }
    }
    for (int leaf : plan_->result_leaves) last_use_[leaf] = kForever;
  }

  int TakeSlot(int64_t bytes) {
    auto found = free_slots_.find(bytes);
    if (found != free_slots_.end() && !found->second.empty()) {
      const int slot = found->second.back();
      found->second.pop_back();
      return slot;
    }
    plan_->slot_bytes.push_back(bytes);
    return static_cast<int>(plan_->slot_bytes.size() - 1);
  }

  // An input leaf of `step` that dies here and that `kernel` reads only at
  // the iteration point, of the output's size and element type, if any: the
  // aliased buffer keeps the input's type (an s32 read and an f32 write of
  // one 4-byte buffer would disagree with its description).
  int InPlaceInput(const Step& step, const KirKernel& kernel,
                   const Shape& output, std::size_t now,
                   const std::set<int>& taken) {
    for (uint32_t b = 0; b < kernel.buffers().size(); ++b) {
      const int leaf = step.buffers[b];
      if (kernel.buffers()[b].access != PHAL_KIR_ACCESS_READ ||
          !IsSlotLeaf(leaf) || taken.count(leaf) ||
          last_use_[leaf] != static_cast<int>(now) ||
          plan_->leaf_shapes[leaf].ByteSize() != output.ByteSize() ||
          plan_->leaf_shapes[leaf].element_type() != output.element_type() ||
          !ReadsOnlyAtIterationPoint(kernel, b)) {
        continue;
      }
      return static_cast<int>(b);
    }
    return -1;
  }

  void AssignKernel(Step& step, std::size_t now) {
    KirKernel& kernel =
        *program_->kernels[static_cast<std::size_t>(step.kernel)];
    std::set<int> taken;
    if (kernel.kind() == PHAL_KERNEL_KIND_LOOP) {
      for (uint32_t o = 0; o < kernel.outputs.size(); ++o) {
        const int leaf = step.outputs[o];
        const int input =
            InPlaceInput(step, kernel, plan_->leaf_shapes[leaf], now, taken);
        if (input < 0) continue;
        const int input_leaf = step.buffers[static_cast<std::size_t>(input)];
        taken.insert(input_leaf);
        ShareBuffer(leaf, input_leaf);
        step.buffers.erase(step.buffers.begin() + kernel.outputs[o]);
        kernel.AliasOutputToInput(o, static_cast<uint32_t>(input));
      }
    }
    if (kernel.kind() == PHAL_KERNEL_KIND_SCATTER) {
      phal_kir_scatter_t& scatter = kernel.scatter;
      const int operand = step.buffers[scatter.operand];
      if ((IsSlotLeaf(operand) || IsUpdatableParameter(operand)) &&
          last_use_[operand] == static_cast<int>(now) &&
          step.buffers[scatter.scatter_indices] != operand &&
          step.buffers[scatter.updates] != operand) {
        taken.insert(operand);
        ShareBuffer(step.outputs[0], operand);
        step.buffers.pop_back();
        kernel.buffers().pop_back();
        kernel.buffers()[scatter.operand].access = PHAL_KIR_ACCESS_READ_WRITE;
        scatter.output = scatter.operand;
      }
    }
    for (int leaf : step.outputs) {
      if (plan_->leaf_slot[leaf] < 0 && ParameterOf(leaf) < 0) {
        plan_->leaf_slot[leaf] = TakeSlot(plan_->leaf_shapes[leaf].ByteSize());
      }
    }
    in_place_.insert(taken.begin(), taken.end());
  }

  // Returns to the free lists the slots of leaves whose last use was step
  // `now` (or that nobody reads), unless an in-place update took them over.
  void ReleaseDead(std::size_t now) {
    const Step& step = plan_->steps[now];
    std::set<int> candidates(step.buffers.begin(), step.buffers.end());
    candidates.insert(step.outputs.begin(), step.outputs.end());
    for (const auto& operands : step.operands) {
      candidates.insert(operands.begin(), operands.end());
    }
    if (step.selector >= 0) candidates.insert(step.selector);
    for (int leaf : candidates) {
      if (!IsSlotLeaf(leaf) || ParameterOf(leaf) >= 0 ||
          in_place_.count(leaf) || released_.count(leaf)) {
        continue;
      }
      if (last_use_[leaf] > static_cast<int>(now)) continue;
      released_.insert(leaf);
      free_slots_[plan_->leaf_shapes[leaf].ByteSize()].push_back(
          plan_->leaf_slot[leaf]);
    }
  }

  Program* program_;
  ComputationPlan* plan_;
  bool may_update_parameters_;
  std::vector<int> last_use_;
  std::set<int> kernel_outputs_;
  std::set<int> in_place_;
  std::set<int> released_;
  std::map<int64_t, std::vector<int>> free_slots_;
};

}  // namespace

void AssignBuffers(Program* program) {
  // A while body's parameters are mostly the previous iteration's results,
  // which the loop holds alone: updating them in place saves a copy of the
  // loop state per iteration.
  std::set<int> bodies;
  for (const ComputationPlan& plan : program->computations) {
    for (const Step& step : plan.steps) {
      if (step.kind == StepKind::kWhile) bodies.insert(step.computations[1]);
    }
  }
  for (std::size_t c = 0; c < program->computations.size(); ++c) {
    Assigner(program, &program->computations[c],
             bodies.count(static_cast<int>(c)) > 0)
        .Run();
  }
}

}  // namespace phal
