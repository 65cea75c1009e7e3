// Shape inference of elementwise ops: unary, binary, compare, select,
// clamp, convert, bitcast-convert and reduce-precision.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

namespace {

// The element types an elementwise unary op accepts.
bool UnaryAcceptsType(HloOpcode opcode, ElementType type) {
  switch (opcode) {
    case HloOpcode::kAbs:
    case HloOpcode::kSign:
      return IsSigned(type) || IsFloat(type) || IsComplex(type);
    case HloOpcode::kNegate:
      return IsNumeric(type);
    case HloOpcode::kCeil:
    case HloOpcode::kFloor:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kIsFinite:
    case HloOpcode::kErf:
    case HloOpcode::kErfc:
    case HloOpcode::kLgamma:
    case HloOpcode::kDigamma:
    case HloOpcode::kBesselI1e:
      return IsFloat(type);
    case HloOpcode::kNot:
      return type == PHAL_ELEMENT_TYPE_PRED || IsIntegral(type);
    case HloOpcode::kPopulationCount:
    case HloOpcode::kClz:
      return IsIntegral(type);
    case HloOpcode::kReal:
    case HloOpcode::kImag:
      return IsFloat(type) || IsComplex(type);
    case HloOpcode::kCopy:
      return true;
    default:  // exp, log, sqrt, tanh, sine, logistic, cbrt, ...
      return IsFloat(type) || IsComplex(type);
  }
}

bool BinaryAcceptsType(HloOpcode opcode, ElementType type) {
  const bool is_pred = type == PHAL_ELEMENT_TYPE_PRED;
  switch (opcode) {
    case HloOpcode::kAdd:
    case HloOpcode::kMultiply:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
      return is_pred || IsNumeric(type);
    case HloOpcode::kSubtract:
    case HloOpcode::kDivide:
    case HloOpcode::kPower:
      return IsNumeric(type);
    case HloOpcode::kRemainder:
      return IsIntegral(type) || IsFloat(type);
    case HloOpcode::kNextAfter:
    case HloOpcode::kPolygamma:
    case HloOpcode::kZeta:
      return IsFloat(type);
    case HloOpcode::kAtan2:
      return IsFloat(type) || IsComplex(type);
    case HloOpcode::kComplex:
      return type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
      return is_pred || IsIntegral(type);
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
      return IsIntegral(type);
    default:  // compare
      return true;
  }
}

}  // namespace

bool IsNumeric(ElementType type) {
  return IsIntegral(type) || IsFloat(type) || IsComplex(type);
}

StatusOr<Shape> InferUnaryShape(HloOpcode opcode, const Shape& operand) {
  if (opcode == HloOpcode::kCopy) return operand;
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  const ElementType type = operand.element_type();
  if (!UnaryAcceptsType(opcode, type)) {
    return Fail(std::string(HloOpcodeName(opcode)) + " does not accept " +
                TypeName(type) + " operands");
  }
  Shape result = operand;
  if (opcode == HloOpcode::kIsFinite) {
    result.set_element_type(PHAL_ELEMENT_TYPE_PRED);
  }
  if (opcode == HloOpcode::kAbs || opcode == HloOpcode::kReal ||
      opcode == HloOpcode::kImag) {
    result.set_element_type(ComplexComponentType(type));
  }
  return result;
}

Status CheckComparison(const HloInstruction& compare) {
  const ElementType type = compare.operand(0)->shape().element_type();
  const ComparisonDirection direction = compare.comparison_direction();
  const bool ordering = direction != ComparisonDirection::kEq &&
                        direction != ComparisonDirection::kNe;
  const ComparisonType comparison = compare.comparison_type();
  if (IsComplex(type) && ordering &&
      comparison != ComparisonType::kTotalOrder) {
    return Fail("complex values can only be compared with EQ or NE");
  }
  bool consistent = true;
  switch (comparison) {
    case ComparisonType::kDefault:
      break;
    case ComparisonType::kFloat:
    case ComparisonType::kTotalOrder:
      consistent = IsFloat(type) || IsComplex(type);
      break;
    case ComparisonType::kSigned:
      consistent = IsSigned(type);
      break;
    case ComparisonType::kUnsigned:
      consistent = IsUnsigned(type) || type == PHAL_ELEMENT_TYPE_PRED;
      break;
  }
  if (!consistent) {
    return Fail("comparison type " +
                std::string(ComparisonTypeName(comparison)) +
                " does not apply to " + TypeName(type) + " operands");
  }
  return OkStatus();
}

