// The scatter-loop-updates pass (passes.h).
#include <map>
#include <numeric>
#include <optional>

#include "core/compiler/counted_loop.h"
#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// A window at most this fraction of its operand is scattered: beyond it, a
// loop over the whole operand costs little more than the copy of it that
// a scatter not done in place makes.
constexpr int64_t kMinimumOperandToWindowRatio = 4;

// True when `update` writes into loop state element `index` of the while
// body `body` and into nothing else: its operand is that element of the
// body's parameter, read by nobody else, and the body returns the update
// as the same element.
bool UpdatesLoopState(const HloInstruction& update,
                      const HloComputation& body) {
  const HloInstruction& operand = *update.operand(0);
  if (operand.opcode() != HloOpcode::kGetTupleElement ||
      operand.operand(0)->opcode() != HloOpcode::kParameter ||
      operand.users().size() != 1) {
    return false;
  }
  for (std::size_t i = 3; i < update.operands().size(); ++i) {
    if (update.operand(i)->shape().element_type() !=
        update.operand(2)->shape().element_type()) {
      return false;
    }
  }
  const HloInstruction* root = body.root_instruction();
  const int64_t index = operand.tuple_index();
  return root->opcode() == HloOpcode::kTuple &&
         index < static_cast<int64_t>(root->operands().size()) &&
         root->operand(index) == &update;
}

// The computation (current, update) -> update on scalars of `type`.
HloComputation* ReplaceComputation(RewriteContext& context, ElementType type) {
  auto computation = std::make_unique<HloComputation>(
      "loop_update_replace." +
      std::to_string(context.module()->computations().size()));
  const Shape scalar(type, {});
  HloInstruction* replacement = nullptr;
  for (int64_t p = 0; p < 2; ++p) {
    auto parameter = std::make_unique<HloInstruction>(
        HloOpcode::kParameter, p == 0 ? "current" : "update", scalar);
    parameter->set_parameter_number(p);
    replacement = computation->AddInstruction(std::move(parameter));
  }
  computation->set_root_instruction(replacement);
  return context.module()->AddComputation(std::move(computation));
}

// dynamic-update-slice(operand, update, starts...) as a scatter of one
// window at the clamped starts, which a kernel updates in place. A start
// along a dimension the window covers whole is 0 whatever it says, and is
// left out of the index vector; a start that is the counter of `loop`
// (when counted), whose values all lie within the dimension, needs no
// clamp. A scan's index vector is then a view of its counter: no kernel
// computes it.
HloInstruction* ScatterWindow(const HloInstruction& source,
                              const std::vector<HloInstruction*>& operands,
                              const std::optional<CountedLoop>& loop,
                              RewriteContext& context) {
  const Shape& shape = source.shape();
  const Shape& window = operands[1]->shape();
  const auto rank = static_cast<int64_t>(shape.dims().size());
  const ElementType index_type = operands[2]->shape().element_type();
  auto constant = [&](int64_t value) {
    return context.AddNew(HloOpcode::kConstant, Shape(index_type, {}), {},
                          [&](HloInstruction& c) {
                            c.set_literal(Literal::Scalar(
                                index_type, static_cast<double>(value)));
                          });
  };
  ScatterDimensionNumbers numbers;
  std::vector<HloInstruction*> starts;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t last = shape.dim(d) - window.dim(d);
    if (last == 0 && !(d == rank - 1 && starts.empty())) continue;
    numbers.scatter_dims_to_operand_dims.push_back(d);
    HloInstruction* start = operands[static_cast<std::size_t>(2 + d)];
    int64_t element = -1;
    const bool in_range =
        loop && IsParameterElement(*source.operand(2 + d), &element) &&
        element == loop->counter && loop->start >= 0 && loop->limit - 1 <= last;
    if (!in_range) {
      start = context.AddNew(HloOpcode::kClamp, Shape(index_type, {}),
                             {constant(0), start, constant(last)});
    }
    starts.push_back(
        context.AddNew(HloOpcode::kReshape, Shape(index_type, {1}), {start}));
  }
  const auto indexed = static_cast<int64_t>(starts.size());
  HloInstruction* indices =
      indexed == 1
          ? starts[0]
          : context.AddNew(HloOpcode::kConcatenate,
                           Shape(index_type, {indexed}), starts,
                           [](HloInstruction& c) { c.set_dimensions({0}); });
  numbers.update_window_dims.resize(static_cast<std::size_t>(rank));
  std::iota(numbers.update_window_dims.begin(),
            numbers.update_window_dims.end(), 0);
  numbers.index_vector_dim = 0;
  HloComputation* replace = ReplaceComputation(context, shape.element_type());
  return context.AddNew(HloOpcode::kScatter, shape,
                        {operands[0], indices, operands[1]},
                        [&](HloInstruction& s) {
                          s.set_scatter_dimension_numbers(numbers);
                          s.set_indices_are_sorted(true);
                          s.set_unique_indices(true);
                          s.AppendCalledComputation(replace);
                        });
}

class LoopUpdateScatterPass : public HloPass {
 public:
  const char* name() const override { return "scatter-loop-updates"; }

  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    // The while bodies, with their loops' counters where counted (a body
    // two loops call has none).
    std::map<const HloComputation*, std::optional<CountedLoop>> bodies;
    for (const HloComputation* computation : module.computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        if (instruction->opcode() != HloOpcode::kWhile) continue;
        const HloComputation* body = instruction->called_computations()[1];
        const bool seen = bodies.count(body) > 0;
        bodies[body] = seen ? std::nullopt : FindCountedLoop(*instruction);
      }
    }
    return RewriteModule(
        module,
        [&](const HloInstruction& source,
            const std::vector<HloInstruction*>& operands,
            const std::vector<HloComputation*>&,
            RewriteContext& context) -> StatusOr<HloInstruction*> {
          if (source.opcode() != HloOpcode::kDynamicUpdateSlice ||
              source.shape().dims().empty() || !bodies.count(source.parent()) ||
              source.operand(1)->shape().ElementCount() *
                      kMinimumOperandToWindowRatio >
                  source.shape().ElementCount() ||
              !UpdatesLoopState(source, *source.parent())) {
            return nullptr;
          }
          return ScatterWindow(source, operands, bodies.at(source.parent()),
                               context);
        });
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeLoopUpdateScatterPass() {
  return std::make_unique<LoopUpdateScatterPass>();
}

}  // namespace phal
