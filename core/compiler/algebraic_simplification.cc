#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// The scalar every element of `instruction` equals, when it is a constant
// or a broadcast of a scalar constant with all elements alike.
const Literal* UniformConstant(const HloInstruction& instruction) {
  const HloInstruction* constant = &instruction;
  if (constant->opcode() == HloOpcode::kBroadcast) {
    constant = constant->operand(0);
  }
  if (constant->opcode() != HloOpcode::kConstant ||
      !constant->shape().IsArray()) {
    return nullptr;
  }
  const Literal& literal = constant->literal();
  const std::size_t size = ElementTypeByteSize(literal.element_type());
  for (int64_t i = 1; i < literal.ElementCount(); ++i) {
    if (std::memcmp(literal.data(), literal.data() + i * size, size) != 0) {
      return nullptr;
    }
  }
  return literal.ElementCount() > 0 ? &literal : nullptr;
}

bool IsInteger(const Literal& literal) {
  return IsIntegral(literal.element_type()) ||
         literal.element_type() == PHAL_ELEMENT_TYPE_PRED;
}

// Bit-exact tests on the first element.
bool IsZero(const Literal& literal) {
  return IsInteger(literal) && literal.GetAsInt64(0) == 0;
}
bool IsOne(const Literal& literal) {
  const ElementType type = literal.element_type();
  if (IsInteger(literal)) return literal.GetAsInt64(0) == 1;
  return IsFloat(type) && literal.GetAsDouble(0) == 1.0;
}
bool IsPositiveZeroFloat(const Literal& literal) {
  const double value = literal.GetAsDouble(0);
  return IsFloat(literal.element_type()) && value == 0.0 &&
         !std::signbit(value);
}
bool IsNegativeZeroFloat(const Literal& literal) {
  const double value = literal.GetAsDouble(0);
  return IsFloat(literal.element_type()) && value == 0.0 && std::signbit(value);
}

