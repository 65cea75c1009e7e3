#include "core/hlo/shape_inference.h"

#include <algorithm>
#include <set>
#include <string>

#include "core/hlo/computation.h"

namespace phal {
namespace {

Status Fail(std::string message) { return InvalidArgument(std::move(message)); }

std::string TypeName(ElementType type) { return ElementTypeName(type); }

Status ExpectArray(const Shape& shape, const std::string& what) {
  if (shape.IsArray()) return OkStatus();
  return Fail(what + " must be an array, got " + shape.ToString());
}

Status ExpectScalar(const Shape& shape, const std::string& what) {
  if (shape.IsArray() && shape.rank() == 0) return OkStatus();
  return Fail(what + " must be a scalar, got " + shape.ToString());
}

Status ExpectOperandCount(const HloInstruction& instruction, int64_t count) {
  if (instruction.operand_count() == count) return OkStatus();
  return Fail("expects " + std::to_string(count) + " operand" +
              (count == 1 ? "" : "s") + ", got " +
              std::to_string(instruction.operand_count()));
}

Status ExpectSameElementType(const Shape& a, const Shape& b,
                             const std::string& what) {
  if (a.element_type() == b.element_type()) return OkStatus();
  return Fail(what + " must have the same element type, got " + a.ToString() +
              " and " + b.ToString());
}

// Each value in [0, bound), no value twice; `sorted` also demands
// increasing order.
Status ExpectDimensionList(const std::vector<int64_t>& dims, int64_t bound,
                           const std::string& what, bool sorted = false) {
  std::set<int64_t> seen;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= bound) {
      return Fail(what + " " + IntListToText(dims) + " has " +
                  std::to_string(dims[i]) + ", out of range [0, " +
                  std::to_string(bound) + ")");
    }
    if (!seen.insert(dims[i]).second) {
      return Fail(what + " " + IntListToText(dims) + " repeats " +
                  std::to_string(dims[i]));
    }
    if (sorted && i > 0 && dims[i] < dims[i - 1]) {
      return Fail(what + " " + IntListToText(dims) + " must be sorted");
    }
  }
  return OkStatus();
}

// Sum and product that report overflow instead of wrapping; attribute
// values come from untrusted text.
bool AddOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}
bool MultiplyOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

Status ExpectDisjoint(const std::vector<int64_t>& a, const std::string& a_name,
                      const std::vector<int64_t>& b,
                      const std::string& b_name) {
  for (int64_t value : a) {
    if (Contains(b, value)) {
      return Fail(a_name + " and " + b_name + " both contain " +
                  std::to_string(value));
    }
  }
  return OkStatus();
}

std::vector<Shape> OperandShapes(const HloInstruction& instruction) {
  std::vector<Shape> shapes;
  for (const HloInstruction* operand : instruction.operands()) {
    shapes.push_back(operand->shape());
  }
  return shapes;
}

// --- Called computations ----------------------------------------------------

Status ExpectCallee(const HloComputation* callee, const std::string& role) {
  if (callee != nullptr) return OkStatus();
  return Fail("has no " + role + " computation");
}

// `callee` takes exactly `parameters` (compatible shapes) and returns a
// shape compatible with `result` (unless `result` is null).
Status ExpectSignature(const HloComputation* callee, const std::string& role,
                       const std::vector<Shape>& parameters,
                       const Shape* result) {
  PHAL_RETURN_IF_ERROR(ExpectCallee(callee, role));
  const std::vector<Shape> actual = callee->ParameterShapes();
  std::string expected_text = "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    expected_text += (i > 0 ? ", " : "") + parameters[i].ToString();
  }
  expected_text += ")";
  if (result != nullptr) expected_text += " -> " + result->ToString();
  const auto mismatch = [&](const std::string& why) {
    return Fail(role + " computation %" + callee->name() + " must be " +
                expected_text + ", but " + why);
  };
  if (actual.size() != parameters.size()) {
    return mismatch("it takes " + std::to_string(actual.size()) +
                    " parameters");
  }
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (!actual[i].Compatible(parameters[i])) {
      return mismatch("parameter " + std::to_string(i) + " is " +
                      actual[i].ToString());
    }
  }
  if (result != nullptr && !callee->ResultShape().Compatible(*result)) {
    return mismatch("it returns " + callee->ResultShape().ToString());
  }
  return OkStatus();
}

// A reducer over `count` values (reduce, reduce-window, scatter): takes
// `count` accumulators then `count` values, all scalars of `types`, and
// returns the accumulators (a scalar when count is 1, else a tuple).
Status ExpectReducer(const HloComputation* callee, const std::string& role,
                     const std::vector<ElementType>& types) {
  std::vector<Shape> scalars;
  for (ElementType type : types)
    scalars.emplace_back(type, std::vector<int64_t>{});
  std::vector<Shape> parameters = scalars;
  parameters.insert(parameters.end(), scalars.begin(), scalars.end());
  const Shape result = scalars.size() == 1 ? scalars[0] : Shape::Tuple(scalars);
  return ExpectSignature(callee, role, parameters, &result);
}

