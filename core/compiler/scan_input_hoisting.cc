// The hoist-scan-inputs pass (passes.h).
#include <map>
#include <optional>
#include <vector>

#include "core/compiler/counted_loop.h"
#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// A hoisted product may be at most this many times the size of the loop
// state it multiplies, and at most kLargestHoistedBytes.
constexpr int64_t kLargestGrowth = 8;
constexpr int64_t kLargestHoistedBytes = int64_t{1} << 30;

// A dot of a loop body whose left operand is one step's slice of a loop
// invariant: dot(reshape(dynamic-slice(X, .., i, ..)), W) with the slice
// one element wide along dimension `sliced` of X and whole along the others
// (the reshape drops that dimension), W invariant too. It equals the same
// slice of dot(X, W), which one GEMM over every step computes before the
// loop: dynamic-slice clamps its start alike in both.
struct HoistedDot {
  const HloInstruction* dot = nullptr;
  int64_t input = -1;    // loop state element X
  int64_t weights = -1;  // loop state element W, or -1: a constant
  int64_t sliced = -1;   // the dimension of X the step slices
  // The hoisted product's dimension numbers, shape, and the dimension of it
  // the step slices.
  DotDimensionNumbers numbers;
  Shape shape;
  int64_t product_sliced = -1;
  int64_t element = -1;  // the loop state element that carries it
};

bool OnlyElementsAreRead(const HloInstruction& tuple) {
  for (const HloInstruction* user : tuple.users()) {
    if (user->opcode() != HloOpcode::kGetTupleElement) return false;
  }
  return true;
}

// The hoistable dots of `loop`'s body; none unless the loop is counted and
// its state is a tuple built in place and only read element by element.
std::vector<HoistedDot> FindHoistableDots(const HloInstruction& loop) {
  const HloComputation& condition = *loop.called_computations()[0];
  const HloComputation& body = *loop.called_computations()[1];
  const HloInstruction& init = *loop.operand(0);
  const HloInstruction& root = *body.root_instruction();
  if (init.opcode() != HloOpcode::kTuple ||
      root.opcode() != HloOpcode::kTuple || !OnlyElementsAreRead(loop) ||
      !OnlyElementsAreRead(*body.parameter_instruction(0)) ||
      !OnlyElementsAreRead(*condition.parameter_instruction(0))) {
    return {};
  }
  const std::optional<CountedLoop> counted = FindCountedLoop(loop);
  if (!counted || counted->trips() == 0) return {};
  const int64_t trips = counted->trips();
  auto invariant = [&](int64_t element) {
    int64_t read = -1;
    return IsParameterElement(*root.operand(element), &read) && read == element;
  };
  std::vector<HoistedDot> found;
  int64_t element = static_cast<int64_t>(root.operands().size());
  for (const HloInstruction* dot : body.instructions()) {
    if (dot->opcode() != HloOpcode::kDot) continue;
    const DotDimensionNumbers& numbers = dot->dot_dimension_numbers();
    const HloInstruction& reshape = *dot->operand(0);
    if (!numbers.lhs_batch_dimensions.empty() ||
        reshape.opcode() != HloOpcode::kReshape ||
        reshape.operand(0)->opcode() != HloOpcode::kDynamicSlice) {
      continue;
    }
    const HloInstruction& slice = *reshape.operand(0);
    HoistedDot hoist;
    hoist.dot = dot;
    if (!IsParameterElement(*slice.operand(0), &hoist.input) ||
        !invariant(hoist.input)) {
      continue;
    }
    const HloInstruction& weights = *dot->operand(1);
    if (weights.opcode() != HloOpcode::kConstant &&
        !(IsParameterElement(weights, &hoist.weights) &&
          invariant(hoist.weights))) {
      continue;
    }
    // The slice is whole but along one dimension, one wide there, and the
    // reshape drops exactly that dimension.
    const Shape& input = slice.operand(0)->shape();
    std::vector<int64_t> kept;
    int64_t partial = 0;
    for (int64_t d = 0; d < input.rank(); ++d) {
      if (slice.shape().dim(d) == input.dim(d)) {
        kept.push_back(input.dim(d));
        continue;
      }
      ++partial;
      hoist.sliced = d;
    }
    if (partial != 1 || slice.shape().dim(hoist.sliced) != 1 ||
        reshape.shape().dims() != kept || trips * 2 < input.dim(hoist.sliced)) {
      continue;
    }
    // Dimension r of the step's operand is dimension r (or r + 1 past the
    // sliced one) of X.
    hoist.numbers = numbers;
    std::vector<bool> contracted(static_cast<std::size_t>(input.rank()));
    for (int64_t& d : hoist.numbers.lhs_contracting_dimensions) {
      if (d >= hoist.sliced) ++d;
      contracted[static_cast<std::size_t>(d)] = true;
    }
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < input.rank(); ++d) {
      if (contracted[static_cast<std::size_t>(d)]) continue;
      if (d == hoist.sliced) {
        hoist.product_sliced = static_cast<int64_t>(dims.size());
      }
      dims.push_back(input.dim(d));
    }
    const std::size_t step_free = dims.size() - 1;
    for (std::size_t d = step_free; d < dot->shape().dims().size(); ++d) {
      dims.push_back(dot->shape().dim(static_cast<int64_t>(d)));
    }
    hoist.shape = Shape(dot->shape().element_type(), dims);
    if (hoist.shape.ElementCount() > kLargestGrowth * input.ElementCount() ||
        hoist.shape.ByteSize() > kLargestHoistedBytes) {
      continue;
    }
    hoist.element = element++;
    found.push_back(std::move(hoist));
  }
  return found;
}

