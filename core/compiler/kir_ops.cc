#include "core/compiler/kir_ops.h"

#include <utility>

namespace phal {
namespace {

constexpr std::pair<HloOpcode, phal_kir_op_t> kOpTable[] = {
    {HloOpcode::kAbs, PHAL_KIR_OP_ABS},
    {HloOpcode::kNegate, PHAL_KIR_OP_NEGATE},
    {HloOpcode::kSign, PHAL_KIR_OP_SIGN},
    {HloOpcode::kFloor, PHAL_KIR_OP_FLOOR},
    {HloOpcode::kCeil, PHAL_KIR_OP_CEIL},
    {HloOpcode::kRoundNearestAfz, PHAL_KIR_OP_ROUND_NEAREST_AFZ},
    {HloOpcode::kRoundNearestEven, PHAL_KIR_OP_ROUND_NEAREST_EVEN},
    {HloOpcode::kExp, PHAL_KIR_OP_EXP},
    {HloOpcode::kExpm1, PHAL_KIR_OP_EXPM1},
    {HloOpcode::kLog, PHAL_KIR_OP_LOG},
    {HloOpcode::kLog1p, PHAL_KIR_OP_LOG1P},
    {HloOpcode::kLogistic, PHAL_KIR_OP_LOGISTIC},
    {HloOpcode::kSqrt, PHAL_KIR_OP_SQRT},
    {HloOpcode::kRsqrt, PHAL_KIR_OP_RSQRT},
    {HloOpcode::kCbrt, PHAL_KIR_OP_CBRT},
    {HloOpcode::kTanh, PHAL_KIR_OP_TANH},
    {HloOpcode::kSin, PHAL_KIR_OP_SIN},
    {HloOpcode::kCos, PHAL_KIR_OP_COS},
    {HloOpcode::kTan, PHAL_KIR_OP_TAN},
    {HloOpcode::kErf, PHAL_KIR_OP_ERF},
    {HloOpcode::kNot, PHAL_KIR_OP_NOT},
    {HloOpcode::kPopulationCount, PHAL_KIR_OP_POPCNT},
    {HloOpcode::kClz, PHAL_KIR_OP_CLZ},
    {HloOpcode::kIsFinite, PHAL_KIR_OP_IS_FINITE},
    {HloOpcode::kReal, PHAL_KIR_OP_REAL},
    {HloOpcode::kImag, PHAL_KIR_OP_IMAG},
    {HloOpcode::kConvert, PHAL_KIR_OP_CONVERT},
    {HloOpcode::kBitcastConvert, PHAL_KIR_OP_BITCAST_CONVERT},
    {HloOpcode::kReducePrecision, PHAL_KIR_OP_REDUCE_PRECISION},
    {HloOpcode::kAdd, PHAL_KIR_OP_ADD},
    {HloOpcode::kSubtract, PHAL_KIR_OP_SUBTRACT},
    {HloOpcode::kMultiply, PHAL_KIR_OP_MULTIPLY},
    {HloOpcode::kDivide, PHAL_KIR_OP_DIVIDE},
    {HloOpcode::kRemainder, PHAL_KIR_OP_REMAINDER},
    {HloOpcode::kMaximum, PHAL_KIR_OP_MAXIMUM},
    {HloOpcode::kMinimum, PHAL_KIR_OP_MINIMUM},
    {HloOpcode::kPower, PHAL_KIR_OP_POWER},
    {HloOpcode::kAtan2, PHAL_KIR_OP_ATAN2},
    {HloOpcode::kAnd, PHAL_KIR_OP_AND},
    {HloOpcode::kOr, PHAL_KIR_OP_OR},
    {HloOpcode::kXor, PHAL_KIR_OP_XOR},
    {HloOpcode::kShiftLeft, PHAL_KIR_OP_SHIFT_LEFT},
    {HloOpcode::kShiftRightArithmetic, PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC},
    {HloOpcode::kShiftRightLogical, PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL},
    {HloOpcode::kComplex, PHAL_KIR_OP_COMPLEX},
    {HloOpcode::kCompare, PHAL_KIR_OP_COMPARE},
    {HloOpcode::kSelect, PHAL_KIR_OP_SELECT},
    {HloOpcode::kClamp, PHAL_KIR_OP_CLAMP},
};

}  // namespace

std::optional<phal_kir_op_t> KirOpForOpcode(HloOpcode opcode) {
  for (const auto& [hlo, kir] : kOpTable) {
    if (hlo == opcode) return kir;
  }
  return std::nullopt;
}

std::optional<HloOpcode> OpcodeForKirOp(phal_kir_op_t op) {
  for (const auto& [hlo, kir] : kOpTable) {
    if (kir == op) return hlo;
  }
  return std::nullopt;
}

phal_kir_comparison_direction_t KirComparisonDirection(
    ComparisonDirection direction) {
  return static_cast<phal_kir_comparison_direction_t>(direction);
}

ComparisonDirection HloComparisonDirection(int64_t direction) {
  return static_cast<ComparisonDirection>(direction);
}

phal_kir_comparison_type_t KirComparisonType(ComparisonType type) {
  switch (type) {
    case ComparisonType::kTotalOrder:
      return PHAL_KIR_COMPARISON_TOTALORDER;
    case ComparisonType::kSigned:
      return PHAL_KIR_COMPARISON_SIGNED;
    case ComparisonType::kUnsigned:
      return PHAL_KIR_COMPARISON_UNSIGNED;
    default:
      return PHAL_KIR_COMPARISON_FLOAT;
  }
}

ComparisonType HloComparisonType(int64_t type) {
  switch (type) {
    case PHAL_KIR_COMPARISON_TOTALORDER:
      return ComparisonType::kTotalOrder;
    case PHAL_KIR_COMPARISON_SIGNED:
      return ComparisonType::kSigned;
    case PHAL_KIR_COMPARISON_UNSIGNED:
      return ComparisonType::kUnsigned;
    default:
      return ComparisonType::kFloat;
  }
}

}  // namespace phal