bool IsIdentityPermutation(const std::vector<int64_t>& permutation) {
  for (std::size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// x op c -> x for the neutral constants that are neutral bit for bit:
// integer 0 for + and -, 1 for * and /, float 1 for * and /, +0 for
// subtraction and -0 for addition (x + 0 turns -0 into +0).
HloInstruction* SimplifyArithmetic(HloOpcode opcode, HloInstruction* lhs,
                                   HloInstruction* rhs) {
  const Literal* a = UniformConstant(*lhs);
  const Literal* b = UniformConstant(*rhs);
  auto neutral_add = [](const Literal* c) {
    return c != nullptr && (IsZero(*c) || IsNegativeZeroFloat(*c));
  };
  switch (opcode) {
    case HloOpcode::kAdd:
      if (neutral_add(b)) return lhs;
      if (neutral_add(a)) return rhs;
      return nullptr;
    case HloOpcode::kSubtract:
      return b != nullptr && (IsZero(*b) || IsPositiveZeroFloat(*b)) ? lhs
                                                                     : nullptr;
    case HloOpcode::kMultiply:
      if (b != nullptr && IsOne(*b)) return lhs;
      if (a != nullptr && IsOne(*a)) return rhs;
      return nullptr;
    case HloOpcode::kDivide:
      return b != nullptr && IsOne(*b) ? lhs : nullptr;
    default:
      return nullptr;
  }
}

bool IsNoPadding(const PaddingConfig& config) {
  for (const PaddingDimension& d : config.dimensions) {
    if (d.low != 0 || d.high != 0 || d.interior != 0) return false;
  }
  return true;
}

HloInstruction* SimplifyShape(const HloInstruction& source,
                              const std::vector<HloInstruction*>& operands) {
  HloInstruction* operand = operands.empty() ? nullptr : operands[0];
  const Shape& shape = source.shape();
  const bool same_shape =
      operand != nullptr && operand->shape().IsArray() && shape.IsArray() &&
      operand->shape().dims() == shape.dims() &&
      operand->shape().element_type() == shape.element_type();
  switch (source.opcode()) {
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kCopy:
    case HloOpcode::kConvert:
      return same_shape ? operand : nullptr;
    case HloOpcode::kTranspose:
      return IsIdentityPermutation(source.dimensions()) ? operand : nullptr;
    case HloOpcode::kBroadcast:
      return same_shape && IsIdentityPermutation(source.dimensions()) ? operand
                                                                      : nullptr;
    case HloOpcode::kReverse:
      return source.dimensions().empty() ? operand : nullptr;
    case HloOpcode::kSlice:
    case HloOpcode::kDynamicSlice:
      return same_shape ? operand : nullptr;
    case HloOpcode::kPad:
      return same_shape && IsNoPadding(source.padding_config()) ? operand
                                                                : nullptr;
    case HloOpcode::kConcatenate:
      return operands.size() == 1 ? operand : nullptr;
    default:
      return nullptr;
  }
}

// triangular-solve(transpose(a), b) -> triangular-solve(a, b) with the
// other triangle and op(a) transposed once more: the triangle of a's
// transpose is the other triangle of a, transposed. JAX writes the
// transpose of a Cholesky factor before its solves; this way the factor
// is read where it is. A complex adjoint of a's transpose would be a's
// conjugate, which op(a) cannot say: that one stays.
HloInstruction* FoldTransposedTriangle(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  if (source.opcode() != HloOpcode::kTriangularSolve || operands.size() != 2 ||
      operands[0]->opcode() != HloOpcode::kTranspose ||
      operands[0]->shape().rank() < 2 ||
      operands[0]->dimensions() != SwapMinor(operands[0]->shape().rank())) {
    return nullptr;
  }
  LinearAlgebraOptions options = source.linear_algebra();
  switch (options.transpose_a) {
    case TriangularSolveTranspose::kNone:
      options.transpose_a = TriangularSolveTranspose::kTranspose;
      break;
    case TriangularSolveTranspose::kTranspose:
      options.transpose_a = TriangularSolveTranspose::kNone;
      break;
    case TriangularSolveTranspose::kAdjoint:
      if (IsComplex(source.shape().element_type())) return nullptr;
      options.transpose_a = TriangularSolveTranspose::kNone;
      break;
  }
  options.lower = !options.lower;
  return context.AddNew(
      HloOpcode::kTriangularSolve, source.shape(),
      {operands[0]->operands()[0], operands[1]},
      [&](HloInstruction& solve) { solve.set_linear_algebra(options); });
}

StatusOr<HloInstruction*> Simplify(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& /*called*/, RewriteContext& context) {
  if (operands.size() == 2) {
    if (HloInstruction* simpler =
            SimplifyArithmetic(source.opcode(), operands[0], operands[1])) {
      return simpler;
    }
  }
  if (HloInstruction* simpler = SimplifyShape(source, operands)) {
    return simpler;
  }
  if (HloInstruction* simpler =
          FoldTransposedTriangle(source, operands, context)) {
    return simpler;
  }
  // A broadcast that only inserts dimensions of size 1, keeping the
  // operand's in order, is a reshape: a view of its operand's buffer where
  // the operand is not fused into its user.
  if (source.opcode() == HloOpcode::kBroadcast && source.shape().IsArray() &&
      operands[0]->shape().IsArray() && operands[0]->shape().rank() > 0 &&
      operands[0]->shape().ElementCount() == source.shape().ElementCount() &&
      std::is_sorted(source.dimensions().begin(), source.dimensions().end())) {
    return context.AddNew(HloOpcode::kReshape, source.shape(), {operands[0]});
  }
  // reshape(reshape(x)) -> reshape(x).
  const bool is_reshape = source.opcode() == HloOpcode::kReshape;
  if (is_reshape && operands[0]->opcode() == HloOpcode::kReshape) {
    return context.AddNew(HloOpcode::kReshape, source.shape(),
                          {operands[0]->operands()[0]});
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<HloPass> MakeAlgebraicSimplificationPass() {
  return MakeRewritePass("simplify", Simplify);
}

}  // namespace phal
