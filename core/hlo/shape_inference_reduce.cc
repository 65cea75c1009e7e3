// Shape inference of reduce, reduce-window and select-and-scatter.
#include "core/hlo/shape_inference_internal.h"

namespace phal {

namespace shape_inference_internal {

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

}  // namespace shape_inference_internal

}  // namespace phal