// Splits a variadic op's operands into `count` inputs and `count` inits.
Status ExpectInputsAndInits(const HloInstruction& instruction,
                            std::vector<Shape>* inputs,
                            std::vector<Shape>* inits) {
  const int64_t count = instruction.operand_count();
  if (count == 0 || count % 2 != 0) {
    return Fail("expects N inputs followed by N init values, got " +
                std::to_string(count) + " operands");
  }
  const std::vector<Shape> shapes = OperandShapes(instruction);
  inputs->assign(shapes.begin(), shapes.begin() + count / 2);
  inits->assign(shapes.begin() + count / 2, shapes.end());
  for (std::size_t i = 0; i < inputs->size(); ++i) {
    PHAL_RETURN_IF_ERROR(
        ExpectArray((*inputs)[i], "input " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectScalar((*inits)[i], "init value " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectSameElementType((*inputs)[i], (*inits)[i],
                              "input and init value " + std::to_string(i)));
    if ((*inputs)[i].dims() != (*inputs)[0].dims()) {
      return Fail("inputs must have the same dimensions, got " +
                  (*inputs)[0].ToString() + " and " + (*inputs)[i].ToString());
    }
  }
  return OkStatus();
}

Shape ArrayOrTuple(std::vector<Shape> shapes) {
  return shapes.size() == 1 ? shapes[0] : Shape::Tuple(std::move(shapes));
}

std::vector<ElementType> ElementTypes(const std::vector<Shape>& shapes) {
  std::vector<ElementType> types;
  for (const Shape& shape : shapes) types.push_back(shape.element_type());
  return types;
}

// --- Elementwise ------------------------------------------------------------

bool IsNumeric(ElementType type) {
  return IsIntegral(type) || IsFloat(type) || IsComplex(type);
}

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

namespace {

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

// --- Data movement ----------------------------------------------------------

StatusOr<Shape> InferBroadcastShape(const Shape& operand, const Shape& stated,
                                    const std::vector<int64_t>& dimensions) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (static_cast<int64_t>(dimensions.size()) != operand.rank()) {
    return Fail("dimensions " + IntListToText(dimensions) +
                " must have one entry "
                "per operand dimension (" +
                std::to_string(operand.rank()) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(dimensions, stated.rank(), "dimensions"));
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    const int64_t size = operand.dims()[i];
    if (size != 1 && size != stated.dim(dimensions[i])) {
      return Fail("operand dimension " + std::to_string(i) + " (size " +
                  std::to_string(size) +
                  ") cannot broadcast to result "
                  "dimension " +
                  std::to_string(dimensions[i]) + " (size " +
                  std::to_string(stated.dim(dimensions[i])) + ")");
    }
  }
  return Shape(operand.element_type(), stated.dims());
}

StatusOr<Shape> InferReshapeShape(const Shape& operand, const Shape& stated) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (operand.ElementCount() != stated.ElementCount()) {
    return Fail("cannot reshape " + operand.ToString() + " (" +
                std::to_string(operand.ElementCount()) + " elements) to " +
                stated.ToString() + " (" +
                std::to_string(stated.ElementCount()) + " elements)");
  }
  return Shape(operand.element_type(), stated.dims());
}

StatusOr<Shape> InferBitcastShape(const Shape& operand, const Shape& stated) {
  if (operand.ByteSize() != stated.ByteSize()) {
    return Fail("bitcast from " + operand.ToString() + " to " +
                stated.ToString() + " changes the size in bytes");
  }
  return stated;
}

}  // namespace

StatusOr<Shape> InferTransposeShape(const Shape& operand,
                                    const std::vector<int64_t>& permutation) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  if (static_cast<int64_t>(permutation.size()) != operand.rank()) {
    return Fail("dimensions " + IntListToText(permutation) +
                " is not a permutation of the operand's " +
                std::to_string(operand.rank()) + " dimensions");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(permutation, operand.rank(), "dimensions"));
  std::vector<int64_t> dims;
  for (int64_t source : permutation) dims.push_back(operand.dim(source));
  return Shape(operand.element_type(), std::move(dims));
}

StatusOr<Shape> InferSliceShape(const Shape& operand,
                                const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& limits,
                                const std::vector<int64_t>& strides) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  const auto rank = static_cast<std::size_t>(operand.rank());
  if (starts.size() != rank || limits.size() != rank ||
      strides.size() != rank) {
    return Fail("slice must have one range per operand dimension (" +
                std::to_string(rank) + ")");
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < rank; ++i) {
    if (starts[i] < 0 || starts[i] > limits[i] ||
        limits[i] > operand.dims()[i] || strides[i] < 1) {
      return Fail("slice range [" + std::to_string(starts[i]) + ":" +
                  std::to_string(limits[i]) + ":" + std::to_string(strides[i]) +
                  "] is invalid for dimension " + std::to_string(i) +
                  " of size " + std::to_string(operand.dims()[i]));
    }
    const int64_t extent = limits[i] - starts[i];
    dims.push_back(extent / strides[i] + (extent % strides[i] != 0 ? 1 : 0));
  }
  return Shape(operand.element_type(), std::move(dims));
}

namespace {

Status ExpectScalarIndices(const std::vector<Shape>& indices, int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank) {
    return Fail("expects one start index per operand dimension (" +
                std::to_string(rank) + "), got " +
                std::to_string(indices.size()));
  }
  for (std::size_t i = 0; i < indices.size(); ++i) {
    PHAL_RETURN_IF_ERROR(
        ExpectScalar(indices[i], "start index " + std::to_string(i)));
    if (!IsIntegral(indices[i].element_type())) {
      return Fail("start index " + std::to_string(i) +
                  " must be an integer, got " + indices[i].ToString());
    }
    if (indices[i].element_type() != indices[0].element_type()) {
      return Fail("start indices must all have the same type");
    }
  }
  return OkStatus();
}

StatusOr<Shape> InferDynamicSliceShape(const std::vector<Shape>& operands,
                                       const std::vector<int64_t>& sizes) {
  if (operands.empty()) return Fail("expects an operand and start indices");
  const Shape& operand = operands[0];
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectScalarIndices(
      std::vector<Shape>(operands.begin() + 1, operands.end()),
      operand.rank()));
  if (static_cast<int64_t>(sizes.size()) != operand.rank()) {
    return Fail("dynamic_slice_sizes " + IntListToText(sizes) +
                " must have one entry per operand dimension");
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || sizes[i] > operand.dims()[i]) {
      return Fail("slice size " + std::to_string(sizes[i]) +
                  " does not fit dimension " + std::to_string(i) + " of size " +
                  std::to_string(operand.dims()[i]));
    }
  }
  return Shape(operand.element_type(), sizes);
}

StatusOr<Shape> InferDynamicUpdateSliceShape(
    const std::vector<Shape>& operands) {
  if (operands.size() < 2)
    return Fail("expects an operand, an update and indices");
  const Shape& operand = operands[0];
  const Shape& update = operands[1];
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(update, "the update"));
  PHAL_RETURN_IF_ERROR(
      ExpectSameElementType(operand, update, "the operand and the update"));
  PHAL_RETURN_IF_ERROR(ExpectScalarIndices(
      std::vector<Shape>(operands.begin() + 2, operands.end()),
      operand.rank()));
  if (update.rank() != operand.rank()) {
    return Fail("the update " + update.ToString() +
                " must have the operand's rank " + operand.ToString());
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (update.dim(i) > operand.dim(i)) {
      return Fail("the update " + update.ToString() + " does not fit in " +
                  operand.ToString());
    }
  }
  return operand;
}

}  // namespace

