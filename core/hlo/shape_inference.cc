// Shape inference of an instruction: its operand count checked, then the
// rule of its opcode (the rules live in shape_inference_*.cc by op family).
#include "core/hlo/shape_inference_internal.h"

namespace phal {

namespace shape_inference_internal {

namespace {

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
    case HloOpcode::kCholesky:
    case HloOpcode::kLu:
    case HloOpcode::kQr:
    case HloOpcode::kEigh:
    case HloOpcode::kSvd:
      return 1;
    case HloOpcode::kPad:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
    case HloOpcode::kGather:
    case HloOpcode::kTriangularSolve:
    case HloOpcode::kHouseholderProduct:
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
    case HloOpcode::kAllGather:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kPartitionId:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kReplicaId:
      return InferCollectiveShape(instruction, ProcessGridOf(instruction));
    default:
      if (IsLinearAlgebra(opcode)) return InferLinearAlgebraShape(instruction);
      return Fail("has no shape rule");
  }
}

}  // namespace

}  // namespace shape_inference_internal

using shape_inference_internal::ExpectOperandCount;
using shape_inference_internal::FixedOperandCount;
using shape_inference_internal::InferFromOperands;

StatusOr<Shape> InferShape(const HloInstruction& instruction) {
  const int64_t count = FixedOperandCount(instruction.opcode());
  if (count >= 0) PHAL_RETURN_IF_ERROR(ExpectOperandCount(instruction, count));
  return InferFromOperands(instruction);
}

}  // namespace phal
