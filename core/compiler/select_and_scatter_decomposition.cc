#include "core/compiler/decompositions.h"

#include <functional>
#include <map>

namespace phal {
namespace {

constexpr ElementType kIndexType = PHAL_ELEMENT_TYPE_S64;

// Builds the scalar computation reducing (value, flat index) pairs to the
// pair select-and-scatter selects.
class SelectionReducer {
 public:
  SelectionReducer(RewriteContext& context, ElementType type)
      : context_(context),
        type_(type),
        computation_(std::make_unique<HloComputation>(
            "select_and_scatter_selection." +
            std::to_string(context.module()->computations().size()))) {}

  HloComputation* Build(const HloComputation& select) {
    // Parameters: accumulated value and index, candidate value and index.
    HloInstruction* value = Parameter(0, type_);
    HloInstruction* index = Parameter(1, kIndexType);
    HloInstruction* candidate_value = Parameter(2, type_);
    HloInstruction* candidate_index = Parameter(3, kIndexType);
    HloInstruction* zero =
        Add(HloOpcode::kConstant, kIndexType, {}, [](HloInstruction& c) {
          c.set_literal(Literal::Scalar(kIndexType, 0.0));
        });
    // Padding (index -1) is never selected; nothing selected yet (index -1)
    // gives way to any candidate.
    HloInstruction* candidate_is_padding =
        Compare(candidate_index, zero, ComparisonDirection::kLt);
    HloInstruction* nothing_yet =
        Compare(index, zero, ComparisonDirection::kLt);
    HloInstruction* keeps = Inline(select, {value, candidate_value});
    HloInstruction* taken = Inline(select, {candidate_value, value});
    // When select prefers both ways (a tie) the earlier element stays, as
    // the sequential scan of the specification does, in any reduce order.
    HloInstruction* earlier =
        Compare(index, candidate_index, ComparisonDirection::kLt);
    HloInstruction* keep_on_tie = Or(Not(taken), earlier);
    HloInstruction* keep = Or(candidate_is_padding,
                              And(Not(nothing_yet), And(keeps, keep_on_tie)));
    HloInstruction* new_value =
        Add(HloOpcode::kSelect, type_, {keep, value, candidate_value});
    HloInstruction* new_index =
        Add(HloOpcode::kSelect, kIndexType, {keep, index, candidate_index});
    HloInstruction* root = computation_->AddInstruction(
        MakeInstruction(HloOpcode::kTuple,
                        Shape::Tuple({Shape(type_, {}), Shape(kIndexType, {})}),
                        {new_value, new_index}));
    computation_->set_root_instruction(root);
    return context_.module()->AddComputation(std::move(computation_));
  }

 private:
  std::unique_ptr<HloInstruction> MakeInstruction(
      HloOpcode opcode, Shape shape,
      const std::vector<HloInstruction*>& operands) {
    auto instruction = std::make_unique<HloInstruction>(
        opcode, "s" + std::to_string(next_name_++), std::move(shape));
    for (HloInstruction* operand : operands)
      instruction->AppendOperand(operand);
    return instruction;
  }

  HloInstruction* Add(
      HloOpcode opcode, ElementType type,
      const std::vector<HloInstruction*>& operands,
      const std::function<void(HloInstruction&)>& configure = nullptr) {
    std::unique_ptr<HloInstruction> instruction =
        MakeInstruction(opcode, Shape(type, {}), operands);
    if (configure) configure(*instruction);
    return computation_->AddInstruction(std::move(instruction));
  }

  HloInstruction* Parameter(int64_t number, ElementType type) {
    return Add(HloOpcode::kParameter, type, {},
               [&](HloInstruction& p) { p.set_parameter_number(number); });
  }

  HloInstruction* Compare(HloInstruction* a, HloInstruction* b,
                          ComparisonDirection direction) {
    return Add(
        HloOpcode::kCompare, PHAL_ELEMENT_TYPE_PRED, {a, b},
        [&](HloInstruction& c) { c.set_comparison_direction(direction); });
  }

  HloInstruction* And(HloInstruction* a, HloInstruction* b) {
    return Add(HloOpcode::kAnd, PHAL_ELEMENT_TYPE_PRED, {a, b});
  }
  HloInstruction* Or(HloInstruction* a, HloInstruction* b) {
    return Add(HloOpcode::kOr, PHAL_ELEMENT_TYPE_PRED, {a, b});
  }
  HloInstruction* Not(HloInstruction* a) {
    return Add(HloOpcode::kNot, PHAL_ELEMENT_TYPE_PRED, {a});
  }

