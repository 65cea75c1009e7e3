#include "core/frontend/chlo_decompositions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/frontend/chlo_hyperbolic_functions.h"
#include "core/frontend/hlo_expression.h"

namespace phal {
namespace {

using Results = std::vector<HloInstruction*>;

const std::map<std::string, HloOpcode>& BroadcastingBinaryOps() {
  static const auto* ops = new std::map<std::string, HloOpcode>{
      {"chlo.broadcast_add", HloOpcode::kAdd},
      {"chlo.broadcast_subtract", HloOpcode::kSubtract},
      {"chlo.broadcast_multiply", HloOpcode::kMultiply},
      {"chlo.broadcast_divide", HloOpcode::kDivide},
      {"chlo.broadcast_maximum", HloOpcode::kMaximum},
      {"chlo.broadcast_minimum", HloOpcode::kMinimum},
      {"chlo.broadcast_remainder", HloOpcode::kRemainder},
      {"chlo.broadcast_power", HloOpcode::kPower},
      {"chlo.broadcast_atan2", HloOpcode::kAtan2},
      {"chlo.broadcast_and", HloOpcode::kAnd},
      {"chlo.broadcast_or", HloOpcode::kOr},
      {"chlo.broadcast_xor", HloOpcode::kXor},
      {"chlo.broadcast_shift_left", HloOpcode::kShiftLeft},
      {"chlo.broadcast_shift_right_arithmetic",
       HloOpcode::kShiftRightArithmetic},
      {"chlo.broadcast_shift_right_logical", HloOpcode::kShiftRightLogical},
      {"chlo.broadcast_complex", HloOpcode::kComplex},
      {"chlo.broadcast_compare", HloOpcode::kCompare},
  };
  return *ops;
}

using Graph = HloExpression;

// Floating-point decompositions run in f32 for f16 and bf16 (as XLA's chlo
// lowering does) and in the operand's type otherwise.
template <typename Body>
StatusOr<HloInstruction*> InWorkingPrecision(HloBuilder& b, HloInstruction* x,
                                             Body body) {
  const ElementType type = x->shape().element_type();
  if (!IsFloat(type)) {
    return InvalidArgument(
        std::string("expects a floating-point operand, got ") +
        x->shape().ToString());
  }
  const bool widen =
      type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * working,
                        widen ? b.Convert(x, PHAL_ELEMENT_TYPE_F32)
                              : StatusOr<HloInstruction*>(x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result, body(working));
  return b.Convert(result, type);
}

// erf_inv: Giles' single-precision approximation ("Approximating the erfinv
// function", GPU Computing Gems), the one XLA uses, followed for f64 by two
// Newton steps on erf(y) = x, which reach double precision.
StatusOr<HloInstruction*> ErfInv(HloBuilder& b, HloInstruction* x) {
  return InWorkingPrecision(
      b, x, [&](HloInstruction* v) -> StatusOr<HloInstruction*> {
        Graph g(b, v);
        PHAL_ASSIGN_OR_RETURN(HloInstruction * one_minus,
                              g.Op(HloOpcode::kSubtract, *g.Constant(1), v));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * one_plus,
                              g.OpConstant(HloOpcode::kAdd, v, 1));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * product,
                              g.Op(HloOpcode::kMultiply, one_minus, one_plus));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * log,
                              g.Op(HloOpcode::kLog, product));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * w,
                              g.Op(HloOpcode::kNegate, log));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * w_small,
                              g.OpConstant(HloOpcode::kSubtract, w, 2.5));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * sqrt_w,
                              g.Op(HloOpcode::kSqrt, w));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * w_large,
                              g.OpConstant(HloOpcode::kSubtract, sqrt_w, 3));
        PHAL_ASSIGN_OR_RETURN(
            HloInstruction * p_small,
            g.Polynomial(w_small,
                         {2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                          -4.39150654e-06, 0.00021858087, -0.00125372503,
                          -0.00417768164, 0.246640727, 1.50140941}));
        PHAL_ASSIGN_OR_RETURN(
            HloInstruction * p_large,
            g.Polynomial(w_large,
                         {-0.000200214257, 0.000100950558, 0.00134934322,
                          -0.00367342844, 0.00573950773, -0.0076224613,
                          0.00943887047, 1.00167406, 2.83297682}));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * five, g.Constant(5));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * is_small,
                              b.Compare(ComparisonDirection::kLt, w, five));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * p,
                              b.Select(is_small, p_small, p_large));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * y,
                              g.Op(HloOpcode::kMultiply, p, v));
        if (v->shape().element_type() == PHAL_ELEMENT_TYPE_F64) {
          // y -= (erf(y) - x) / (2/sqrt(pi) * exp(-y^2)), twice.
          for (int step = 0; step < 2; ++step) {
            PHAL_ASSIGN_OR_RETURN(HloInstruction * erf,
                                  g.Op(HloOpcode::kErf, y));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * residual,
                                  g.Op(HloOpcode::kSubtract, erf, v));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * square,
                                  g.Op(HloOpcode::kMultiply, y, y));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * negated,
                                  g.Op(HloOpcode::kNegate, square));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * gauss,
                                  g.Op(HloOpcode::kExp, negated));
            PHAL_ASSIGN_OR_RETURN(
                HloInstruction * slope,
                g.OpConstant(HloOpcode::kMultiply, gauss, 2 / std::sqrt(M_PI)));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * delta,
                                  g.Op(HloOpcode::kDivide, residual, slope));
            PHAL_ASSIGN_OR_RETURN(HloInstruction * refined,
                                  g.Op(HloOpcode::kSubtract, y, delta));
            // Near |x| = 1 the slope underflows; keep the approximation there.
            PHAL_ASSIGN_OR_RETURN(HloInstruction * finite,
                                  g.Op(HloOpcode::kIsFinite, refined));
            PHAL_ASSIGN_OR_RETURN(y, b.Select(finite, refined, y));
          }
        }
        // erf_inv(+-1) = +-inf.
        PHAL_ASSIGN_OR_RETURN(HloInstruction * magnitude,
                              g.Op(HloOpcode::kAbs, v));
        PHAL_ASSIGN_OR_RETURN(HloInstruction * one, g.Constant(1));
        PHAL_ASSIGN_OR_RETURN(
            HloInstruction * at_pole,
            b.Compare(ComparisonDirection::kEq, magnitude, one));
        PHAL_ASSIGN_OR_RETURN(
            HloInstruction * infinite,
            g.OpConstant(HloOpcode::kMultiply, v,
                         std::numeric_limits<double>::infinity()));
        return b.Select(at_pole, infinite, y);
      });
}