StatusOr<Shape> InferConcatenateShape(const std::vector<Shape>& operands,
                                      int64_t dimension) {
  if (operands.empty()) return Fail("expects at least one operand");
  const Shape& first = operands[0];
  PHAL_RETURN_IF_ERROR(ExpectArray(first, "operand 0"));
  if (dimension < 0 || dimension >= first.rank()) {
    return Fail("dimension " + std::to_string(dimension) +
                " is out of range for " + first.ToString());
  }
  std::vector<int64_t> dims = first.dims();
  for (std::size_t i = 1; i < operands.size(); ++i) {
    const Shape& operand = operands[i];
    PHAL_RETURN_IF_ERROR(ExpectArray(operand, "operand " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectSameElementType(first, operand, "concatenated operands"));
    bool compatible = operand.rank() == first.rank();
    for (int64_t d = 0; compatible && d < first.rank(); ++d) {
      compatible = d == dimension || operand.dim(d) == first.dim(d);
    }
    if (!compatible) {
      return Fail("operand " + operand.ToString() + " does not match " +
                  first.ToString() + " outside dimension " +
                  std::to_string(dimension));
    }
    dims[static_cast<std::size_t>(dimension)] += operand.dim(dimension);
  }
  return Shape(first.element_type(), std::move(dims));
}

StatusOr<Shape> InferPadShape(const Shape& operand, const Shape& padding_value,
                              const PaddingConfig& config) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectScalar(padding_value, "the padding value"));
  PHAL_RETURN_IF_ERROR(ExpectSameElementType(operand, padding_value,
                                             "the operand and padding value"));
  if (static_cast<int64_t>(config.dimensions.size()) != operand.rank()) {
    return Fail("padding has " + std::to_string(config.dimensions.size()) +
                " dimensions, the operand " + std::to_string(operand.rank()));
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < config.dimensions.size(); ++i) {
    const PaddingDimension& pad = config.dimensions[i];
    const int64_t size = operand.dims()[i];
    if (pad.interior < 0) {
      return Fail("interior padding must not be negative");
    }
    int64_t interior_total = 0;
    int64_t padded = 0;
    if (MultiplyOverflows(std::max<int64_t>(size - 1, 0), pad.interior,
                          &interior_total) ||
        AddOverflows(size, interior_total, &padded) ||
        AddOverflows(padded, pad.low, &padded) ||
        AddOverflows(padded, pad.high, &padded)) {
      return Fail("padding dimension " + std::to_string(i) +
                  " overflows the size range");
    }
    if (padded < 0) {
      return Fail("padding dimension " + std::to_string(i) +
                  " to a negative size " + std::to_string(padded));
    }
    dims.push_back(padded);
  }
  return Shape(operand.element_type(), std::move(dims));
}

namespace {

StatusOr<Shape> InferReverseShape(const Shape& operand,
                                  const std::vector<int64_t>& dimensions) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(dimensions, operand.rank(), "dimensions"));
  return operand;
}

StatusOr<Shape> InferGetTupleElementShape(const Shape& operand, int64_t index) {
  if (!operand.IsTuple()) {
    return Fail("the operand must be a tuple, got " + operand.ToString());
  }
  if (index < 0 ||
      index >= static_cast<int64_t>(operand.tuple_shapes().size())) {
    return Fail("index " + std::to_string(index) + " is out of range for " +
                operand.ToString());
  }
  return operand.tuple_shapes()[static_cast<std::size_t>(index)];
}

StatusOr<Shape> InferIotaShape(const Shape& stated, int64_t dimension) {
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (dimension < 0 || dimension >= stated.rank()) {
    return Fail("iota_dimension " + std::to_string(dimension) +
                " is out of range for " + stated.ToString());
  }
  if (!IsNumeric(stated.element_type())) {
    return Fail("iota cannot produce " + TypeName(stated.element_type()));
  }
  return Shape(stated.element_type(), stated.dims());
}

}  // namespace

// --- Windows, dot, convolution, gather --------------------------------------

StatusOr<std::vector<int64_t>> InferWindowOutputDimensions(
    const std::vector<int64_t>& base, const Window& window) {
  if (window.dimensions.size() != base.size()) {
    return Fail("window has " + std::to_string(window.dimensions.size()) +
                " dimensions, the operand " + std::to_string(base.size()));
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < base.size(); ++i) {
    const WindowDimension& w = window.dimensions[i];
    if (w.size < 1 || w.stride < 1 || w.base_dilation < 1 ||
        w.window_dilation < 1) {
      return Fail("window dimension " + std::to_string(i) +
                  " needs size, stride and dilations of at least 1");
    }
    int64_t dilated_base = 0;
    int64_t padded = 0;
    int64_t dilated_window = 0;
    if ((base[i] != 0 &&
         MultiplyOverflows(base[i] - 1, w.base_dilation, &dilated_base)) ||
        AddOverflows(dilated_base, base[i] != 0 ? 1 : 0, &dilated_base) ||
        AddOverflows(dilated_base, w.padding_low, &padded) ||
        AddOverflows(padded, w.padding_high, &padded) ||
        MultiplyOverflows(w.size - 1, w.window_dilation, &dilated_window) ||
        AddOverflows(dilated_window, 1, &dilated_window)) {
      return Fail("window dimension " + std::to_string(i) +
                  " overflows the size range");
    }
    if (padded < 0) {
      return Fail("window padding of dimension " + std::to_string(i) +
                  " leaves a negative size");
    }
    dims.push_back(
        padded < dilated_window ? 0 : (padded - dilated_window) / w.stride + 1);
  }
  return dims;
}

