#include "core/compiler/counted_loop.h"

#include "core/hlo/computation.h"

namespace phal {
namespace {

bool IsIntegerConstant(const HloInstruction& value, int64_t* number) {
  if (value.opcode() != HloOpcode::kConstant || !value.shape().IsArray() ||
      value.shape().rank() != 0 || !IsIntegral(value.shape().element_type())) {
    return false;
  }
  *number = static_cast<int64_t>(value.literal().GetAsDouble(0));
  return true;
}

}  // namespace

bool IsParameterElement(const HloInstruction& value, int64_t* index) {
  if (value.opcode() != HloOpcode::kGetTupleElement ||
      value.operand(0)->opcode() != HloOpcode::kParameter) {
    return false;
  }
  *index = value.tuple_index();
  return true;
}

std::optional<CountedLoop> FindCountedLoop(const HloInstruction& loop) {
  if (loop.opcode() != HloOpcode::kWhile ||
      loop.operand(0)->opcode() != HloOpcode::kTuple) {
    return std::nullopt;
  }
  const HloComputation& condition = *loop.called_computations()[0];
  const HloComputation& body = *loop.called_computations()[1];
  const HloInstruction& compare = *condition.root_instruction();
  const HloInstruction& root = *body.root_instruction();
  if (compare.opcode() != HloOpcode::kCompare ||
      root.opcode() != HloOpcode::kTuple) {
    return std::nullopt;
  }
  CountedLoop counted;
  const ComparisonDirection direction = compare.comparison_direction();
  const bool below =
      direction == ComparisonDirection::kLt &&
      IsParameterElement(*compare.operand(0), &counted.counter) &&
      IsIntegerConstant(*compare.operand(1), &counted.limit);
  const bool above =
      direction == ComparisonDirection::kGt &&
      IsParameterElement(*compare.operand(1), &counted.counter) &&
      IsIntegerConstant(*compare.operand(0), &counted.limit);
  if (!below && !above) return std::nullopt;
  const HloInstruction& init = *loop.operand(0);
  if (counted.counter >= init.operand_count() ||
      counted.counter >= root.operand_count() ||
      !IsIntegerConstant(*init.operand(counted.counter), &counted.start)) {
    return std::nullopt;
  }
  const HloInstruction& next = *root.operand(counted.counter);
  if (next.opcode() != HloOpcode::kAdd) return std::nullopt;
  for (int64_t side = 0; side < 2; ++side) {
    int64_t read = -1;
    int64_t step = 0;
    if (IsParameterElement(*next.operand(side), &read) &&
        read == counted.counter &&
        IsIntegerConstant(*next.operand(1 - side), &step) && step == 1) {
      return counted;
    }
  }
  return std::nullopt;
}

}  // namespace phal