StatusOr<HloInstruction*> IsInfinity(HloBuilder& b, const std::string& name,
                                     HloInstruction* x) {
  Graph g(b, x);
  const double infinity = std::numeric_limits<double>::infinity();
  if (name == "chlo.is_inf") {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * magnitude, g.Op(HloOpcode::kAbs, x));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * inf, g.Constant(infinity));
    return b.Compare(ComparisonDirection::kEq, magnitude, inf);
  }
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * inf,
      g.Constant(name == "chlo.is_pos_inf" ? infinity : -infinity));
  return b.Compare(ComparisonDirection::kEq, x, inf);
}

// Numpy broadcasting of `operand` to `dims`: right-aligned, or along
// `mapping` when the op states broadcast_dimensions.
StatusOr<HloInstruction*> BroadcastTo(
    HloBuilder& b, HloInstruction* operand, const std::vector<int64_t>& dims,
    const std::optional<std::vector<int64_t>>& mapping) {
  if (operand->shape().dims() == dims) return operand;
  const int64_t rank = operand->shape().rank();
  std::vector<int64_t> target;
  if (mapping.has_value() && static_cast<int64_t>(mapping->size()) == rank) {
    target = *mapping;
  } else {
    const int64_t offset = static_cast<int64_t>(dims.size()) - rank;
    for (int64_t i = 0; i < rank; ++i) target.push_back(i + offset);
  }
  return b.Broadcast(operand, dims, target);
}