StatusOr<Shape> InferDotShape(const Shape& lhs, const Shape& rhs,
                              const DotDimensionNumbers& numbers,
                              ElementType result_type) {
  PHAL_RETURN_IF_ERROR(ExpectArray(lhs, "the left operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(rhs, "the right operand"));
  const auto& lhs_batch = numbers.lhs_batch_dimensions;
  const auto& rhs_batch = numbers.rhs_batch_dimensions;
  const auto& lhs_contracting = numbers.lhs_contracting_dimensions;
  const auto& rhs_contracting = numbers.rhs_contracting_dimensions;
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(lhs_batch, lhs.rank(), "lhs_batch_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(rhs_batch, rhs.rank(), "rhs_batch_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(lhs_contracting, lhs.rank(), "lhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(rhs_contracting, rhs.rank(), "rhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(lhs_batch, "lhs_batch_dims",
                                      lhs_contracting, "lhs_contracting_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(rhs_batch, "rhs_batch_dims",
                                      rhs_contracting, "rhs_contracting_dims"));
  if (lhs_batch.size() != rhs_batch.size() ||
      lhs_contracting.size() != rhs_contracting.size()) {
    return Fail(
        "lhs and rhs must have as many batch and as many contracting "
        "dimensions");
  }
  for (std::size_t i = 0; i < lhs_batch.size(); ++i) {
    if (lhs.dim(lhs_batch[i]) != rhs.dim(rhs_batch[i])) {
      return Fail("batch dimension sizes differ: " + lhs.ToString() + " and " +
                  rhs.ToString());
    }
  }
  for (std::size_t i = 0; i < lhs_contracting.size(); ++i) {
    if (lhs.dim(lhs_contracting[i]) != rhs.dim(rhs_contracting[i])) {
      return Fail("contracting dimension sizes differ: " + lhs.ToString() +
                  " and " + rhs.ToString());
    }
  }
  std::vector<int64_t> dims;
  for (int64_t d : lhs_batch) dims.push_back(lhs.dim(d));
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (!Contains(lhs_batch, d) && !Contains(lhs_contracting, d)) {
      dims.push_back(lhs.dim(d));
    }
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (!Contains(rhs_batch, d) && !Contains(rhs_contracting, d)) {
      dims.push_back(rhs.dim(d));
    }
  }
  return Shape(result_type, std::move(dims));
}

namespace {

// The dimensions of one convolution operand: the two named ones and the
// spatial ones, which together must be each dimension exactly once.
Status ExpectConvolutionDims(int64_t first, int64_t second,
                             const std::vector<int64_t>& spatial, int64_t rank,
                             const std::string& what) {
  std::vector<int64_t> all = {first, second};
  all.insert(all.end(), spatial.begin(), spatial.end());
  if (static_cast<int64_t>(all.size()) != rank) {
    return Fail(what + " has rank " + std::to_string(rank) +
                " but dim_labels "
                "name " +
                std::to_string(all.size()) + " dimensions");
  }
  return ExpectDimensionList(all, rank, what + " dimension labels");
}

}  // namespace

StatusOr<Shape> InferConvolutionShape(
    const Shape& input, const Shape& kernel, const Window& window,
    const ConvolutionDimensionNumbers& numbers, int64_t feature_group_count,
    int64_t batch_group_count, ElementType result_type) {
  PHAL_RETURN_IF_ERROR(ExpectArray(input, "the input"));
  PHAL_RETURN_IF_ERROR(ExpectArray(kernel, "the kernel"));
  const auto spatial_count = numbers.input_spatial_dimensions.size();
  if (kernel.rank() != input.rank() ||
      numbers.kernel_spatial_dimensions.size() != spatial_count ||
      numbers.output_spatial_dimensions.size() != spatial_count) {
    return Fail("the input " + input.ToString() + ", the kernel " +
                kernel.ToString() +
                " and dim_labels must have the same number of spatial "
                "dimensions");
  }
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.input_batch_dimension, numbers.input_feature_dimension,
      numbers.input_spatial_dimensions, input.rank(), "the input"));
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.kernel_input_feature_dimension,
      numbers.kernel_output_feature_dimension,
      numbers.kernel_spatial_dimensions, kernel.rank(), "the kernel"));
  PHAL_RETURN_IF_ERROR(ExpectConvolutionDims(
      numbers.output_batch_dimension, numbers.output_feature_dimension,
      numbers.output_spatial_dimensions, input.rank(), "the output"));
  if (feature_group_count < 1 || batch_group_count < 1) {
    return Fail("feature_group_count and batch_group_count must be positive");
  }
  const int64_t batch = input.dim(numbers.input_batch_dimension);
  const int64_t input_features = input.dim(numbers.input_feature_dimension);
  const int64_t kernel_input_features =
      kernel.dim(numbers.kernel_input_feature_dimension);
  const int64_t output_features =
      kernel.dim(numbers.kernel_output_feature_dimension);
  if (input_features != kernel_input_features * feature_group_count) {
    return Fail("input feature size " + std::to_string(input_features) +
                " must be the kernel's input feature size " +
                std::to_string(kernel_input_features) +
                " times feature_group_count " +
                std::to_string(feature_group_count));
  }
  if (output_features % feature_group_count != 0 ||
      output_features % batch_group_count != 0) {
    return Fail("kernel output feature size " +
                std::to_string(output_features) +
                " must be divisible by feature_group_count and "
                "batch_group_count");
  }
  if (batch % batch_group_count != 0) {
    return Fail("batch size " + std::to_string(batch) +
                " must be divisible by batch_group_count " +
                std::to_string(batch_group_count));
  }
  if (window.dimensions.size() != spatial_count) {
    return Fail("window has " + std::to_string(window.dimensions.size()) +
                " dimensions, the convolution " +
                std::to_string(spatial_count) + " spatial dimensions");
  }
  std::vector<int64_t> input_spatial;
  for (std::size_t i = 0; i < spatial_count; ++i) {
    const int64_t kernel_size =
        kernel.dim(numbers.kernel_spatial_dimensions[i]);
    if (window.dimensions[i].size != kernel_size) {
      return Fail("window size " + std::to_string(window.dimensions[i].size) +
                  " of spatial dimension " + std::to_string(i) +
                  " differs from the kernel's " + std::to_string(kernel_size));
    }
    input_spatial.push_back(input.dim(numbers.input_spatial_dimensions[i]));
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> output_spatial,
                        InferWindowOutputDimensions(input_spatial, window));
  std::vector<int64_t> dims(static_cast<std::size_t>(input.rank()));
  dims[static_cast<std::size_t>(numbers.output_batch_dimension)] =
      batch / batch_group_count;
  dims[static_cast<std::size_t>(numbers.output_feature_dimension)] =
      output_features;
  for (std::size_t i = 0; i < spatial_count; ++i) {
    dims[static_cast<std::size_t>(numbers.output_spatial_dimensions[i])] =
        output_spatial[i];
  }
  return Shape(result_type, std::move(dims));
}

namespace {

// Sizes of the index dimension and the batch dimensions of gather/scatter
// indices. An index_vector_dim equal to the rank means the indices are
// scalars (an implicit trailing dimension of size 1).
struct IndexLayout {
  int64_t index_vector_size = 1;
  std::vector<int64_t> batch_dims;
};

StatusOr<IndexLayout> AnalyzeIndices(const Shape& indices,
                                     int64_t index_vector_dim) {
  PHAL_RETURN_IF_ERROR(ExpectArray(indices, "the indices"));
  if (!IsIntegral(indices.element_type())) {
    return Fail("the indices must be integers, got " + indices.ToString());
  }
  if (index_vector_dim < 0 || index_vector_dim > indices.rank()) {
    return Fail("index_vector_dim " + std::to_string(index_vector_dim) +
                " is out of range for indices " + indices.ToString());
  }
  IndexLayout layout;
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d == index_vector_dim) {
      layout.index_vector_size = indices.dim(d);
    } else {
      layout.batch_dims.push_back(indices.dim(d));
    }
  }
  return layout;
}

Status ExpectIndicesBatchingDims(const std::vector<int64_t>& dims,
                                 const Shape& indices, int64_t index_vector_dim,
                                 const std::string& what) {
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(dims, indices.rank(), what));
  if (Contains(dims, index_vector_dim)) {
    return Fail(what + " must not contain index_vector_dim");
  }
  return OkStatus();
}

}  // namespace

