#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <vector>

#include "core/compiler/decompositions.h"
#include "core/reference/interpreter.h"

namespace phal {
namespace {

// The binary op `reducer` applies to its two parameters, when that is all
// it does and the op is associative and commutative; kParameter otherwise.
HloOpcode AssociativeOp(const HloComputation& reducer) {
  const HloInstruction* root = reducer.root_instruction();
  if (root == nullptr || root->operands().size() != 2) {
    return HloOpcode::kParameter;
  }
  const HloInstruction* a = root->operand(0);
  const HloInstruction* b = root->operand(1);
  if (a->opcode() != HloOpcode::kParameter ||
      b->opcode() != HloOpcode::kParameter ||
      a->parameter_number() + b->parameter_number() != 1) {
    return HloOpcode::kParameter;
  }
  switch (root->opcode()) {
    case HloOpcode::kAdd:
    case HloOpcode::kMultiply:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
      return root->opcode();
    default:
      return HloOpcode::kParameter;
  }
}

// The scalar constant `init` stands for, through the scalar broadcasts and
// reshapes a front end may put around it, or null.
const HloInstruction* ScalarConstant(const HloInstruction& init) {
  const HloInstruction* constant = &init;
  while ((constant->opcode() == HloOpcode::kBroadcast ||
          constant->opcode() == HloOpcode::kReshape) &&
         constant->operands().size() == 1 &&
         constant->operand(0)->shape().ElementCount() == 1) {
    constant = constant->operand(0);
  }
  if (constant->opcode() != HloOpcode::kConstant ||
      constant->literal().ElementCount() != 1) {
    return nullptr;
  }
  return constant;
}

// The smallest and largest values of an integer type of at most 32 bits,
// exact in a double.
double LowestValue(ElementType type) {
  return IsSigned(type) ? -std::ldexp(1.0, ElementTypeBitWidth(type) - 1) : 0;
}
double HighestValue(ElementType type) {
  return IsSigned(type) ? std::ldexp(1.0, ElementTypeBitWidth(type) - 1) - 1
                        : std::ldexp(1.0, ElementTypeBitWidth(type)) - 1;
}

// Whether `init` is the identity of `op` on `type`: combining it with any
// value gives the value, so the padding a shift brings in changes nothing.
// A front end may hand the init value through a scalar broadcast or
// reshape of the constant (StableHLO's broadcast_in_dim to tensor<f32>).
bool IsIdentity(HloOpcode op, ElementType type, const HloInstruction& init) {
  const HloInstruction* constant = ScalarConstant(init);
  if (constant == nullptr) return false;
  const double value = constant->literal().GetAsDouble(0);
  const bool is_float = IsFloat(type);
  const bool narrow_integer =
      IsIntegral(type) && ElementTypeBitWidth(type) <= 32;
  switch (op) {
    case HloOpcode::kAdd:
      return value == 0 && (is_float || IsIntegral(type));
    case HloOpcode::kMultiply:
      return value == 1 && (is_float || IsIntegral(type));
    case HloOpcode::kMaximum:
      if (is_float) return value == -std::numeric_limits<double>::infinity();
      return narrow_integer && value == LowestValue(type);
    case HloOpcode::kMinimum:
      if (is_float) return value == std::numeric_limits<double>::infinity();
      return narrow_integer && value == HighestValue(type);
    default:
      return false;
  }
}

// Whether every instruction of `body` is a parameter, a scalar constant or
// an elementwise op, so it can be applied to whole arrays.
bool IsElementwiseBody(const HloComputation& body) {
  if (body.parameter_instructions().size() != 2) return false;
  for (const HloInstruction* instruction : body.instructions()) {
    const HloOpcode opcode = instruction->opcode();
    if (!instruction->shape().IsArray() ||
        instruction->shape().ElementCount() != 1 ||
        !instruction->shape().dims().empty()) {
      return false;
    }
    if (opcode != HloOpcode::kParameter && opcode != HloOpcode::kConstant &&
        !IsElementwise(opcode)) {
      return false;
    }
  }
  return body.root_instruction() != nullptr;
}

// body(a, b) applied element by element to arrays `a` and `b` of `shape`:
// the body's instructions on arrays, its constants broadcast.
HloInstruction* ApplyElementwise(RewriteContext& context,
                                 const HloComputation& body, HloInstruction* a,
                                 HloInstruction* b, const Shape& shape) {
  std::unordered_map<const HloInstruction*, HloInstruction*> mapped;
  for (const HloInstruction* instruction : body.instructions()) {
    const Shape array(instruction->shape().element_type(), shape.dims());
    if (instruction->opcode() == HloOpcode::kParameter) {
      mapped[instruction] = instruction->parameter_number() == 0 ? a : b;
      continue;
    }
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(mapped.at(operand));
    }
    HloInstruction* added = context.Add(*instruction, operands);
    if (instruction->opcode() == HloOpcode::kConstant) {
      added = context.AddNew(
          HloOpcode::kBroadcast, array, {added},
          [](HloInstruction& broadcast) { broadcast.set_dimensions({}); });
    } else {
      added->mutable_shape() = array;
    }
    mapped[instruction] = added;
  }
  return mapped.at(body.root_instruction());
}

// Values of `type` an identity must leave unchanged: signed zeros, small
// and large magnitudes, the extremes, infinities and NaN for floats;
// zero, small values and the extremes for integers.
Literal ProbeValues(ElementType type) {
  if (IsFloat(type)) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> values = {
        0.0,    -0.0,   1.0,   -1.0,  0.5,  -3.25, 100.0,
        -1e3,   1e-3,   7e4,   -6e4,  1e20, -1e20, 1e-20,
        -1e-30, 3.0e38, -3e38, 1e-40, inf,  -inf,  std::nan("")};
    for (int e = -60; e <= 60; e += 7) values.push_back(std::ldexp(1.37, e));
    return Literal::FromValues(type, {static_cast<int64_t>(values.size())},
                               values);
  }
  std::vector<int64_t> values = {0, 1, -1, 2, -2, 100, -100, 12345, -12345};
  if (ElementTypeBitWidth(type) <= 32) {
    values.push_back(static_cast<int64_t>(LowestValue(type)));
    values.push_back(static_cast<int64_t>(HighestValue(type)));
  }
  return Literal::FromValues(type, {static_cast<int64_t>(values.size())},
                             values);
}

