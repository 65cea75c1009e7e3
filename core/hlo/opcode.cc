#include "core/hlo/opcode.h"

#include <array>

namespace phal {
namespace {

constexpr std::array<std::string_view, kHloOpcodeCount> kOpcodeNames = {
#define PHAL_HLO_OPCODE_NAME(enumerator, spelling) spelling,
    PHAL_HLO_OPCODE_LIST(PHAL_HLO_OPCODE_NAME)
#undef PHAL_HLO_OPCODE_NAME
};

}  // namespace

std::string_view HloOpcodeName(HloOpcode opcode) {
  return kOpcodeNames[static_cast<std::size_t>(opcode)];
}

std::optional<HloOpcode> HloOpcodeFromName(std::string_view name) {
  if (name == "optimization-barrier") return HloOpcode::kOptimizationBarrier;
  for (std::size_t i = 0; i < kOpcodeNames.size(); ++i) {
    if (kOpcodeNames[i] == name) return static_cast<HloOpcode>(i);
  }
  return std::nullopt;
}

bool IsElementwiseUnary(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAbs:
    case HloOpcode::kAcos:
    case HloOpcode::kAcosh:
    case HloOpcode::kAsin:
    case HloOpcode::kAsinh:
    case HloOpcode::kAtan:
    case HloOpcode::kAtanh:
    case HloOpcode::kCosh:
    case HloOpcode::kSinh:
    case HloOpcode::kCbrt:
    case HloOpcode::kCeil:
    case HloOpcode::kClz:
    case HloOpcode::kCopy:
    case HloOpcode::kBesselI1e:
    case HloOpcode::kCos:
    case HloOpcode::kDigamma:
    case HloOpcode::kErf:
    case HloOpcode::kErfc:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kFloor:
    case HloOpcode::kImag:
    case HloOpcode::kIsFinite:
    case HloOpcode::kLgamma:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kNegate:
    case HloOpcode::kNot:
    case HloOpcode::kPopulationCount:
    case HloOpcode::kReal:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kRsqrt:
    case HloOpcode::kSign:
    case HloOpcode::kSin:
    case HloOpcode::kSqrt:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseBinary(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAdd:
    case HloOpcode::kAnd:
    case HloOpcode::kAtan2:
    case HloOpcode::kCompare:
    case HloOpcode::kComplex:
    case HloOpcode::kDivide:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
    case HloOpcode::kNextAfter:
    case HloOpcode::kOr:
    case HloOpcode::kPolygamma:
    case HloOpcode::kPower:
    case HloOpcode::kRemainder:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kSubtract:
    case HloOpcode::kXor:
    case HloOpcode::kZeta:
      return true;
    default:
      return false;
  }
}

bool IsElementwise(HloOpcode opcode) {
  if (IsElementwiseUnary(opcode) || IsElementwiseBinary(opcode)) return true;
  switch (opcode) {
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kClamp:
    case HloOpcode::kConvert:
    case HloOpcode::kMap:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kSelect:
      return true;
    default:
      return false;
  }
}

bool IsLinearAlgebra(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kCholesky:
    case HloOpcode::kTriangularSolve:
    case HloOpcode::kLu:
    case HloOpcode::kQr:
    case HloOpcode::kHouseholderProduct:
    case HloOpcode::kEigh:
    case HloOpcode::kSvd:
      return true;
    default:
      return false;
  }
}

}  // namespace phal