StatusOr<HloInstruction*> BroadcastingBinary(HloBuilder& b, const ChloOp& op,
                                             HloOpcode opcode) {
  HloInstruction* lhs = op.operands[0];
  HloInstruction* rhs = op.operands[1];
  const Shape& l = lhs->shape();
  const Shape& r = rhs->shape();
  std::vector<int64_t> dims;
  if (!op.result_types.empty() && op.result_types[0].IsArray()) {
    dims = op.result_types[0].dims();
  } else {
    const int64_t rank = std::max(l.rank(), r.rank());
    dims.assign(static_cast<std::size_t>(rank), 1);
    for (const Shape* side : {&l, &r}) {
      const int64_t offset = rank - side->rank();
      for (int64_t i = 0; i < side->rank(); ++i) {
        auto& dim = dims[static_cast<std::size_t>(i + offset)];
        dim = std::max(dim, side->dim(i));
      }
    }
  }
  const bool lhs_is_lower = l.rank() < r.rank();
  PHAL_ASSIGN_OR_RETURN(
      lhs, BroadcastTo(b, lhs, dims,
                       lhs_is_lower ? op.broadcast_dimensions : std::nullopt));
  PHAL_ASSIGN_OR_RETURN(
      rhs, BroadcastTo(b, rhs, dims,
                       lhs_is_lower ? std::nullopt : op.broadcast_dimensions));
  if (opcode == HloOpcode::kCompare) {
    return b.Compare(op.comparison_direction, lhs, rhs, op.comparison_type);
  }
  return b.Binary(opcode, lhs, rhs);
}

// top_k along the last dimension: HLO's topk (largest first, equal values
// in index order, floats in the total order), which the compiler's
// decompose-ops pass turns into sorts (docs/compiler.md).
StatusOr<Results> TopK(HloBuilder& b, const ChloOp& op,
                       const ComputationSink&) {
  HloInstruction* values = op.operands[0];
  const Shape& shape = values->shape();
  if (shape.rank() == 0)
    return InvalidArgument("top_k needs an operand of rank >= 1");
  const int64_t last = shape.rank() - 1;
  if (op.k < 0 || op.k > shape.dim(last)) {
    return InvalidArgument("k = " + std::to_string(op.k) +
                           " is out of range for " + shape.ToString());
  }
  std::vector<int64_t> dims = shape.dims();
  dims.back() = op.k;
  auto top_k = b.Create(HloOpcode::kTopK,
                        Shape::Tuple({Shape(shape.element_type(), dims),
                                      Shape(PHAL_ELEMENT_TYPE_S32, dims)}),
                        {values});
  top_k->set_top_k(op.k);
  top_k->set_largest(true);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * selected, b.Add(std::move(top_k)));
  Results results;
  for (int64_t i = 0; i < 2; ++i) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * element,
                          b.GetTupleElement(selected, i));
    results.push_back(element);
  }
  return results;
}

