// A builder of elementwise instructions of one dimension list for the
// decompositions of special functions: every value has those dimensions,
// scalar constants are broadcast to them, and the element type of a
// result follows its operands (pred for comparisons).
#ifndef POLYHAL_CORE_COMPILER_ELEMENTWISE_GRAPH_H_
#define POLYHAL_CORE_COMPILER_ELEMENTWISE_GRAPH_H_

#include <cstdint>
#include <vector>

#include "core/compiler/hlo_rewriter.h"

namespace phal {

class ElementwiseGraph {
 public:
  // `type` is the element type of Constant's values.
  ElementwiseGraph(RewriteContext& context, const std::vector<int64_t>& dims,
                   ElementType type)
      : context_(context), dims_(dims), type_(type) {}

  ElementType type() const { return type_; }

  HloInstruction* Constant(double value) { return Constant(type_, value); }
  HloInstruction* Constant(ElementType type, double value) {
    HloInstruction* scalar = context_.AddNew(
        HloOpcode::kConstant, Shape(type, {}), {}, [&](HloInstruction& c) {
          c.set_literal(Literal::Scalar(type, value));
        });
    return context_.AddNew(HloOpcode::kBroadcast, Shape(type, dims_), {scalar},
                           [](HloInstruction& b) { b.set_dimensions({}); });
  }
  HloInstruction* Op(HloOpcode opcode, HloInstruction* x) {
    return context_.AddNew(opcode, x->shape(), {x});
  }
  HloInstruction* Op(HloOpcode opcode, HloInstruction* x, HloInstruction* y) {
    return context_.AddNew(opcode, x->shape(), {x, y});
  }
  HloInstruction* Add(HloInstruction* x, HloInstruction* y) {
    return Op(HloOpcode::kAdd, x, y);
  }
  HloInstruction* Subtract(HloInstruction* x, HloInstruction* y) {
    return Op(HloOpcode::kSubtract, x, y);
  }
  HloInstruction* Multiply(HloInstruction* x, HloInstruction* y) {
    return Op(HloOpcode::kMultiply, x, y);
  }
  HloInstruction* Divide(HloInstruction* x, HloInstruction* y) {
    return Op(HloOpcode::kDivide, x, y);
  }
  HloInstruction* Compare(ComparisonDirection direction, HloInstruction* x,
                          HloInstruction* y) {
    return context_.AddNew(
        HloOpcode::kCompare, Shape(PHAL_ELEMENT_TYPE_PRED, dims_), {x, y},
        [&](HloInstruction& c) { c.set_comparison_direction(direction); });
  }
  HloInstruction* Less(HloInstruction* x, HloInstruction* y) {
    return Compare(ComparisonDirection::kLt, x, y);
  }
  HloInstruction* Select(HloInstruction* condition, HloInstruction* on_true,
                         HloInstruction* on_false) {
    return context_.AddNew(HloOpcode::kSelect, on_true->shape(),
                           {condition, on_true, on_false});
  }
  HloInstruction* Convert(HloInstruction* x, ElementType type) {
    if (x->shape().element_type() == type) return x;
    return context_.AddNew(HloOpcode::kConvert, Shape(type, dims_), {x});
  }
  HloInstruction* BitcastConvert(HloInstruction* x, ElementType type) {
    return context_.AddNew(HloOpcode::kBitcastConvert, Shape(type, dims_), {x});
  }
  HloInstruction* ReducePrecision(HloInstruction* x, int64_t exponent_bits,
                                  int64_t mantissa_bits) {
    return context_.AddNew(HloOpcode::kReducePrecision, x->shape(), {x},
                           [&](HloInstruction& r) {
                             r.set_exponent_bits(exponent_bits);
                             r.set_mantissa_bits(mantissa_bits);
                           });
  }
  HloInstruction* IsFinite(HloInstruction* x) {
    return context_.AddNew(HloOpcode::kIsFinite,
                           Shape(PHAL_ELEMENT_TYPE_PRED, dims_), {x});
  }
  // x != x.
  HloInstruction* IsNaN(HloInstruction* x) {
    return Compare(ComparisonDirection::kNe, x, x);
  }
  // c[0] * w^(n-1) + ... + c[n-1] by Horner's rule.
  HloInstruction* Polynomial(HloInstruction* w, const std::vector<double>& c) {
    HloInstruction* p = Constant(c[0]);
    for (std::size_t i = 1; i < c.size(); ++i) {
      p = Add(Multiply(p, w), Constant(c[i]));
    }
    return p;
  }

 private:
  RewriteContext& context_;
  std::vector<int64_t> dims_;
  ElementType type_;
};

// The working type of a decomposed floating-point function: f64 for f64,
// f32 for f32, f16 and bf16 (as XLA's decompositions compute narrow types).
inline ElementType WorkingFloatType(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_F64 ? PHAL_ELEMENT_TYPE_F64
                                       : PHAL_ELEMENT_TYPE_F32;
}

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_ELEMENTWISE_GRAPH_H_
