#include "sdk/kir_interpreter/kir_ops.h"

namespace phal::kir_interpreter {
namespace {

struct OpInfo {
  phal_kir_op_t op;
  const char* name;
  int arity;
};

constexpr OpInfo kOps[] = {
    {PHAL_KIR_OP_CONSTANT, "constant", 0},
    {PHAL_KIR_OP_INDEX, "index", 0},
    {PHAL_KIR_OP_READ, "read", -1},
    {PHAL_KIR_OP_PARAMETER, "parameter", 0},
    {PHAL_KIR_OP_ABS, "abs", 1},
    {PHAL_KIR_OP_NEGATE, "negate", 1},
    {PHAL_KIR_OP_SIGN, "sign", 1},
    {PHAL_KIR_OP_FLOOR, "floor", 1},
    {PHAL_KIR_OP_CEIL, "ceil", 1},
    {PHAL_KIR_OP_ROUND_NEAREST_AFZ, "round_nearest_afz", 1},
    {PHAL_KIR_OP_ROUND_NEAREST_EVEN, "round_nearest_even", 1},
    {PHAL_KIR_OP_EXP, "exp", 1},
    {PHAL_KIR_OP_EXPM1, "expm1", 1},
    {PHAL_KIR_OP_LOG, "log", 1},
    {PHAL_KIR_OP_LOG1P, "log1p", 1},
    {PHAL_KIR_OP_LOGISTIC, "logistic", 1},
    {PHAL_KIR_OP_SQRT, "sqrt", 1},
    {PHAL_KIR_OP_RSQRT, "rsqrt", 1},
    {PHAL_KIR_OP_CBRT, "cbrt", 1},
    {PHAL_KIR_OP_TANH, "tanh", 1},
    {PHAL_KIR_OP_SIN, "sin", 1},
    {PHAL_KIR_OP_COS, "cos", 1},
    {PHAL_KIR_OP_TAN, "tan", 1},
    {PHAL_KIR_OP_NOT, "not", 1},
    {PHAL_KIR_OP_POPCNT, "popcnt", 1},
    {PHAL_KIR_OP_CLZ, "clz", 1},
    {PHAL_KIR_OP_IS_FINITE, "is_finite", 1},
    {PHAL_KIR_OP_REAL, "real", 1},
    {PHAL_KIR_OP_IMAG, "imag", 1},
    {PHAL_KIR_OP_CONVERT, "convert", 1},
    {PHAL_KIR_OP_BITCAST_CONVERT, "bitcast_convert", 1},
    {PHAL_KIR_OP_REDUCE_PRECISION, "reduce_precision", 1},
    {PHAL_KIR_OP_ERF, "erf", 1},
    {PHAL_KIR_OP_ADD, "add", 2},
    {PHAL_KIR_OP_SUBTRACT, "subtract", 2},
    {PHAL_KIR_OP_MULTIPLY, "multiply", 2},
    {PHAL_KIR_OP_DIVIDE, "divide", 2},
    {PHAL_KIR_OP_REMAINDER, "remainder", 2},
    {PHAL_KIR_OP_MAXIMUM, "maximum", 2},
    {PHAL_KIR_OP_MINIMUM, "minimum", 2},
    {PHAL_KIR_OP_POWER, "power", 2},
    {PHAL_KIR_OP_ATAN2, "atan2", 2},
    {PHAL_KIR_OP_AND, "and", 2},
    {PHAL_KIR_OP_OR, "or", 2},
    {PHAL_KIR_OP_XOR, "xor", 2},
    {PHAL_KIR_OP_SHIFT_LEFT, "shift_left", 2},
    {PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, "shift_right_arithmetic", 2},
    {PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL, "shift_right_logical", 2},
    {PHAL_KIR_OP_COMPLEX, "complex", 2},
    {PHAL_KIR_OP_COMPARE, "compare", 2},
    {PHAL_KIR_OP_SELECT, "select", 3},
    {PHAL_KIR_OP_CLAMP, "clamp", 3},
};

const OpInfo* FindOp(uint32_t op) {
  for (const OpInfo& info : kOps) {
    if (static_cast<uint32_t>(info.op) == op) return &info;
  }
  return nullptr;
}

}  // namespace

const char* KirOpName(uint32_t op) {
  const OpInfo* info = FindOp(op);
  return info != nullptr ? info->name : "invalid";
}

int KirOpArity(uint32_t op) {
  const OpInfo* info = FindOp(op);
  return info != nullptr ? info->arity : -1;
}

const char* KernelKindName(uint32_t kind) {
  static const char* const kNames[] = {"invalid", "loop", "reduce",
                                       "dot",     "conv", "gather",
                                       "scatter", "sort", "copy"};
  return kind < sizeof(kNames) / sizeof(kNames[0]) ? kNames[kind] : "invalid";
}

}  // namespace phal::kir_interpreter
