// Shape inference of the batch normalization ops.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

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

}  // namespace shape_inference_internal

}  // namespace phal
