// A computation: a named graph of instructions with parameters and one root,
// kept in post order (every operand before its users).
#ifndef POLYHAL_CORE_HLO_COMPUTATION_H_
#define POLYHAL_CORE_HLO_COMPUTATION_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/hlo/instruction.h"
#include "core/hlo/shape.h"

namespace phal {

class HloModule;

class HloComputation {
 public:
  explicit HloComputation(std::string name);
  HloComputation(const HloComputation&) = delete;
  HloComputation& operator=(const HloComputation&) = delete;

  // Name without the leading '%', unique within the module.
  const std::string& name() const { return name_; }

  // Takes ownership of `instruction` and appends it to the post order; its
  // operands must already be in this computation. A parameter is also
  // registered at its parameter_number(), so parameters may be added in any
  // order. The first instruction added becomes the root until
  // set_root_instruction() says otherwise. Returns the added instruction.
  HloInstruction* AddInstruction(std::unique_ptr<HloInstruction> instruction);

  // All instructions in post order.
  const std::vector<HloInstruction*>& instructions() const {
    return instructions_;
  }
  int64_t instruction_count() const {
    return static_cast<int64_t>(instructions_.size());
  }
  // The instruction called `name`, or null.
  HloInstruction* GetInstructionWithName(std::string_view name) const;

  // Parameters indexed by parameter number. A slot is null when no
  // parameter with that number was added (the verifier rejects such gaps).
  const std::vector<HloInstruction*>& parameter_instructions() const {
    return parameters_;
  }
  int64_t num_parameters() const {
    return static_cast<int64_t>(parameters_.size());
  }
  HloInstruction* parameter_instruction(int64_t number) const {
    return parameters_[static_cast<std::size_t>(number)];
  }

  // The instruction whose value the computation returns.
  HloInstruction* root_instruction() const { return root_; }
  void set_root_instruction(HloInstruction* root) { root_ = root; }

  // Shapes of the parameters by number; an absent parameter's slot holds an
  // empty Shape().
  std::vector<Shape> ParameterShapes() const;
  // The root's shape.
  const Shape& ResultShape() const { return root_->shape(); }

  // The module that owns this computation; null until added to one.
  HloModule* parent() const { return parent_; }
  void set_parent(HloModule* parent) { parent_ = parent; }

  // True when names, roots and the instructions, pairwise in post order,
  // are Identical().
  bool Identical(const HloComputation& other) const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<HloInstruction>> owned_instructions_;
  std::vector<HloInstruction*> instructions_;
  std::vector<HloInstruction*> parameters_;
  HloInstruction* root_ = nullptr;
  HloModule* parent_ = nullptr;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_COMPUTATION_H_
