// Shape inference of while, conditional, call and map.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

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

}  // namespace shape_inference_internal

}  // namespace phal
