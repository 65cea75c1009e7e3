// Shape inference of sort and top-k.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

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

}  // namespace shape_inference_internal

}  // namespace phal