Shape WithElements(const Shape& tuple, const std::vector<HoistedDot>& dots) {
  std::vector<Shape> elements = tuple.tuple_shapes();
  for (const HoistedDot& dot : dots) elements.push_back(dot.shape);
  return Shape::Tuple(std::move(elements));
}

class ScanInputHoistingPass : public HloPass {
 public:
  const char* name() const override { return "hoist-scan-inputs"; }

  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    // The loops with dots to hoist, by the computations they call.
    std::map<const HloInstruction*, std::vector<HoistedDot>> loops;
    std::map<const HloComputation*, const HloInstruction*> loop_of;
    std::map<const HloComputation*, int64_t> callers;
    for (const HloComputation* computation : module.computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        for (const HloComputation* callee :
             instruction->called_computations()) {
          ++callers[callee];
        }
      }
    }
    for (const HloComputation* computation : module.computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        if (instruction->opcode() != HloOpcode::kWhile) continue;
        const HloComputation* condition = instruction->called_computations()[0];
        const HloComputation* body = instruction->called_computations()[1];
        if (callers[condition] != 1 || callers[body] != 1 ||
            condition == body) {
          continue;
        }
        std::vector<HoistedDot> dots = FindHoistableDots(*instruction);
        if (dots.empty()) continue;
        loop_of[condition] = instruction;
        loop_of[body] = instruction;
        loops[instruction] = std::move(dots);
      }
    }
    if (loops.empty()) return RewriteModule(module, Keep);
    std::map<const HloComputation*, HloInstruction*> parameters;
    return RewriteModule(
        module,
        [&](const HloInstruction& source,
            const std::vector<HloInstruction*>& operands,
            const std::vector<HloComputation*>& called,
            RewriteContext& context) -> StatusOr<HloInstruction*> {
          auto loop = loop_of.find(source.parent());
          if (loop != loop_of.end()) {
            return RewriteInLoop(source, operands, loops.at(loop->second),
                                 context, &parameters);
          }
          auto hoisted = loops.find(&source);
          if (hoisted == loops.end()) return nullptr;
          return RewriteLoop(source, operands, called, hoisted->second,
                             context);
        });
  }

 private:
  static StatusOr<HloInstruction*> Keep(const HloInstruction&,
                                        const std::vector<HloInstruction*>&,
                                        const std::vector<HloComputation*>&,
                                        RewriteContext&) {
    return nullptr;
  }

  // In the condition and body: the state parameter gains the products, the
  // body passes them on, and each hoisted dot becomes its step's slice.
  static HloInstruction* RewriteInLoop(
      const HloInstruction& source,
      const std::vector<HloInstruction*>& operands,
      const std::vector<HoistedDot>& dots, RewriteContext& context,
      std::map<const HloComputation*, HloInstruction*>* parameters) {
    HloComputation* computation = context.computation();
    if (source.opcode() == HloOpcode::kParameter) {
      HloInstruction* parameter =
          AddParameter(*computation, 0, WithElements(source.shape(), dots));
      (*parameters)[source.parent()] = parameter;
      return parameter;
    }
    HloInstruction* state = (*parameters)[source.parent()];
    auto element = [&](const HoistedDot& dot) {
      return context.AddNew(
          HloOpcode::kGetTupleElement, dot.shape, {state},
          [&](HloInstruction& e) { e.set_tuple_index(dot.element); });
    };
    if (&source == source.parent()->root_instruction() &&
        source.opcode() == HloOpcode::kTuple && source.shape().IsTuple()) {
      std::vector<HloInstruction*> elements = operands;
      for (const HoistedDot& dot : dots) elements.push_back(element(dot));
      return context.AddNew(HloOpcode::kTuple,
                            WithElements(source.shape(), dots), elements);
    }
    for (const HoistedDot& dot : dots) {
      if (dot.dot != &source) continue;
      // operands[0] is the reshape of the dynamic-slice of the step.
      HloInstruction* start = operands[0]->operand(0)->operand(1 + dot.sliced);
      const ElementType index_type = start->shape().element_type();
      std::vector<HloInstruction*> slice_operands = {element(dot)};
      std::vector<int64_t> sizes = dot.shape.dims();
      for (int64_t d = 0; d < dot.shape.rank(); ++d) {
        if (d == dot.product_sliced) {
          slice_operands.push_back(start);
          sizes[static_cast<std::size_t>(d)] = 1;
          continue;
        }
        slice_operands.push_back(
            context.AddNew(HloOpcode::kConstant, Shape(index_type, {}), {},
                           [&](HloInstruction& c) {
                             c.set_literal(Literal::Scalar(index_type, 0));
                           }));
      }
      HloInstruction* step = context.AddNew(
          HloOpcode::kDynamicSlice, Shape(dot.shape.element_type(), sizes),
          slice_operands,
          [&](HloInstruction& s) { s.set_dynamic_slice_sizes(sizes); });
      return context.AddNew(HloOpcode::kReshape, source.shape(), {step});
    }
    return nullptr;
  }

  // The loop itself: the products computed from the initial state, and
  // appended to it.
  static HloInstruction* RewriteLoop(
      const HloInstruction& source,
      const std::vector<HloInstruction*>& operands,
      const std::vector<HloComputation*>& called,
      const std::vector<HoistedDot>& dots, RewriteContext& context) {
    const HloInstruction& init = *operands[0];
    std::vector<HloInstruction*> elements(init.operands().begin(),
                                          init.operands().end());
    for (const HoistedDot& dot : dots) {
      HloInstruction* weights =
          dot.weights >= 0 ? elements[static_cast<std::size_t>(dot.weights)]
                           : context.Add(*dot.dot->operand(1), {});
      elements.push_back(context.AddNew(
          HloOpcode::kDot, dot.shape,
          {elements[static_cast<std::size_t>(dot.input)], weights},
          [&](HloInstruction& product) {
            product.CopyAttributesFrom(*dot.dot);
            product.set_dot_dimension_numbers(dot.numbers);
          }));
    }
    const Shape shape = WithElements(source.shape(), dots);
    HloInstruction* state = context.AddNew(HloOpcode::kTuple, shape, elements);
    return context.AddNew(HloOpcode::kWhile, shape, {state},
                          [&](HloInstruction& loop) {
                            for (HloComputation* callee : called) {
                              loop.AppendCalledComputation(callee);
                            }
                          });
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeScanInputHoistingPass() {
  return std::make_unique<ScanInputHoistingPass>();
}

}  // namespace phal
