// HLO operation codes, their XLA text spellings and the classes of ops that
// share shape rules (elementwise unary, elementwise binary, ...).
#ifndef POLYHAL_CORE_HLO_OPCODE_H_
#define POLYHAL_CORE_HLO_OPCODE_H_

#include <optional>
#include <string_view>

namespace phal {

// X(enumerator, "xla text spelling"). The spelling is what XLA prints and
// what the parser reads; the list is the single source of both.
#define PHAL_HLO_OPCODE_LIST(X)                      \
  X(kAbs, "abs")                                     \
  X(kAcos, "acos")                                   \
  X(kAcosh, "acosh")                                 \
  X(kAdd, "add")                                     \
  X(kAllGather, "all-gather")                        \
  X(kAllReduce, "all-reduce")                        \
  X(kAllToAll, "all-to-all")                         \
  X(kAnd, "and")                                     \
  X(kAsin, "asin")                                   \
  X(kAsinh, "asinh")                                 \
  X(kAtan, "atan")                                   \
  X(kAtan2, "atan2")                                 \
  X(kAtanh, "atanh")                                 \
  X(kBatchNormGrad, "batch-norm-grad")               \
  X(kBatchNormInference, "batch-norm-inference")     \
  X(kBatchNormTraining, "batch-norm-training")       \
  X(kBesselI1e, "bessel-i1e")                        \
  X(kBitcast, "bitcast")                             \
  X(kBitcastConvert, "bitcast-convert")              \
  X(kBroadcast, "broadcast")                         \
  X(kCall, "call")                                   \
  X(kCbrt, "cbrt")                                   \
  X(kCeil, "ceil")                                   \
  X(kCholesky, "cholesky")                           \
  X(kClamp, "clamp")                                 \
  X(kClz, "count-leading-zeros")                     \
  X(kCollectiveBroadcast, "collective-broadcast")    \
  X(kCollectivePermute, "collective-permute")        \
  X(kCompare, "compare")                             \
  X(kComplex, "complex")                             \
  X(kConcatenate, "concatenate")                     \
  X(kConditional, "conditional")                     \
  X(kConstant, "constant")                           \
  X(kConvert, "convert")                             \
  X(kConvolution, "convolution")                     \
  X(kCopy, "copy")                                   \
  X(kCos, "cosine")                                  \
  X(kCosh, "cosh")                                   \
  X(kDigamma, "digamma")                             \
  X(kDivide, "divide")                               \
  X(kDot, "dot")                                     \
  X(kDynamicSlice, "dynamic-slice")                  \
  X(kDynamicUpdateSlice, "dynamic-update-slice")     \
  X(kEigh, "eigh")                                   \
  X(kErf, "erf")                                     \
  X(kErfc, "erfc")                                   \
  X(kExp, "exponential")                             \
  X(kExpm1, "exponential-minus-one")                 \
  X(kFft, "fft")                                     \
  X(kFloor, "floor")                                 \
  X(kFusion, "fusion")                               \
  X(kGather, "gather")                               \
  X(kGetTupleElement, "get-tuple-element")           \
  X(kHouseholderProduct, "householder-product")      \
  X(kImag, "imag")                                   \
  X(kIota, "iota")                                   \
  X(kIsFinite, "is-finite")                          \
  X(kLgamma, "lgamma")                               \
  X(kLog, "log")                                     \
  X(kLog1p, "log-plus-one")                          \
  X(kLogistic, "logistic")                           \
  X(kLu, "lu")                                       \
  X(kMap, "map")                                     \
  X(kMaximum, "maximum")                             \
  X(kMinimum, "minimum")                             \
  X(kMultiply, "multiply")                           \
  X(kNegate, "negate")                               \
  X(kNextAfter, "next-after")                        \
  X(kNot, "not")                                     \
  X(kOptimizationBarrier, "opt-barrier")             \
  X(kOr, "or")                                       \
  X(kPad, "pad")                                     \
  X(kParameter, "parameter")                         \
  X(kPartitionId, "partition-id")                    \
  X(kPolygamma, "polygamma")                         \
  X(kPopulationCount, "popcnt")                      \
  X(kQr, "qr")                                       \
  X(kPower, "power")                                 \
  X(kReal, "real")                                   \
  X(kReduce, "reduce")                               \
  X(kReducePrecision, "reduce-precision")            \
  X(kReduceScatter, "reduce-scatter")                \
  X(kReduceWindow, "reduce-window")                  \
  X(kRemainder, "remainder")                         \
  X(kReplicaId, "replica-id")                        \
  X(kReshape, "reshape")                             \
  X(kReverse, "reverse")                             \
  X(kRoundNearestAfz, "round-nearest-afz")           \
  X(kRoundNearestEven, "round-nearest-even")         \
  X(kRsqrt, "rsqrt")                                 \
  X(kScatter, "scatter")                             \
  X(kSelect, "select")                               \
  X(kSelectAndScatter, "select-and-scatter")         \
  X(kShiftLeft, "shift-left")                        \
  X(kShiftRightArithmetic, "shift-right-arithmetic") \
  X(kShiftRightLogical, "shift-right-logical")       \
  X(kSign, "sign")                                   \
  X(kSin, "sine")                                    \
  X(kSinh, "sinh")                                   \
  X(kSlice, "slice")                                 \
  X(kSort, "sort")                                   \
  X(kSqrt, "sqrt")                                   \
  X(kSubtract, "subtract")                           \
  X(kSvd, "svd")                                     \
  X(kTan, "tan")                                     \
  X(kTanh, "tanh")                                   \
  X(kTopK, "topk")                                   \
  X(kTranspose, "transpose")                         \
  X(kTriangularSolve, "triangular-solve")            \
  X(kTuple, "tuple")                                 \
  X(kWhile, "while")                                 \
  X(kXor, "xor")                                     \
  X(kZeta, "zeta")

enum class HloOpcode {
#define PHAL_HLO_OPCODE_ENUMERATOR(enumerator, spelling) enumerator,
  PHAL_HLO_OPCODE_LIST(PHAL_HLO_OPCODE_ENUMERATOR)
#undef PHAL_HLO_OPCODE_ENUMERATOR
};

// Number of opcodes, for tables indexed by opcode.
inline constexpr int kHloOpcodeCount = 0
#define PHAL_HLO_OPCODE_COUNT(enumerator, spelling) +1
    PHAL_HLO_OPCODE_LIST(PHAL_HLO_OPCODE_COUNT)
#undef PHAL_HLO_OPCODE_COUNT
    ;

// The XLA text spelling of `opcode`, e.g. "dynamic-slice".
std::string_view HloOpcodeName(HloOpcode opcode);

// The opcode spelled `name`; also accepts the legacy spelling
// "optimization-barrier". nullopt for an unknown name.
std::optional<HloOpcode> HloOpcodeFromName(std::string_view name);

// Ops with one operand applied element by element whose result has the
// operand's shape up to the element type (abs, exponential, is-finite, real,
// ...). Excludes convert, bitcast-convert and reduce-precision, which carry
// attributes or a target type.
bool IsElementwiseUnary(HloOpcode opcode);

// Ops with two operands of the same shape applied element by element (add,
// compare, atan2, complex, shift-*, ...).
bool IsElementwiseBinary(HloOpcode opcode);

// Every op whose output element i depends only on input elements i:
// unary, binary, select, clamp, convert, bitcast-convert (element i of a
// narrowing or widening bitcast-convert is a group of elements of the
// other), reduce-precision and map.
bool IsElementwise(HloOpcode opcode);

// The linear-algebra ops (cholesky, triangular-solve, lu, qr,
// householder-product, eigh, svd): the reference computes them, the
// compiler's first pass expands them.
bool IsLinearAlgebra(HloOpcode opcode);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_OPCODE_H_
