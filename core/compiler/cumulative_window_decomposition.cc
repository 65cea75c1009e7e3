#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/compiler/decompositions.h"

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
  const HloInstruction* constant = &init;
  while ((constant->opcode() == HloOpcode::kBroadcast ||
          constant->opcode() == HloOpcode::kReshape) &&
         constant->operands().size() == 1 &&
         constant->operand(0)->shape().ElementCount() == 1) {
    constant = constant->operand(0);
  }
  if (constant->opcode() != HloOpcode::kConstant ||
      constant->literal().ElementCount() != 1) {
    return false;
  }
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
  const HloOpcode op = AssociativeOp(*called[0]);
  if (op == HloOpcode::kParameter || !IsIdentity(op, type, *init)) {
    return nullptr;
  }
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
    y = prefix ? context.AddNew(op, shape, {shifted, y})
               : context.AddNew(op, shape, {y, shifted});
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
