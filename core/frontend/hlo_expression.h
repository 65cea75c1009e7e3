// Elementwise expressions over one HloBuilder for the front end's
// decompositions: every value has the shape of `like`, scalar constants are
// broadcast to it, and each method adds one op (or a few, for a
// polynomial).
#ifndef POLYHAL_CORE_FRONTEND_HLO_EXPRESSION_H_
#define POLYHAL_CORE_FRONTEND_HLO_EXPRESSION_H_

#include <cstddef>
#include <limits>
#include <vector>

#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

class HloExpression {
 public:
  HloExpression(HloBuilder& builder, HloInstruction* like)
      : b_(builder), like_(like) {}

  StatusOr<HloInstruction*> Constant(double value) {
    return b_.FullLike(like_, value);
  }
  StatusOr<HloInstruction*> Op(HloOpcode opcode, HloInstruction* x) {
    return b_.Unary(opcode, x);
  }
  StatusOr<HloInstruction*> Op(HloOpcode opcode, HloInstruction* x,
                               HloInstruction* y) {
    return b_.Binary(opcode, x, y);
  }
  StatusOr<HloInstruction*> OpConstant(HloOpcode opcode, HloInstruction* x,
                                       double c) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * constant, Constant(c));
    return b_.Binary(opcode, x, constant);
  }
  StatusOr<HloInstruction*> Compare(ComparisonDirection direction,
                                    HloInstruction* x, double c) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * constant, Constant(c));
    return b_.Compare(direction, x, constant);
  }
  StatusOr<HloInstruction*> Select(HloInstruction* predicate,
                                   HloInstruction* on_true,
                                   HloInstruction* on_false) {
    return b_.Select(predicate, on_true, on_false);
  }
  // c[0] * w^(n-1) + ... + c[n-1] by Horner's rule.
  StatusOr<HloInstruction*> Polynomial(HloInstruction* w,
                                       const std::vector<double>& c) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * p, Constant(c[0]));
    for (std::size_t i = 1; i < c.size(); ++i) {
      PHAL_ASSIGN_OR_RETURN(p, Op(HloOpcode::kMultiply, p, w));
      PHAL_ASSIGN_OR_RETURN(p, OpConstant(HloOpcode::kAdd, p, c[i]));
    }
    return p;
  }

  // The element type's largest finite value.
  double Largest() const {
    switch (like_->shape().element_type()) {
      case PHAL_ELEMENT_TYPE_F16:
        return 65504.0;
      case PHAL_ELEMENT_TYPE_BF16:
        return 3.3895313892515355e38;
      case PHAL_ELEMENT_TYPE_F32:
        return std::numeric_limits<float>::max();
      default:
        return std::numeric_limits<double>::max();
    }
  }

  HloBuilder& builder() { return b_; }

 private:
  HloBuilder& b_;
  HloInstruction* like_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_HLO_EXPRESSION_H_