StatusOr<Shape> InferGatherShape(const Shape& operand,
                                 const Shape& start_indices,
                                 const GatherDimensionNumbers& numbers,
                                 const std::vector<int64_t>& slice_sizes) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_ASSIGN_OR_RETURN(
      IndexLayout indices,
      AnalyzeIndices(start_indices, numbers.index_vector_dim));
  const int64_t rank = operand.rank();
  if (static_cast<int64_t>(slice_sizes.size()) != rank) {
    return Fail("slice_sizes " + IntListToText(slice_sizes) +
                " must have one entry per operand dimension (" +
                std::to_string(rank) + ")");
  }
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = slice_sizes[static_cast<std::size_t>(d)];
    if (size < 0 || size > operand.dim(d)) {
      return Fail("slice size " + std::to_string(size) + " of dimension " +
                  std::to_string(d) + " exceeds the operand " +
                  operand.ToString());
    }
  }
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.collapsed_slice_dims, rank,
                                           "collapsed_slice_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.operand_batching_dims, rank,
                                           "operand_batching_dims", true));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.collapsed_slice_dims, "collapsed_slice_dims",
                     numbers.operand_batching_dims, "operand_batching_dims"));
  PHAL_RETURN_IF_ERROR(ExpectIndicesBatchingDims(
      numbers.start_indices_batching_dims, start_indices,
      numbers.index_vector_dim, "start_indices_batching_dims"));
  if (numbers.operand_batching_dims.size() !=
      numbers.start_indices_batching_dims.size()) {
    return Fail(
        "operand_batching_dims and start_indices_batching_dims must "
        "have the same size");
  }
  for (const auto* dims :
       {&numbers.collapsed_slice_dims, &numbers.operand_batching_dims}) {
    for (int64_t d : *dims) {
      if (slice_sizes[static_cast<std::size_t>(d)] > 1) {
        return Fail("slice size of collapsed or batching dimension " +
                    std::to_string(d) + " must be at most 1");
      }
    }
  }
  if (static_cast<int64_t>(numbers.start_index_map.size()) !=
      indices.index_vector_size) {
    return Fail("start_index_map " + IntListToText(numbers.start_index_map) +
                " must have one entry per index vector element (" +
                std::to_string(indices.index_vector_size) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(numbers.start_index_map, rank, "start_index_map"));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.start_index_map, "start_index_map",
                     numbers.operand_batching_dims, "operand_batching_dims"));
  std::vector<int64_t> offset_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(numbers.collapsed_slice_dims, d) &&
        !Contains(numbers.operand_batching_dims, d)) {
      offset_sizes.push_back(slice_sizes[static_cast<std::size_t>(d)]);
    }
  }
  if (numbers.offset_dims.size() != offset_sizes.size()) {
    return Fail("offset_dims " + IntListToText(numbers.offset_dims) +
                " must have " + std::to_string(offset_sizes.size()) +
                " entries (operand rank minus collapsed and batching dims)");
  }
  const auto output_rank =
      static_cast<int64_t>(offset_sizes.size() + indices.batch_dims.size());
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.offset_dims, output_rank,
                                           "offset_dims", true));
  std::vector<int64_t> dims;
  std::size_t next_offset = 0;
  std::size_t next_batch = 0;
  for (int64_t d = 0; d < output_rank; ++d) {
    dims.push_back(Contains(numbers.offset_dims, d)
                       ? offset_sizes[next_offset++]
                       : indices.batch_dims[next_batch++]);
  }
  return Shape(operand.element_type(), std::move(dims));
}

namespace {

StatusOr<Shape> InferScatterShape(const HloInstruction& scatter) {
  const int64_t count = scatter.operand_count();
  if (count < 3 || count % 2 != 1) {
    return Fail("expects N inputs, the indices and N updates, got " +
                std::to_string(count) + " operands");
  }
  const std::vector<Shape> shapes = OperandShapes(scatter);
  const std::size_t n = static_cast<std::size_t>(count / 2);
  const std::vector<Shape> inputs(shapes.begin(), shapes.begin() + n);
  const Shape& indices_shape = shapes[n];
  const std::vector<Shape> updates(shapes.begin() + n + 1, shapes.end());
  const ScatterDimensionNumbers& numbers = scatter.scatter_dimension_numbers();
  for (std::size_t i = 0; i < n; ++i) {
    PHAL_RETURN_IF_ERROR(ExpectArray(inputs[i], "input " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectArray(updates[i], "update " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(ExpectSameElementType(
        inputs[i], updates[i], "input and update " + std::to_string(i)));
    if (inputs[i].dims() != inputs[0].dims() ||
        updates[i].dims() != updates[0].dims()) {
      return Fail("all inputs and all updates must have the same dimensions");
    }
  }
  const Shape& operand = inputs[0];
  const Shape& update = updates[0];
  PHAL_ASSIGN_OR_RETURN(
      IndexLayout indices,
      AnalyzeIndices(indices_shape, numbers.index_vector_dim));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(
      numbers.update_window_dims, update.rank(), "update_window_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.inserted_window_dims,
                                           operand.rank(),
                                           "inserted_window_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.input_batching_dims,
                                           operand.rank(),
                                           "input_batching_dims", true));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.inserted_window_dims, "inserted_window_dims",
                     numbers.input_batching_dims, "input_batching_dims"));
  PHAL_RETURN_IF_ERROR(ExpectIndicesBatchingDims(
      numbers.scatter_indices_batching_dims, indices_shape,
      numbers.index_vector_dim, "scatter_indices_batching_dims"));
  if (numbers.input_batching_dims.size() !=
      numbers.scatter_indices_batching_dims.size()) {
    return Fail(
        "input_batching_dims and scatter_indices_batching_dims must "
        "have the same size");
  }
  if (static_cast<int64_t>(numbers.scatter_dims_to_operand_dims.size()) !=
      indices.index_vector_size) {
    return Fail("scatter_dims_to_operand_dims " +
                IntListToText(numbers.scatter_dims_to_operand_dims) +
                " must have one entry per index vector element (" +
                std::to_string(indices.index_vector_size) + ")");
  }
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.scatter_dims_to_operand_dims,
                                           operand.rank(),
                                           "scatter_dims_to_operand_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(
      numbers.scatter_dims_to_operand_dims, "scatter_dims_to_operand_dims",
      numbers.input_batching_dims, "input_batching_dims"));
  const std::size_t window_rank = numbers.update_window_dims.size();
  if (static_cast<int64_t>(window_rank + numbers.inserted_window_dims.size() +
                           numbers.input_batching_dims.size()) !=
      operand.rank()) {
    return Fail(
        "update_window_dims, inserted_window_dims and "
        "input_batching_dims must together cover the operand's " +
        std::to_string(operand.rank()) + " dimensions");
  }
  if (static_cast<int64_t>(window_rank + indices.batch_dims.size()) !=
      update.rank()) {
    return Fail("updates " + update.ToString() + " must have rank " +
                std::to_string(window_rank + indices.batch_dims.size()) +
                " (window dims plus index batch dims)");
  }
  std::size_t next_window = 0;
  std::size_t next_batch = 0;
  std::vector<int64_t> operand_window_dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (!Contains(numbers.inserted_window_dims, d) &&
        !Contains(numbers.input_batching_dims, d)) {
      operand_window_dims.push_back(d);
    }
  }
  for (int64_t d = 0; d < update.rank(); ++d) {
    if (Contains(numbers.update_window_dims, d)) {
      const int64_t operand_dim = operand_window_dims[next_window++];
      if (update.dim(d) > operand.dim(operand_dim)) {
        return Fail("update window dimension " + std::to_string(d) +
                    " is larger than operand dimension " +
                    std::to_string(operand_dim));
      }
    } else if (update.dim(d) != indices.batch_dims[next_batch++]) {
      return Fail("update scatter dimension " + std::to_string(d) +
                  " must match the indices' batch dimensions");
    }
  }
  PHAL_RETURN_IF_ERROR(
      ExpectReducer(scatter.to_apply(), "to_apply", ElementTypes(inputs)));
  return ArrayOrTuple(inputs);
}