  // The instructions of the scalar computation `callee` on `arguments`;
  // returns its root.
  HloInstruction* Inline(const HloComputation& callee,
                         const std::vector<HloInstruction*>& arguments) {
    std::map<const HloInstruction*, HloInstruction*> copies;
    for (const HloInstruction* instruction : callee.instructions()) {
      if (instruction->opcode() == HloOpcode::kParameter) {
        copies[instruction] = arguments[static_cast<std::size_t>(
            instruction->parameter_number())];
        continue;
      }
      std::vector<HloInstruction*> operands;
      for (const HloInstruction* operand : instruction->operands()) {
        operands.push_back(copies.at(operand));
      }
      copies[instruction] = computation_->AddInstruction(CloneInstruction(
          *instruction, operands, instruction->called_computations(),
          "s" + std::to_string(next_name_++)));
    }
    return copies.at(callee.root_instruction());
  }

  RewriteContext& context_;
  ElementType type_;
  std::unique_ptr<HloComputation> computation_;
  int64_t next_name_ = 0;
};

HloInstruction* Reshape(RewriteContext& context, HloInstruction* value,
                        std::vector<int64_t> dims) {
  return context.AddNew(HloOpcode::kReshape,
                        Shape(value->shape().element_type(), std::move(dims)),
                        {value});
}

HloInstruction* ScalarConstant(RewriteContext& context, ElementType type,
                               double value) {
  return context.AddNew(
      HloOpcode::kConstant, Shape(type, {}), {},
      [&](HloInstruction& c) { c.set_literal(Literal::Scalar(type, value)); });
}

}  // namespace

StatusOr<HloInstruction*> DecomposeSelectAndScatter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context) {
  HloInstruction* operand = operands[0];
  HloInstruction* updates = operands[1];
  HloInstruction* init = operands[2];
  const ElementType type = operand->shape().element_type();
  const std::vector<int64_t>& dims = operand->shape().dims();
  const int64_t count = operand->shape().ElementCount();
  const std::vector<int64_t>& window_dims = updates->shape().dims();
  // Each window's selected element as a flat index into the operand (-1
  // when the window holds only padding), by a reduce-window over (value,
  // flat index) pairs.
  HloInstruction* flat_iota =
      context.AddNew(HloOpcode::kIota, Shape(kIndexType, {count}), {},
                     [](HloInstruction& i) { i.set_iota_dimension(0); });
  HloInstruction* positions = Reshape(context, flat_iota, dims);
  HloComputation* reducer = SelectionReducer(context, type).Build(*called[0]);
  HloInstruction* selection = context.AddNew(
      HloOpcode::kReduceWindow,
      Shape::Tuple({Shape(type, window_dims), Shape(kIndexType, window_dims)}),
      {operand, positions, ScalarConstant(context, type, 0),
       ScalarConstant(context, kIndexType, -1)},
      [&](HloInstruction& r) {
        r.set_window(source.window());
        r.AppendCalledComputation(reducer);
      });
  HloInstruction* selected = context.AddNew(
      HloOpcode::kGetTupleElement, Shape(kIndexType, window_dims), {selection},
      [](HloInstruction& g) { g.set_tuple_index(1); });
  // Scatter the updates onto the selected elements of a flat array of the
  // init value; index -1 is out of bounds, so those updates are skipped.
  std::vector<int64_t> index_dims = window_dims;
  index_dims.push_back(1);
  HloInstruction* indices = Reshape(context, selected, index_dims);
  HloInstruction* base =
      context.AddNew(HloOpcode::kBroadcast, Shape(type, {count}), {init},
                     [](HloInstruction& b) { b.set_dimensions({}); });
  ScatterDimensionNumbers numbers;
  numbers.inserted_window_dims = {0};
  numbers.scatter_dims_to_operand_dims = {0};
  numbers.index_vector_dim = static_cast<int64_t>(window_dims.size());
  HloInstruction* scattered =
      context.AddNew(HloOpcode::kScatter, Shape(type, {count}),
                     {base, indices, updates}, [&](HloInstruction& s) {
                       s.set_scatter_dimension_numbers(numbers);
                       s.AppendCalledComputation(called[1]);
                     });
  return Reshape(context, scattered, dims);
}

}  // namespace phal