StatusOr<Shape> InferSelectShape(const Shape& predicate, const Shape& on_true,
                                 const Shape& on_false) {
  PHAL_RETURN_IF_ERROR(ExpectArray(predicate, "the predicate"));
  if (predicate.element_type() != PHAL_ELEMENT_TYPE_PRED) {
    return Fail("the predicate must be pred, got " + predicate.ToString());
  }
  if (!on_true.Compatible(on_false)) {
    return Fail("on_true and on_false must have the same shape, got " +
                on_true.ToString() + " and " + on_false.ToString());
  }
  if (predicate.rank() != 0 &&
      (on_true.IsTuple() || predicate.dims() != on_true.dims())) {
    return Fail("the predicate " + predicate.ToString() +
                " must be a scalar or have the dimensions of " +
                on_true.ToString());
  }
  return on_true;
}

StatusOr<Shape> InferClampShape(const Shape& min, const Shape& operand,
                                const Shape& max) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  for (const Shape* bound : {&min, &max}) {
    PHAL_RETURN_IF_ERROR(ExpectArray(*bound, "a bound"));
    PHAL_RETURN_IF_ERROR(
        ExpectSameElementType(*bound, operand, "the bounds and the operand"));
    if (bound->rank() != 0 && bound->dims() != operand.dims()) {
      return Fail("the bound " + bound->ToString() +
                  " must be a scalar or have the dimensions of " +
                  operand.ToString());
    }
  }
  return operand;
}

StatusOr<Shape> InferConvertShape(const Shape& operand, const Shape& stated) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (IsComplex(operand.element_type()) && !IsComplex(stated.element_type())) {
    return Fail("convert from complex " + operand.ToString() +
                " to a real type drops the imaginary part; use real()");
  }
  return Shape(stated.element_type(), operand.dims());
}

StatusOr<Shape> InferBitcastConvertShape(const Shape& operand,
                                         const Shape& stated) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  const int64_t from_bits = ElementTypeBitWidth(operand.element_type());
  const int64_t to_bits = ElementTypeBitWidth(stated.element_type());
  std::vector<int64_t> dims = operand.dims();
  if (to_bits > from_bits) {
    if (dims.empty() || dims.back() * from_bits != to_bits) {
      return Fail("bitcast-convert from " + operand.ToString() + " to " +
                  TypeName(stated.element_type()) +
                  " needs a last dimension of " +
                  std::to_string(to_bits / from_bits));
    }
    dims.pop_back();
  } else if (to_bits < from_bits) {
    dims.push_back(from_bits / to_bits);
  }
  return Shape(stated.element_type(), std::move(dims));
}

StatusOr<Shape> InferReducePrecisionShape(const HloInstruction& instruction) {
  const Shape& operand = instruction.operand(0)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  if (!IsFloat(operand.element_type())) {
    return Fail("the operand must be floating point, got " +
                operand.ToString());
  }
  if (instruction.exponent_bits() < 1 || instruction.mantissa_bits() < 0) {
    return Fail(
        "exponent_bits must be at least 1 and mantissa_bits at least 0");
  }
  return operand;
}

}  // namespace shape_inference_internal

using shape_inference_internal::BinaryAcceptsType;
using shape_inference_internal::ExpectArray;
using shape_inference_internal::Fail;
using shape_inference_internal::TypeName;

StatusOr<Shape> InferElementwiseBinaryShape(HloOpcode opcode, const Shape& lhs,
                                            const Shape& rhs) {
  PHAL_RETURN_IF_ERROR(ExpectArray(lhs, "the left operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(rhs, "the right operand"));
  if (lhs.dims() != rhs.dims() || lhs.element_type() != rhs.element_type()) {
    return Fail("operands must have the same shape, got " + lhs.ToString() +
                " and " + rhs.ToString());
  }
  const ElementType type = lhs.element_type();
  if (!BinaryAcceptsType(opcode, type)) {
    return Fail(std::string(HloOpcodeName(opcode)) + " does not accept " +
                TypeName(type) + " operands");
  }
  Shape result(type, lhs.dims());
  if (opcode == HloOpcode::kCompare) {
    result.set_element_type(PHAL_ELEMENT_TYPE_PRED);
  }
  if (opcode == HloOpcode::kComplex) {
    result.set_element_type(type == PHAL_ELEMENT_TYPE_F32
                                ? PHAL_ELEMENT_TYPE_C64
                                : PHAL_ELEMENT_TYPE_C128);
  }
  return result;
}

}  // namespace phal