// --- Reductions, sort, control flow -----------------------------------------

StatusOr<Shape> InferReduceShape(const HloInstruction& reduce) {
  std::vector<Shape> inputs, inits;
  PHAL_RETURN_IF_ERROR(ExpectInputsAndInits(reduce, &inputs, &inits));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(reduce.dimensions(), inputs[0].rank(), "dimensions"));
  PHAL_RETURN_IF_ERROR(
      ExpectReducer(reduce.to_apply(), "to_apply", ElementTypes(inits)));
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < inputs[0].rank(); ++d) {
    if (!Contains(reduce.dimensions(), d)) kept.push_back(inputs[0].dim(d));
  }
  std::vector<Shape> results;
  for (const Shape& init : inits)
    results.emplace_back(init.element_type(), kept);
  return ArrayOrTuple(std::move(results));
}

StatusOr<Shape> InferReduceWindowShape(const HloInstruction& reduce_window) {
  std::vector<Shape> inputs, inits;
  PHAL_RETURN_IF_ERROR(ExpectInputsAndInits(reduce_window, &inputs, &inits));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<int64_t> dims,
      InferWindowOutputDimensions(inputs[0].dims(), reduce_window.window()));
  PHAL_RETURN_IF_ERROR(
      ExpectReducer(reduce_window.to_apply(), "to_apply", ElementTypes(inits)));
  std::vector<Shape> results;
  for (const Shape& init : inits)
    results.emplace_back(init.element_type(), dims);
  return ArrayOrTuple(std::move(results));
}

StatusOr<Shape> InferSelectAndScatterShape(const HloInstruction& instruction) {
  PHAL_RETURN_IF_ERROR(ExpectOperandCount(instruction, 3));
  const Shape& operand = instruction.operand(0)->shape();
  const Shape& source = instruction.operand(1)->shape();
  const Shape& init = instruction.operand(2)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(source, "the source"));
  PHAL_RETURN_IF_ERROR(ExpectScalar(init, "the init value"));
  PHAL_RETURN_IF_ERROR(
      ExpectSameElementType(operand, source, "the operand and the source"));
  PHAL_RETURN_IF_ERROR(
      ExpectSameElementType(operand, init, "the operand and the init value"));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<int64_t> windows,
      InferWindowOutputDimensions(operand.dims(), instruction.window()));
  if (source.dims() != windows) {
    return Fail("the source " + source.ToString() +
                " must have one element per window: " +
                Shape(source.element_type(), windows).ToString());
  }
  const Shape scalar(operand.element_type(), {});
  const Shape pred(PHAL_ELEMENT_TYPE_PRED, {});
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(instruction.select(), "select", {scalar, scalar}, &pred));
  PHAL_RETURN_IF_ERROR(ExpectSignature(instruction.scatter(), "scatter",
                                       {scalar, scalar}, &scalar));
  return operand;
}

// topk: (values, s32 indices), both the operand's shape with the last
// dimension cut to k.
StatusOr<Shape> InferTopKShape(const HloInstruction& topk) {
  if (topk.operand_count() != 1) return Fail("expects one operand");
  const Shape& operand = topk.operand(0)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  if (operand.rank() == 0) return Fail("needs an operand of rank >= 1");
  const int64_t last = operand.dim(operand.rank() - 1);
  if (topk.top_k() < 0 || topk.top_k() > last) {
    return Fail("k=" + std::to_string(topk.top_k()) + " must lie in [0, " +
                std::to_string(last) + "]");
  }
  std::vector<int64_t> dims = operand.dims();
  dims.back() = topk.top_k();
  return Shape::Tuple({Shape(operand.element_type(), dims),
                       Shape(PHAL_ELEMENT_TYPE_S32, dims)});
}

// fft: the StableHLO specification's constraints. The transformed
// dimensions are the trailing size(fft_length) ones; a real operand (RFFT)
// or result (IRFFT) has them equal to fft_length, and the complex side of a
// real transform has n/2+1 elements in the last one (0 when n is 0).
StatusOr<Shape> InferFftShape(const HloInstruction& fft) {
  const Shape& operand = fft.operand(0)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  const std::vector<int64_t>& length = fft.fft_length();
  const auto count = static_cast<int64_t>(length.size());
  const std::string type_name(FftTypeName(fft.fft_type()));
  if (count < 1 || count > 3) {
    return Fail("fft_length " + IntListToText(length) +
                " must name 1 to 3 dimensions");
  }
  if (operand.rank() < count) {
    return Fail("fft_length " + IntListToText(length) + " names " +
                std::to_string(count) + " dimensions of the operand " +
                operand.ToString() + ", which has fewer");
  }
  for (int64_t n : length) {
    if (n < 0) {
      return Fail("fft_length " + IntListToText(length) + " is negative");
    }
  }
  const ElementType type = operand.element_type();
  const bool real_operand = fft.fft_type() == FftType::kRfft;
  if (real_operand && type != PHAL_ELEMENT_TYPE_F32 &&
      type != PHAL_ELEMENT_TYPE_F64) {
    return Fail("RFFT needs an f32 or f64 operand, got " + operand.ToString());
  }
  if (!real_operand && !IsComplex(type)) {
    return Fail(type_name + " needs a c64 or c128 operand, got " +
                operand.ToString());
  }
  ElementType result_type = type;
  if (fft.fft_type() == FftType::kRfft) {
    result_type = type == PHAL_ELEMENT_TYPE_F32 ? PHAL_ELEMENT_TYPE_C64
                                                : PHAL_ELEMENT_TYPE_C128;
  } else if (fft.fft_type() == FftType::kIrfft) {
    result_type = ComplexComponentType(type);
  }
  const auto half_spectrum = [](int64_t n) { return n == 0 ? 0 : n / 2 + 1; };
  std::vector<int64_t> expected = operand.dims();
  std::vector<int64_t> result = operand.dims();
  const int64_t first = operand.rank() - count;
  for (int64_t i = 0; i < count; ++i) {
    expected[static_cast<std::size_t>(first + i)] =
        length[static_cast<std::size_t>(i)];
    result[static_cast<std::size_t>(first + i)] =
        length[static_cast<std::size_t>(i)];
  }
  if (fft.fft_type() == FftType::kIrfft) {
    expected.back() = half_spectrum(length.back());
  } else if (fft.fft_type() == FftType::kRfft) {
    result.back() = half_spectrum(length.back());
  }
  if (expected != operand.dims()) {
    return Fail(type_name + " with fft_length " + IntListToText(length) +
                " needs trailing operand dimensions " +
                IntListToText(std::vector<int64_t>(expected.begin() + first,
                                                   expected.end())) +
                ", got " + operand.ToString());
  }
  return Shape(result_type, result);
}

