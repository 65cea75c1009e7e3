// Shape rules of the collective ops and of replica-id and partition-id.
// Their groups come from process_groups.h, which checks them against the
// process grid.
#include "core/hlo/process_groups.h"
#include "core/hlo/shape_inference_internal.h"

namespace phal {
namespace shape_inference_internal {
namespace {

Status ExpectArrayOperands(const HloInstruction& instruction) {
  if (instruction.operand_count() == 0) return Fail("expects operands");
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    PHAL_RETURN_IF_ERROR(ExpectArray(instruction.operand(i)->shape(),
                                     "operand " + std::to_string(i)));
  }
  return OkStatus();
}

StatusOr<int64_t> OnlyDimension(const HloInstruction& instruction) {
  if (instruction.dimensions().size() != 1) {
    return Fail("dimensions must name exactly one dimension");
  }
  return instruction.dimensions(0);
}

// The shapes of all-gather (factor `group_size` times larger along the
// dimension) and reduce-scatter (that many times smaller).
StatusOr<Shape> InferResizedShape(const HloInstruction& instruction,
                                  ProcessGrid grid, bool gather) {
  PHAL_RETURN_IF_ERROR(ExpectArrayOperands(instruction));
  PHAL_ASSIGN_OR_RETURN(int64_t dimension, OnlyDimension(instruction));
  PHAL_ASSIGN_OR_RETURN(int64_t group_size,
                        UniformGroupSize(instruction, grid));
  std::vector<Shape> results;
  for (const Shape& operand : OperandShapes(instruction)) {
    PHAL_RETURN_IF_ERROR(
        ExpectDimensionList({dimension}, operand.rank(), "dimensions"));
    std::vector<int64_t> dims = operand.dims();
    int64_t& size = dims[static_cast<std::size_t>(dimension)];
    if (gather && MultiplyOverflows(size, group_size, &size)) {
      return Fail("the gathered dimension overflows");
    }
    if (!gather) {
      if (size % group_size != 0) {
        return Fail("dimension " + std::to_string(dimension) + " of " +
                    operand.ToString() + " does not split into " +
                    std::to_string(group_size) + " equal parts");
      }
      size /= group_size;
    }
    results.emplace_back(operand.element_type(), std::move(dims));
  }
  return ArrayOrTuple(std::move(results));
}

StatusOr<Shape> InferAllReduceShape(const HloInstruction& instruction,
                                    ProcessGrid grid) {
  PHAL_RETURN_IF_ERROR(ExpectArrayOperands(instruction));
  PHAL_RETURN_IF_ERROR(ProcessGroupsOf(instruction, grid).status());
  for (const Shape& operand : OperandShapes(instruction)) {
    PHAL_RETURN_IF_ERROR(ExpectReducer(instruction.to_apply(), "to_apply",
                                       {operand.element_type()}));
  }
  return ArrayOrTuple(OperandShapes(instruction));
}

StatusOr<Shape> InferReduceScatterShape(const HloInstruction& instruction,
                                        ProcessGrid grid) {
  PHAL_RETURN_IF_ERROR(ExpectArrayOperands(instruction));
  for (const Shape& operand : OperandShapes(instruction)) {
    PHAL_RETURN_IF_ERROR(ExpectReducer(instruction.to_apply(), "to_apply",
                                       {operand.element_type()}));
  }
  return InferResizedShape(instruction, grid, /*gather=*/false);
}

// The array form (dimensions={d}, one operand split into group-size parts
// along d) and the tuple form (no dimensions, one operand per member of
// the group, all of one shape).
StatusOr<Shape> InferAllToAllShape(const HloInstruction& instruction,
                                   ProcessGrid grid) {
  PHAL_RETURN_IF_ERROR(ExpectArrayOperands(instruction));
  PHAL_ASSIGN_OR_RETURN(int64_t group_size,
                        UniformGroupSize(instruction, grid));
  const std::vector<Shape> operands = OperandShapes(instruction);
  if (instruction.dimensions().empty()) {
    if (static_cast<int64_t>(operands.size()) != group_size) {
      return Fail("the tuple form sends one operand to each of the " +
                  std::to_string(group_size) + " members of a group, got " +
                  std::to_string(operands.size()) + " operands");
    }
    for (const Shape& operand : operands) {
      if (!operand.Compatible(operands[0])) {
        return Fail("the operands of the tuple form must have one shape, got " +
                    operands[0].ToString() + " and " + operand.ToString());
      }
    }
    return Shape::Tuple(operands);
  }
  if (operands.size() != 1) {
    return Fail("the array form (with dimensions) takes one operand, got " +
                std::to_string(operands.size()));
  }
  PHAL_ASSIGN_OR_RETURN(int64_t dimension, OnlyDimension(instruction));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList({dimension}, operands[0].rank(), "dimensions"));
  if (operands[0].dim(dimension) % group_size != 0) {
    return Fail("the split dimension " + std::to_string(dimension) + " of " +
                operands[0].ToString() + " does not split into " +
                std::to_string(group_size) + " equal parts");
  }
  return operands[0];
}

StatusOr<Shape> InferSameShapeCollective(const HloInstruction& instruction,
                                         ProcessGrid grid) {
  PHAL_RETURN_IF_ERROR(ExpectArrayOperands(instruction));
  PHAL_RETURN_IF_ERROR(ProcessGroupsOf(instruction, grid).status());
  return ArrayOrTuple(OperandShapes(instruction));
}

}  // namespace
}  // namespace shape_inference_internal

StatusOr<Shape> InferCollectiveShape(const HloInstruction& instruction,
                                     ProcessGrid grid) {
  using namespace shape_inference_internal;
  switch (instruction.opcode()) {
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
      PHAL_RETURN_IF_ERROR(ExpectOperandCount(instruction, 0));
      return Shape(PHAL_ELEMENT_TYPE_U32, {});
    case HloOpcode::kAllReduce:
      return InferAllReduceShape(instruction, grid);
    case HloOpcode::kAllGather:
      return InferResizedShape(instruction, grid, /*gather=*/true);
    case HloOpcode::kReduceScatter:
      return InferReduceScatterShape(instruction, grid);
    case HloOpcode::kAllToAll:
      return InferAllToAllShape(instruction, grid);
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
      return InferSameShapeCollective(instruction, grid);
    default:
      return Fail("is not a collective");
  }
}

}  // namespace phal
