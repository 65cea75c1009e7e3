// Shape inference: the checks shared by every op family, and those of
// called computations.
#include "core/hlo/shape_inference_internal.h"

#include <algorithm>
#include <set>
#include <string>

namespace phal {

namespace shape_inference_internal {

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
                           const std::string& what, bool sorted) {
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

}  // namespace shape_inference_internal

}  // namespace phal