StatusOr<Shape> InferSortShape(const HloInstruction& sort) {
  if (sort.operand_count() == 0) return Fail("expects at least one operand");
  const std::vector<Shape> operands = OperandShapes(sort);
  std::vector<Shape> parameters;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    PHAL_RETURN_IF_ERROR(
        ExpectArray(operands[i], "operand " + std::to_string(i)));
    if (operands[i].dims() != operands[0].dims()) {
      return Fail("operands must have the same dimensions, got " +
                  operands[0].ToString() + " and " + operands[i].ToString());
    }
    const Shape scalar(operands[i].element_type(), {});
    parameters.push_back(scalar);
    parameters.push_back(scalar);
  }
  if (sort.dimensions().size() != 1 || sort.dimensions(0) < 0 ||
      sort.dimensions(0) >= operands[0].rank()) {
    return Fail("dimensions " + IntListToText(sort.dimensions()) +
                " must name one dimension of " + operands[0].ToString());
  }
  const Shape pred(PHAL_ELEMENT_TYPE_PRED, {});
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(sort.to_apply(), "comparator", parameters, &pred));
  return ArrayOrTuple(operands);
}

StatusOr<Shape> InferWhileShape(const HloInstruction& loop) {
  PHAL_RETURN_IF_ERROR(ExpectOperandCount(loop, 1));
  const Shape& state = loop.operand(0)->shape();
  const Shape pred(PHAL_ELEMENT_TYPE_PRED, {});
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(loop.while_condition(), "condition", {state}, &pred));
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(loop.while_body(), "body", {state}, &state));
  return state;
}

StatusOr<Shape> InferConditionalShape(const HloInstruction& conditional) {
  if (conditional.operand_count() < 1)
    return Fail("expects a selector operand");
  const Shape& selector = conditional.operand(0)->shape();
  const auto& branches = conditional.branch_computations();
  const bool is_pred = selector.IsArray() && selector.rank() == 0 &&
                       selector.element_type() == PHAL_ELEMENT_TYPE_PRED;
  const bool is_index = selector.IsArray() && selector.rank() == 0 &&
                        selector.element_type() == PHAL_ELEMENT_TYPE_S32;
  if (!is_pred && !is_index) {
    return Fail("the selector must be pred[] or s32[], got " +
                selector.ToString());
  }
  if (branches.empty() || (is_pred && branches.size() != 2)) {
    return Fail(
        std::string("expects ") +
        (is_pred ? "2 branches with a pred selector" : "at least one branch") +
        ", got " + std::to_string(branches.size()));
  }
  if (conditional.operand_count() !=
      static_cast<int64_t>(branches.size()) + 1) {
    return Fail("expects one operand per branch after the selector (" +
                std::to_string(branches.size()) + "), got " +
                std::to_string(conditional.operand_count() - 1));
  }
  PHAL_RETURN_IF_ERROR(ExpectCallee(branches[0], "branch 0"));
  const Shape result = branches[0]->ResultShape();
  for (std::size_t i = 0; i < branches.size(); ++i) {
    PHAL_RETURN_IF_ERROR(ExpectSignature(
        branches[i], "branch " + std::to_string(i),
        {conditional.operand(static_cast<int64_t>(i) + 1)->shape()}, &result));
  }
  return result;
}

StatusOr<Shape> InferCallShape(const HloInstruction& call) {
  PHAL_RETURN_IF_ERROR(ExpectCallee(call.to_apply(), "called"));
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(call.to_apply(), "called", OperandShapes(call), nullptr));
  return call.to_apply()->ResultShape();
}

StatusOr<Shape> InferMapShape(const HloInstruction& map) {
  if (map.operand_count() == 0) return Fail("expects at least one operand");
  const std::vector<Shape> operands = OperandShapes(map);
  std::vector<Shape> parameters;
  for (const Shape& operand : operands) {
    PHAL_RETURN_IF_ERROR(ExpectArray(operand, "an operand"));
    if (operand.dims() != operands[0].dims()) {
      return Fail("operands must have the same dimensions");
    }
    parameters.emplace_back(operand.element_type(), std::vector<int64_t>{});
  }
  const int64_t rank = operands[0].rank();
  if (!map.dimensions().empty()) {
    for (int64_t d = 0; d < static_cast<int64_t>(map.dimensions().size());
         ++d) {
      if (map.dimensions(d) != d ||
          map.dimensions().size() != static_cast<std::size_t>(rank)) {
        return Fail("dimensions must be every dimension in order");
      }
    }
  }
  PHAL_RETURN_IF_ERROR(
      ExpectSignature(map.to_apply(), "to_apply", parameters, nullptr));
  const Shape& result = map.to_apply()->ResultShape();
  PHAL_RETURN_IF_ERROR(ExpectScalar(result, "the mapped computation's result"));
  return Shape(result.element_type(), operands[0].dims());
}