// The high half of the double-width product. Narrow types multiply in the
// next wider type; 64-bit types combine the 32-bit partial products.
StatusOr<HloInstruction*> MulHi(HloBuilder& b, HloInstruction* x,
                                HloInstruction* y) {
  const ElementType type = x->shape().element_type();
  if (!IsIntegral(type)) return InvalidArgument("mulhi needs integer operands");
  const bool is_signed = IsSigned(type);
  const int bits = ElementTypeBitWidth(type);
  if (bits < 64) {
    const ElementType wide =
        bits == 8 ? (is_signed ? PHAL_ELEMENT_TYPE_S16 : PHAL_ELEMENT_TYPE_U16)
        : bits == 16
            ? (is_signed ? PHAL_ELEMENT_TYPE_S32 : PHAL_ELEMENT_TYPE_U32)
            : (is_signed ? PHAL_ELEMENT_TYPE_S64 : PHAL_ELEMENT_TYPE_U64);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * wx, b.Convert(x, wide));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * wy, b.Convert(y, wide));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * product,
                          b.Binary(HloOpcode::kMultiply, wx, wy));
    Graph g(b, product);
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * high,
        g.OpConstant(is_signed ? HloOpcode::kShiftRightArithmetic
                               : HloOpcode::kShiftRightLogical,
                     product, bits));
    return b.Convert(high, type);
  }
  auto u = [&](HloInstruction* v) {
    auto bitcast =
        b.Create(HloOpcode::kBitcastConvert,
                 Shape(PHAL_ELEMENT_TYPE_U64, v->shape().dims()), {v});
    return b.Add(std::move(bitcast));
  };
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ux,
                        is_signed ? u(x) : StatusOr<HloInstruction*>(x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * uy,
                        is_signed ? u(y) : StatusOr<HloInstruction*>(y));
  Graph g(b, ux);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * mask, g.Constant(4294967295.0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * x_lo, g.Op(HloOpcode::kAnd, ux, mask));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * y_lo, g.Op(HloOpcode::kAnd, uy, mask));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * x_hi,
                        g.OpConstant(HloOpcode::kShiftRightLogical, ux, 32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * y_hi,
                        g.OpConstant(HloOpcode::kShiftRightLogical, uy, 32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * lo_lo,
                        g.Op(HloOpcode::kMultiply, x_lo, y_lo));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * hi_lo,
                        g.Op(HloOpcode::kMultiply, x_hi, y_lo));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * lo_hi,
                        g.Op(HloOpcode::kMultiply, x_lo, y_hi));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * hi_hi,
                        g.Op(HloOpcode::kMultiply, x_hi, y_hi));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * carry_in,
                        g.OpConstant(HloOpcode::kShiftRightLogical, lo_lo, 32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * hi_lo_low,
                        g.Op(HloOpcode::kAnd, hi_lo, mask));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * cross,
                        g.Op(HloOpcode::kAdd, carry_in, hi_lo_low));
  PHAL_ASSIGN_OR_RETURN(cross, g.Op(HloOpcode::kAdd, cross, lo_hi));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * hi_lo_high,
                        g.OpConstant(HloOpcode::kShiftRightLogical, hi_lo, 32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * cross_high,
                        g.OpConstant(HloOpcode::kShiftRightLogical, cross, 32));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * high,
                        g.Op(HloOpcode::kAdd, hi_hi, hi_lo_high));
  PHAL_ASSIGN_OR_RETURN(high, g.Op(HloOpcode::kAdd, high, cross_high));
  if (!is_signed) return high;
  // Signed high half = unsigned high half - (x < 0 ? y : 0) - (y < 0 ? x : 0).
  PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, g.Constant(0));
  for (auto [sign_of, subtrahend] : {std::pair{x, uy}, std::pair{y, ux}}) {
    Graph signed_graph(b, sign_of);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * signed_zero,
                          signed_graph.Constant(0));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * negative,
        b.Compare(ComparisonDirection::kLt, sign_of, signed_zero));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * correction,
                          b.Select(negative, subtrahend, zero));
    PHAL_ASSIGN_OR_RETURN(high, g.Op(HloOpcode::kSubtract, high, correction));
  }
  auto back = b.Create(HloOpcode::kBitcastConvert,
                       Shape(type, high->shape().dims()), {high});
  return b.Add(std::move(back));
}

StatusOr<HloInstruction*> ConstantLike(HloBuilder& b, const ChloOp& op) {
  return b.FullLike(op.operands[0], op.value);
}

StatusOr<HloInstruction*> Square(HloBuilder& b, HloInstruction* x) {
  return b.Binary(HloOpcode::kMultiply, x, x);
}

const std::map<std::string, int>& UnaryArity() {
  static const auto* arity = new std::map<std::string, int>{
      {"chlo.erf", 1},       {"chlo.erfc", 1},       {"chlo.tan", 1},
      {"chlo.erf_inv", 1},   {"chlo.atan", 1},       {"chlo.asin", 1},
      {"chlo.acos", 1},      {"chlo.sinh", 1},       {"chlo.cosh", 1},
      {"chlo.asinh", 1},     {"chlo.acosh", 1},      {"chlo.atanh", 1},
      {"chlo.is_inf", 1},    {"chlo.is_pos_inf", 1}, {"chlo.is_neg_inf", 1},
      {"chlo.conj", 1},      {"chlo.square", 1},     {"chlo.constant_like", 1},
      {"chlo.top_k", 1},     {"chlo.mulhi", 2},      {"chlo.lgamma", 1},
      {"chlo.digamma", 1},   {"chlo.bessel_i1e", 1}, {"chlo.next_after", 2},
      {"chlo.polygamma", 2}, {"chlo.zeta", 2},
  };
  return *arity;
}