// Whether body(init, v) and body(v, init) give v for every probe value v
// (ProbeValues), evaluated by the reference interpreter; a float result
// matches when equal as a number (either zero for a zero, as x + 0 gives
// +0 for -0) or both are NaN.
bool IsProbedIdentity(const HloComputation& body, const HloInstruction& init,
                      ElementType type) {
  const HloInstruction* constant = ScalarConstant(init);
  if (constant == nullptr || IsComplex(type) ||
      (!IsFloat(type) && !IsIntegral(type))) {
    return false;
  }
  const Literal values = ProbeValues(type);
  const Shape shape = values.shape();
  Literal inits(shape);
  const std::size_t width = inits.byte_size() / values.ElementCount();
  for (int64_t i = 0; i < values.ElementCount(); ++i) {
    std::memcpy(inits.data() + i * width, constant->literal().data(), width);
  }
  HloModule module("identity_probe");
  auto computation = std::make_unique<HloComputation>("identity_probe");
  HloInstruction* a = AddParameter(*computation, 0, shape);
  HloInstruction* b = AddParameter(*computation, 1, shape);
  int64_t next_id = 0;
  RewriteContext context(&module, computation.get(), &next_id);
  HloInstruction* left = ApplyElementwise(context, body, a, b, shape);
  HloInstruction* right = ApplyElementwise(context, body, b, a, shape);
  computation->set_root_instruction(context.AddNew(
      HloOpcode::kTuple, Shape::Tuple({shape, shape}), {left, right}));
  module.set_entry_computation(module.AddComputation(std::move(computation)));
  std::vector<Literal> arguments;
  arguments.push_back(inits);
  arguments.push_back(values);
  StatusOr<Literal> results = Evaluate(module, arguments);
  if (!results.ok()) return false;
  for (const Literal& result : results->tuple_elements()) {
    if (result.shape() != shape) return false;
    for (int64_t i = 0; i < values.ElementCount(); ++i) {
      if (IsFloat(type)) {
        const double got = result.GetAsDouble(i);
        const double want = values.GetAsDouble(i);
        if (got != want && !(std::isnan(got) && std::isnan(want))) {
          return false;
        }
      } else if (std::memcmp(result.data() + i * width,
                             values.data() + i * width, width) != 0) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

StatusOr<HloInstruction*> DecomposeCumulativeReduceWindow(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context) {
  if (operands.size() != 2 || called.size() != 1 || !source.shape().IsArray()) {
    return nullptr;
  }
  HloInstruction* x = operands[0];
  HloInstruction* init = operands[1];
  const Shape& shape = x->shape();
  const ElementType type = shape.element_type();
  const std::vector<int64_t>& dims = shape.dims();
  const std::vector<WindowDimension>& window = source.window().dimensions;
  if (!shape.IsArray() || window.size() != dims.size() ||
      source.shape().dims() != dims) {
    return nullptr;
  }
  // One dimension `d` whose window spans it all, padded on one side only:
  // every output is the reduction of a prefix (or suffix) of its row.
  int64_t axis = -1;
  for (std::size_t d = 0; d < window.size(); ++d) {
    const WindowDimension& w = window[d];
    if (w.stride != 1 || w.base_dilation != 1 || w.window_dilation != 1) {
      return nullptr;
    }
    if (w.size == 1) {
      if (w.padding_low != 0 || w.padding_high != 0) return nullptr;
      continue;
    }
    if (axis >= 0) return nullptr;
    axis = static_cast<int64_t>(d);
  }
  if (axis < 0) return nullptr;
  const WindowDimension& w = window[static_cast<std::size_t>(axis)];
  const int64_t n = dims[static_cast<std::size_t>(axis)];
  const bool prefix = w.padding_low == w.size - 1 && w.padding_high == 0;
  const bool suffix = w.padding_low == 0 && w.padding_high == w.size - 1;
  if ((!prefix && !suffix) || w.size < n) return nullptr;
  // The reducer: one associative op, or any elementwise computation whose
  // init value the probes find to be an identity (logaddexp from -inf, as
  // cumlogsumexp writes it).
  const HloComputation& body = *called[0];
  const HloOpcode op = AssociativeOp(body);
  if (op != HloOpcode::kParameter
          ? !IsIdentity(op, type, *init)
          : !IsElementwiseBody(body) || !IsProbedIdentity(body, *init, type)) {
    return nullptr;
  }
  auto combine = [&](HloInstruction* earlier, HloInstruction* later) {
    return op != HloOpcode::kParameter
               ? context.AddNew(op, shape, {earlier, later})
               : ApplyElementwise(context, body, earlier, later, shape);
  };
  // A logarithmic scan: after the step of shift k, y[i] reduces the 2k
  // elements up to i (prefix) or from i (suffix), the identity standing in
  // beyond the row's end; one kernel a step.
  const std::size_t a = static_cast<std::size_t>(axis);
  HloInstruction* y = x;
  for (int64_t k = 1; k < n; k *= 2) {
    std::vector<int64_t> starts(dims.size(), 0);
    std::vector<int64_t> limits = dims;
    std::vector<int64_t> part_dims = dims;
    part_dims[a] = n - k;
    if (prefix) {
      limits[a] = n - k;
    } else {
      starts[a] = k;
    }
    HloInstruction* part = context.AddNew(
        HloOpcode::kSlice, Shape(type, part_dims), {y},
        [&](HloInstruction& slice) {
          slice.set_slice(starts, limits, std::vector<int64_t>(dims.size(), 1));
        });
    PaddingConfig padding;
    padding.dimensions.resize(dims.size());
    (prefix ? padding.dimensions[a].low : padding.dimensions[a].high) = k;
    HloInstruction* shifted = context.AddNew(
        HloOpcode::kPad, shape, {part, init},
        [&](HloInstruction& pad) { pad.set_padding_config(padding); });
    y = prefix ? combine(shifted, y) : combine(y, shifted);
    // Each step reads the last one's result at two positions: fused into
    // one kernel, the steps would recompute every earlier one at each, 2^k
    // times over. The barrier keeps every step's result in memory.
    if (2 * k < n) {
      y = context.AddNew(HloOpcode::kOptimizationBarrier, shape, {y});
    }
  }
  return y;
}

}  // namespace phal