StatusOr<Shape> InferBatchNormShape(const HloInstruction& batch_norm) {
  const bool training = batch_norm.opcode() == HloOpcode::kBatchNormTraining;
  PHAL_RETURN_IF_ERROR(ExpectOperandCount(batch_norm, training ? 3 : 5));
  const Shape& operand = batch_norm.operand(0)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  if (!IsFloat(operand.element_type())) {
    return Fail("the operand must be floating point, got " +
                operand.ToString());
  }
  const int64_t feature_index = batch_norm.feature_index();
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return Fail("feature_index " + std::to_string(feature_index) +
                " is out of range for " + operand.ToString());
  }
  const Shape per_feature(operand.element_type(), {operand.dim(feature_index)});
  for (int64_t i = 1; i < batch_norm.operand_count(); ++i) {
    const Shape& shape = batch_norm.operand(i)->shape();
    const bool is_gradient =
        batch_norm.opcode() == HloOpcode::kBatchNormGrad && i == 4;
    if (!shape.Compatible(is_gradient ? operand : per_feature)) {
      return Fail("operand " + std::to_string(i) + " must be " +
                  (is_gradient ? operand : per_feature).ToString() + ", got " +
                  shape.ToString());
    }
  }
  if (batch_norm.opcode() == HloOpcode::kBatchNormInference) return operand;
  return Shape::Tuple({operand, per_feature, per_feature});
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

StatusOr<Shape> InferConstantShape(const HloInstruction& constant) {
  if (!constant.literal().shape().Compatible(constant.shape())) {
    return Fail("the literal's shape " + constant.literal().shape().ToString() +
                " differs from the instruction's");
  }
  return constant.shape();
}

// Expected operand count for ops with a fixed arity; -1 when variadic.
int64_t FixedOperandCount(HloOpcode opcode) {
  if (IsElementwiseUnary(opcode)) return 1;
  if (IsElementwiseBinary(opcode)) return 2;
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kIota:
      return 0;
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kConvert:
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kBitcast:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kReverse:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kFft:
      return 1;
    case HloOpcode::kPad:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
    case HloOpcode::kGather:
      return 2;
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
      return 3;
    default:
      return -1;
  }
}

StatusOr<Shape> InferFromOperands(const HloInstruction& instruction) {
  const HloOpcode opcode = instruction.opcode();
  const Shape& stated = instruction.shape();
  const auto operand = [&](int64_t i) -> const Shape& {
    return instruction.operand(i)->shape();
  };
  if (IsElementwiseUnary(opcode)) return InferUnaryShape(opcode, operand(0));
  if (IsElementwiseBinary(opcode)) {
    PHAL_ASSIGN_OR_RETURN(Shape result, InferElementwiseBinaryShape(
                                            opcode, operand(0), operand(1)));
    if (opcode == HloOpcode::kCompare) {
      PHAL_RETURN_IF_ERROR(CheckComparison(instruction));
    }
    return result;
  }
  switch (opcode) {
    case HloOpcode::kParameter:
      return stated;
    case HloOpcode::kConstant:
      return InferConstantShape(instruction);
    case HloOpcode::kIota:
      return InferIotaShape(stated, instruction.iota_dimension());
    case HloOpcode::kTuple:
      return Shape::Tuple(OperandShapes(instruction));
    case HloOpcode::kGetTupleElement:
      return InferGetTupleElementShape(operand(0), instruction.tuple_index());
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
      return InferCallShape(instruction);
    case HloOpcode::kSelect:
      return InferSelectShape(operand(0), operand(1), operand(2));
    case HloOpcode::kClamp:
      return InferClampShape(operand(0), operand(1), operand(2));
    case HloOpcode::kConvert:
      return InferConvertShape(operand(0), stated);
    case HloOpcode::kBitcastConvert:
      return InferBitcastConvertShape(operand(0), stated);
    case HloOpcode::kBitcast:
      return InferBitcastShape(operand(0), stated);
    case HloOpcode::kReducePrecision:
      return InferReducePrecisionShape(instruction);
    case HloOpcode::kBroadcast:
      return InferBroadcastShape(operand(0), stated, instruction.dimensions());
    case HloOpcode::kReshape:
      return InferReshapeShape(operand(0), stated);
    case HloOpcode::kTranspose:
      return InferTransposeShape(operand(0), instruction.dimensions());
    case HloOpcode::kSlice:
      return InferSliceShape(operand(0), instruction.slice_starts(),
                             instruction.slice_limits(),
                             instruction.slice_strides());
    case HloOpcode::kDynamicSlice:
      return InferDynamicSliceShape(OperandShapes(instruction),
                                    instruction.dynamic_slice_sizes());
    case HloOpcode::kDynamicUpdateSlice:
      return InferDynamicUpdateSliceShape(OperandShapes(instruction));
    case HloOpcode::kConcatenate:
      if (instruction.dimensions().size() != 1) {
        return Fail("dimensions must name exactly one dimension");
      }
      return InferConcatenateShape(OperandShapes(instruction),
                                   instruction.dimensions(0));
    case HloOpcode::kPad:
      return InferPadShape(operand(0), operand(1),
                           instruction.padding_config());
    case HloOpcode::kReverse:
      return InferReverseShape(operand(0), instruction.dimensions());
    case HloOpcode::kGather:
      return InferGatherShape(operand(0), operand(1),
                              instruction.gather_dimension_numbers(),
                              instruction.gather_slice_sizes());
    case HloOpcode::kScatter:
      return InferScatterShape(instruction);
    case HloOpcode::kReduce:
      return InferReduceShape(instruction);
    case HloOpcode::kReduceWindow:
      return InferReduceWindowShape(instruction);
    case HloOpcode::kSelectAndScatter:
      return InferSelectAndScatterShape(instruction);
    case HloOpcode::kDot:
      PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
      return InferDotShape(operand(0), operand(1),
                           instruction.dot_dimension_numbers(),
                           stated.element_type());
    case HloOpcode::kConvolution:
      PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
      return InferConvolutionShape(operand(0), operand(1), instruction.window(),
                                   instruction.convolution_dimension_numbers(),
                                   instruction.feature_group_count(),
                                   instruction.batch_group_count(),
                                   stated.element_type());
    case HloOpcode::kSort:
      return InferSortShape(instruction);
    case HloOpcode::kTopK:
      return InferTopKShape(instruction);
    case HloOpcode::kFft:
      return InferFftShape(instruction);
    case HloOpcode::kWhile:
      return InferWhileShape(instruction);
    case HloOpcode::kConditional:
      return InferConditionalShape(instruction);
    case HloOpcode::kMap:
      return InferMapShape(instruction);
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormGrad:
      return InferBatchNormShape(instruction);
    case HloOpcode::kOptimizationBarrier:
      return operand(0);
    default:
      return Fail("has no shape rule");
  }
}

}  // namespace

StatusOr<Shape> InferShape(const HloInstruction& instruction) {
  const int64_t count = FixedOperandCount(instruction.opcode());
  if (count >= 0) PHAL_RETURN_IF_ERROR(ExpectOperandCount(instruction, count));
  return InferFromOperands(instruction);
}

}  // namespace phal
