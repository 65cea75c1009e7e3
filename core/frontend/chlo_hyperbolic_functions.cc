#include "core/frontend/chlo_hyperbolic_functions.h"

#include <cmath>
#include <limits>

#include "core/frontend/hlo_expression.h"

namespace phal {
namespace {

using Op = HloOpcode;

using Expression = HloExpression;

// exp(x + log(1/2)) -/+ exp(log(1/2) - x): e^x / 2 without overflowing
// where e^x does but e^x / 2 does not.
StatusOr<HloInstruction*> HalfExponentials(Expression& e, HloInstruction* x,
                                           Op combine) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log_half, e.Constant(std::log(0.5)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * up, e.Op(Op::kAdd, x, log_half));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * down,
                        e.Op(Op::kSubtract, log_half, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * exp_up, e.Op(Op::kExp, up));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * exp_down, e.Op(Op::kExp, down));
  return e.Op(combine, exp_up, exp_down);
}

// sinh: below |x| = 1, (m + m / (m + 1)) / 2 with m = expm1(x), which
// keeps the first-order term e^x - e^-x cancels; the halved exponentials
// elsewhere.
StatusOr<HloInstruction*> Sinh(Expression& e, HloInstruction* x) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * large,
                        HalfExponentials(e, x, Op::kSubtract));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * m, e.Op(Op::kExpm1, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * m_plus_one,
                        e.OpConstant(Op::kAdd, m, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ratio,
                        e.Op(Op::kDivide, m, m_plus_one));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * sum, e.Op(Op::kAdd, m, ratio));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * half, e.Constant(0.5));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * small, e.Op(Op::kMultiply, half, sum));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * abs, e.Op(Op::kAbs, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * below_one,
                        e.Compare(ComparisonDirection::kLt, abs, 1));
  return e.Select(below_one, small, large);
}

// asinh: sign(x) times, for a = |x|, log(2) + log(a) where a * a
// overflows and log1p(a + a * a / (1 + sqrt(1 + a * a))) below (the
// identity a + sqrt(1 + a^2) = 1 + a + a^2 / (1 + sqrt(1 + a^2)) keeps the
// low-order terms log loses near 1).
StatusOr<HloInstruction*> Asinh(Expression& e, HloInstruction* x) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * a, e.Op(Op::kAbs, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log_two, e.Constant(std::log(2.0)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log_a, e.Op(Op::kLog, a));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * huge, e.Op(Op::kAdd, log_two, log_a));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * a_squared, e.Op(Op::kMultiply, a, a));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one, e.Constant(1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one_plus_square,
                        e.Op(Op::kAdd, one, a_squared));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * root,
                        e.Op(Op::kSqrt, one_plus_square));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one_plus_root,
                        e.Op(Op::kAdd, one, root));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * quotient,
                        e.Op(Op::kDivide, a_squared, one_plus_root));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * argument, e.Op(Op::kAdd, a, quotient));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * finite, e.Op(Op::kLog1p, argument));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * overflows,
      e.Compare(ComparisonDirection::kGe, a, std::sqrt(e.Largest())));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * magnitude,
                        e.Select(overflows, huge, finite));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * sign, e.Op(Op::kSign, x));
  return e.Op(Op::kMultiply, sign, magnitude);
}

// acosh: log(2) + log(x) from half the largest finite value on (where the
// product below overflows), log1p(sqrt(x - 1) * (sqrt(x + 1) +
// sqrt(x - 1))) below: x - 1 + sqrt((x + 1)(x - 1)) without cancelling
// near 1, and NaN below 1 through sqrt.
StatusOr<HloInstruction*> Acosh(Expression& e, HloInstruction* x) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log_two, e.Constant(std::log(2.0)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log_x, e.Op(Op::kLog, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * huge, e.Op(Op::kAdd, log_two, log_x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * minus,
                        e.OpConstant(Op::kSubtract, x, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * plus, e.OpConstant(Op::kAdd, x, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * root_minus, e.Op(Op::kSqrt, minus));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * root_plus, e.Op(Op::kSqrt, plus));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * roots,
                        e.Op(Op::kAdd, root_plus, root_minus));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * product,
                        e.Op(Op::kMultiply, root_minus, roots));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * finite, e.Op(Op::kLog1p, product));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * overflows,
      e.Compare(ComparisonDirection::kGe, x, e.Largest() / 2));
  return e.Select(overflows, huge, finite);
}

// atanh: sign(x) * (log1p(2|x| / (1 - |x|)) / 2), the ratio
// (1 + a) / (1 - a) written as 1 + 2a / (1 - a) so that log1p keeps the
// low-order terms; NaN beyond 1.
StatusOr<HloInstruction*> Atanh(Expression& e, HloInstruction* x) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * a, e.Op(Op::kAbs, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * twice, e.Op(Op::kAdd, a, a));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one, e.Constant(1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * complement,
                        e.Op(Op::kSubtract, one, a));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ratio,
                        e.Op(Op::kDivide, twice, complement));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * log, e.Op(Op::kLog1p, ratio));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * half,
                        e.OpConstant(Op::kMultiply, log, 0.5));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * beyond_one,
                        e.Compare(ComparisonDirection::kGt, a, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * nan,
                        e.Constant(std::numeric_limits<double>::quiet_NaN()));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * magnitude,
                        e.Select(beyond_one, nan, half));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * sign, e.Op(Op::kSign, x));
  return e.Op(Op::kMultiply, sign, magnitude);
}

// sinh and cosh of f16 and bf16 run in f32, rounded once at the end.
bool WidensHalfPrecision(const std::string& name) {
  return name == "chlo.sinh" || name == "chlo.cosh";
}

StatusOr<HloInstruction*> Expand(const std::string& name, HloBuilder& b,
                                 HloInstruction* x) {
  Expression e(b, x);
  if (name == "chlo.sinh") return Sinh(e, x);
  if (name == "chlo.cosh") return HalfExponentials(e, x, Op::kAdd);
  if (name == "chlo.asinh") return Asinh(e, x);
  if (name == "chlo.acosh") return Acosh(e, x);
  return Atanh(e, x);
}

}  // namespace

bool ExpandsAsChloDefines(const std::string& name, const HloInstruction* x) {
  const bool hyperbolic = name == "chlo.sinh" || name == "chlo.cosh" ||
                          name == "chlo.asinh" || name == "chlo.acosh" ||
                          name == "chlo.atanh";
  return hyperbolic && IsFloat(x->shape().element_type());
}

StatusOr<HloInstruction*> ExpandChloHyperbolicFunction(const std::string& name,
                                                       HloBuilder& builder,
                                                       HloInstruction* x) {
  const ElementType type = x->shape().element_type();
  if (!IsFloat(type)) {
    return InvalidArgument(name + " expects floating-point operands, got " +
                           x->shape().ToString());
  }
  const bool widen =
      WidensHalfPrecision(name) &&
      (type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16);
  if (!widen) return Expand(name, builder, x);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * wide,
                        builder.Convert(x, PHAL_ELEMENT_TYPE_F32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result, Expand(name, builder, wide));
  return builder.Convert(result, type);
}

}  // namespace phal