// The special, inverse trigonometric and hyperbolic functions the HLO
// opcodes of the same names compute: the reference evaluates them in
// double (std::complex<double> for complex operands) and the compiler
// decomposes them for plugins.
const std::map<std::string, HloOpcode>& SpecialFunctions() {
  static const auto* ops = new std::map<std::string, HloOpcode>{
      {"chlo.lgamma", HloOpcode::kLgamma},
      {"chlo.digamma", HloOpcode::kDigamma},
      {"chlo.bessel_i1e", HloOpcode::kBesselI1e},
      {"chlo.next_after", HloOpcode::kNextAfter},
      {"chlo.polygamma", HloOpcode::kPolygamma},
      {"chlo.zeta", HloOpcode::kZeta},
      {"chlo.asin", HloOpcode::kAsin},
      {"chlo.acos", HloOpcode::kAcos},
      {"chlo.atan", HloOpcode::kAtan},
      {"chlo.sinh", HloOpcode::kSinh},
      {"chlo.cosh", HloOpcode::kCosh},
      {"chlo.asinh", HloOpcode::kAsinh},
      {"chlo.acosh", HloOpcode::kAcosh},
      {"chlo.atanh", HloOpcode::kAtanh},
  };
  return *ops;
}

StatusOr<HloInstruction*> DecomposeUnary(const ChloOp& op, HloBuilder& b) {
  HloInstruction* x = op.operands[0];
  const std::string& name = op.name;
  if (name == "chlo.erf") return b.Unary(HloOpcode::kErf, x);
  if (name == "chlo.erfc") return b.Unary(HloOpcode::kErfc, x);
  if (name == "chlo.tan") return b.Unary(HloOpcode::kTan, x);
  if (name == "chlo.erf_inv") return ErfInv(b, x);
  if (name == "chlo.is_inf" || name == "chlo.is_pos_inf" ||
      name == "chlo.is_neg_inf") {
    return IsInfinity(b, name, x);
  }
  if (name == "chlo.conj") return b.Conjugate(x);
  if (name == "chlo.square") return Square(b, x);
  if (name == "chlo.constant_like") return ConstantLike(b, op);
  if (name == "chlo.mulhi") return MulHi(b, x, op.operands[1]);
  if (ExpandsAsChloDefines(name, x)) {
    return ExpandChloHyperbolicFunction(name, b, x);
  }
  const auto special = SpecialFunctions().find(name);
  if (special != SpecialFunctions().end()) {
    const ElementType type = x->shape().element_type();
    const bool takes_complex = op.operands.size() == 1 &&
                               special->second != HloOpcode::kLgamma &&
                               special->second != HloOpcode::kDigamma &&
                               special->second != HloOpcode::kBesselI1e;
    if (!IsFloat(type) && !(takes_complex && IsComplex(type))) {
      return InvalidArgument(name + " expects floating-point operands, got " +
                             x->shape().ToString());
    }
    if (op.operands.size() == 1) return b.Unary(special->second, x);
    return b.Binary(special->second, x, op.operands[1]);
  }
  return InvalidArgument("no decomposition of " + name);
}

}  // namespace

bool IsDecomposableChloOp(const std::string& name) {
  return BroadcastingBinaryOps().count(name) > 0 ||
         UnaryArity().count(name) > 0;
}

StatusOr<std::vector<HloInstruction*>> DecomposeChloOp(
    const ChloOp& op, HloBuilder& builder,
    const ComputationSink& add_computation) {
  const auto binary = BroadcastingBinaryOps().find(op.name);
  const std::size_t arity =
      binary != BroadcastingBinaryOps().end()
          ? 2
          : static_cast<std::size_t>(UnaryArity().at(op.name));
  if (op.operands.size() != arity) {
    return InvalidArgument(op.name + " expects " + std::to_string(arity) +
                           " operands, got " +
                           std::to_string(op.operands.size()));
  }
  if (binary != BroadcastingBinaryOps().end()) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                          BroadcastingBinary(builder, op, binary->second));
    return Results{result};
  }
  if (op.name == "chlo.top_k") return TopK(builder, op, add_computation);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result, DecomposeUnary(op, builder));
  return Results{result};
}

}  // namespace phal
