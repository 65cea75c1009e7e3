#include "sdk/kir_interpreter/scalar_ops.h"

#include <cstring>
#include <string>

#include "sdk/element_semantics/comparison.h"
#include "sdk/element_semantics/complex_functions.h"
#include "sdk/element_semantics/convert.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/integer_functions.h"
#include "sdk/element_semantics/real_functions.h"
#include "sdk/element_semantics/reduce_precision.h"
#include "sdk/kir/facts.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::element_semantics;  // NOLINT(build/namespaces)

// ---------------------------------------------------------------------------
// Loops. Each loads operands through their traits, applies kFn to the
// computed values and stores through the result's traits.

template <typename T>
const typename T::Storage* Operand(const ScalarOpArgs& args, int index) {
  return reinterpret_cast<const typename T::Storage*>(args.operands[index]);
}

template <typename T>
typename T::Storage* Result(const ScalarOpArgs& args) {
  return reinterpret_cast<typename T::Storage*>(args.result);
}

template <typename In, typename Out, auto kFn>
void MapUnary(const ScalarOpArgs& args) {
  const auto* x = Operand<In>(args, 0);
  auto* out = Result<Out>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Out::Store(kFn(In::Load(x[i])));
  }
}

template <typename In, typename Out, auto kFn>
void MapBinary(const ScalarOpArgs& args) {
  const auto* x = Operand<In>(args, 0);
  const auto* y = Operand<In>(args, 1);
  auto* out = Result<Out>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Out::Store(kFn(In::Load(x[i]), In::Load(y[i])));
  }
}

// ---------------------------------------------------------------------------
// Real floating-point ops (values in double).

template <typename T>
ScalarOp FloatUnaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, T, FloatAbs>;
    case PHAL_KIR_OP_CBRT:
      return &MapUnary<T, T, FloatCbrt>;
    case PHAL_KIR_OP_CEIL:
      return &MapUnary<T, T, FloatCeil>;
    case PHAL_KIR_OP_COS:
      return &MapUnary<T, T, FloatCos>;
    case PHAL_KIR_OP_ERF:
      return &MapUnary<T, T, FloatErf>;
    case PHAL_KIR_OP_EXP:
      return &MapUnary<T, T, FloatExp>;
    case PHAL_KIR_OP_EXPM1:
      return &MapUnary<T, T, FloatExpm1>;
    case PHAL_KIR_OP_FLOOR:
      return &MapUnary<T, T, FloatFloor>;
    case PHAL_KIR_OP_IMAG:
      return &MapUnary<T, T, FloatImag>;
    case PHAL_KIR_OP_IS_FINITE:
      return &MapUnary<T, PredTraits, FloatIsFinite>;
    case PHAL_KIR_OP_LOG:
      return &MapUnary<T, T, FloatLog>;
    case PHAL_KIR_OP_LOG1P:
      return &MapUnary<T, T, FloatLog1p>;
    case PHAL_KIR_OP_LOGISTIC:
      return &MapUnary<T, T, FloatLogistic>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, FloatNegate>;
    case PHAL_KIR_OP_REAL:
      return &MapUnary<T, T, FloatReal>;
    case PHAL_KIR_OP_ROUND_NEAREST_AFZ:
      return &MapUnary<T, T, FloatRoundAfz>;
    case PHAL_KIR_OP_ROUND_NEAREST_EVEN:
      return &MapUnary<T, T, FloatRoundEven>;
    case PHAL_KIR_OP_RSQRT:
      return &MapUnary<T, T, FloatRsqrt>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, FloatSign>;
    case PHAL_KIR_OP_SIN:
      return &MapUnary<T, T, FloatSin>;
    case PHAL_KIR_OP_SQRT:
      return &MapUnary<T, T, FloatSqrt>;
    case PHAL_KIR_OP_TAN:
      return &MapUnary<T, T, FloatTan>;
    case PHAL_KIR_OP_TANH:
      return &MapUnary<T, T, FloatTanh>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp FloatBinaryOp(uint32_t op, ElementType result) {
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, FloatAdd>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, FloatSubtract>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, FloatMultiply>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, FloatDivide>;
    case PHAL_KIR_OP_REMAINDER:
      return &MapBinary<T, T, FloatRemainder>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, FloatMaximum>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, FloatMinimum>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, FloatPower>;
    case PHAL_KIR_OP_ATAN2:
      return &MapBinary<T, T, FloatAtan2>;
    case PHAL_KIR_OP_COMPLEX:
      return result == PHAL_ELEMENT_TYPE_C128
                 ? &MapBinary<T, C128Traits, MakeComplex>
                 : &MapBinary<T, C64Traits, MakeComplex>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Complex ops (values in std::complex<double>).

template <typename T>
ScalarOp ComplexUnaryOp(uint32_t op) {
  using Part = typename T::Part;
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, Part, ComplexAbs>;
    case PHAL_KIR_OP_REAL:
      return &MapUnary<T, Part, ComplexReal>;
    case PHAL_KIR_OP_IMAG:
      return &MapUnary<T, Part, ComplexImag>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, ComplexNegate>;
    case PHAL_KIR_OP_EXP:
      return &MapUnary<T, T, ComplexExp>;
    case PHAL_KIR_OP_EXPM1:
      return &MapUnary<T, T, ComplexExpm1>;
    case PHAL_KIR_OP_LOG:
      return &MapUnary<T, T, ComplexLog>;
    case PHAL_KIR_OP_LOG1P:
      return &MapUnary<T, T, ComplexLog1p>;
    case PHAL_KIR_OP_LOGISTIC:
      return &MapUnary<T, T, ComplexLogistic>;
    case PHAL_KIR_OP_SQRT:
      return &MapUnary<T, T, ComplexSqrt>;
    case PHAL_KIR_OP_RSQRT:
      return &MapUnary<T, T, ComplexRsqrt>;
    case PHAL_KIR_OP_CBRT:
      return &MapUnary<T, T, ComplexCbrt>;
    case PHAL_KIR_OP_SIN:
      return &MapUnary<T, T, ComplexSin>;
    case PHAL_KIR_OP_COS:
      return &MapUnary<T, T, ComplexCos>;
    case PHAL_KIR_OP_TAN:
      return &MapUnary<T, T, ComplexTan>;
    case PHAL_KIR_OP_TANH:
      return &MapUnary<T, T, ComplexTanh>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, ComplexSign>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp ComplexBinaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, ComplexAdd>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, ComplexSubtract>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, ComplexMultiply>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, ComplexDivide>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, ComplexPower>;
    case PHAL_KIR_OP_ATAN2:
      return &MapBinary<T, T, ComplexAtan2>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, ComplexMaximum>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, ComplexMinimum>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Integer and pred ops.

template <typename T>
ScalarOp IntegerUnaryOp(uint32_t op) {
  using I = typename T::Value;
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return &MapUnary<T, T, IntegerAbs<I>>;
    case PHAL_KIR_OP_NEGATE:
      return &MapUnary<T, T, IntegerNegate<I>>;
    case PHAL_KIR_OP_NOT:
      return &MapUnary<T, T, IntegerNot<I>>;
    case PHAL_KIR_OP_POPCNT:
      return &MapUnary<T, T, PopulationCount<I>>;
    case PHAL_KIR_OP_CLZ:
      return &MapUnary<T, T, CountLeadingZeros<I>>;
    case PHAL_KIR_OP_SIGN:
      return &MapUnary<T, T, IntegerSign<I>>;
    default:
      return nullptr;
  }
}

template <typename T>
ScalarOp IntegerBinaryOp(uint32_t op) {
  using I = typename T::Value;
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return &MapBinary<T, T, IntegerAdd<I>>;
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<T, T, IntegerSubtract<I>>;
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<T, T, IntegerMultiply<I>>;
    case PHAL_KIR_OP_DIVIDE:
      return &MapBinary<T, T, IntegerDivide<I>>;
    case PHAL_KIR_OP_REMAINDER:
      return &MapBinary<T, T, IntegerRemainder<I>>;
    case PHAL_KIR_OP_MAXIMUM:
      return &MapBinary<T, T, IntegerMaximum<I>>;
    case PHAL_KIR_OP_MINIMUM:
      return &MapBinary<T, T, IntegerMinimum<I>>;
    case PHAL_KIR_OP_POWER:
      return &MapBinary<T, T, IntegerPower<I>>;
    case PHAL_KIR_OP_AND:
      return &MapBinary<T, T, IntegerAnd<I>>;
    case PHAL_KIR_OP_OR:
      return &MapBinary<T, T, IntegerOr<I>>;
    case PHAL_KIR_OP_XOR:
      return &MapBinary<T, T, IntegerXor<I>>;
    case PHAL_KIR_OP_SHIFT_LEFT:
      return &MapBinary<T, T, ShiftLeft<I>>;
    case PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL:
      return &MapBinary<T, T, ShiftRightLogical<I>>;
    case PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC:
      return &MapBinary<T, T, ShiftRightArithmetic<I>>;
    default:
      return nullptr;
  }
}

ScalarOp PredUnaryOp(uint32_t op) {
  return op == PHAL_KIR_OP_NOT ? &MapUnary<PredTraits, PredTraits, PredNot>
                               : nullptr;
}

ScalarOp PredBinaryOp(uint32_t op) {
  switch (op) {
    case PHAL_KIR_OP_AND:
    case PHAL_KIR_OP_MINIMUM:
    case PHAL_KIR_OP_MULTIPLY:
      return &MapBinary<PredTraits, PredTraits, PredAnd>;
    case PHAL_KIR_OP_OR:
    case PHAL_KIR_OP_MAXIMUM:
    case PHAL_KIR_OP_ADD:
      return &MapBinary<PredTraits, PredTraits, PredOr>;
    case PHAL_KIR_OP_XOR:
    case PHAL_KIR_OP_SUBTRACT:
      return &MapBinary<PredTraits, PredTraits, PredXor>;
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------------------
// Compare, one loop per key and relation (comparison.h).

template <typename T, auto kKey, typename Relation>
void CompareLoop(const ScalarOpArgs& args) {
  const auto* x = Operand<T>(args, 0);
  const auto* y = Operand<T>(args, 1);
  uint8_t* out = args.result;
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = Relation{}(kKey(x[i]), kKey(y[i])) ? 1 : 0;
  }
}

template <typename T, typename Relation>
void ComplexCompareLoop(const ScalarOpArgs& args) {
  const auto* x = Operand<T>(args, 0);
  const auto* y = Operand<T>(args, 1);
  uint8_t* out = args.result;
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = ComplexHolds<Relation>(T::Load(x[i]), T::Load(y[i])) ? 1 : 0;
  }
}

template <typename T, auto kKey>
ScalarOp CompareWithKey(uint32_t direction) {
  return DispatchRelation(direction, [](auto relation) -> ScalarOp {
    return &CompareLoop<T, kKey, decltype(relation)>;
  });
}

// The ordering the comparison type selects for each element type: floats
// compare by totalOrder or as IEEE values (any other type), complex values
// lexicographically whatever the type, integers by their bits read as
// signed or unsigned (or in their own signedness for FLOAT and TOTALORDER),
// pred as false < true.
template <typename T>
ScalarOp CompareOp(uint32_t direction, uint32_t ordering) {
  if constexpr (kIsFloat<T>) {
    return ordering == PHAL_KIR_COMPARISON_TOTALORDER
               ? CompareWithKey<T, TotalOrderKey<T>>(direction)
               : CompareWithKey<T, ValueKey<T>>(direction);
  } else if constexpr (kIsComplex<T>) {
    return DispatchRelation(direction, [](auto relation) -> ScalarOp {
      return &ComplexCompareLoop<T, decltype(relation)>;
    });
  } else if constexpr (kIsPred<T>) {
    return CompareWithKey<T, ValueKey<T>>(direction);
  } else {
    if (ordering == PHAL_KIR_COMPARISON_SIGNED) {
      return CompareWithKey<T, SignedKey<T>>(direction);
    }
    if (ordering == PHAL_KIR_COMPARISON_UNSIGNED) {
      return CompareWithKey<T, UnsignedKey<T>>(direction);
    }
    return CompareWithKey<T, ValueKey<T>>(direction);
  }
}

// ---------------------------------------------------------------------------
// Select, clamp and bitcast-convert.

template <std::size_t kSize>
struct ElementBytes {
  uint8_t bytes[kSize];
};

template <std::size_t kSize>
void SelectLoop(const ScalarOpArgs& args) {
  using E = ElementBytes<kSize>;
  const uint8_t* predicate = args.operands[0];
  const auto* on_true = reinterpret_cast<const E*>(args.operands[1]);
  const auto* on_false = reinterpret_cast<const E*>(args.operands[2]);
  auto* out = reinterpret_cast<E*>(args.result);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = predicate[i] != 0 ? on_true[i] : on_false[i];
  }
}

ScalarOp SelectOp(std::size_t element_size) {
  switch (element_size) {
    case 1:
      return &SelectLoop<1>;
    case 2:
      return &SelectLoop<2>;
    case 4:
      return &SelectLoop<4>;
    case 8:
      return &SelectLoop<8>;
    case 16:
      return &SelectLoop<16>;
    default:
      return nullptr;
  }
}

template <typename T>
void ClampLoop(const ScalarOpArgs& args) {
  const auto* low = Operand<T>(args, 0);
  const auto* x = Operand<T>(args, 1);
  const auto* high = Operand<T>(args, 2);
  auto* out = Result<T>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = T::Store(
        ClampValue<T>(T::Load(low[i]), T::Load(x[i]), T::Load(high[i])));
  }
}

// Reinterprets elements of one width: a byte copy.
void BitcastLoop(const ScalarOpArgs& args) {
  const std::size_t size = ElementTypeByteSize(args.node->type);
  std::memcpy(args.result, args.operands[0],
              static_cast<std::size_t>(args.count) * size);
}

// ---------------------------------------------------------------------------
// Convert.

ScalarOp ConvertOp(ElementType from, ElementType to) {
  return DispatchElementType(from, [&](auto from_traits) {
    return DispatchElementType(to, [&](auto to_traits) -> ScalarOp {
      using From = decltype(from_traits);
      using To = decltype(to_traits);
      return &MapUnary<From, To, ConvertValue<From, To>>;
    });
  });
}

// ---------------------------------------------------------------------------
// Reduce-precision.

// The attributes as the reference reads them (as int).
int ExponentBits(const phal_kir_node_t& node) {
  return static_cast<int>(node.attributes[0]);
}
int MantissaBits(const phal_kir_node_t& node) {
  return static_cast<int>(node.attributes[1]);
}

template <typename T>
void ReducePrecisionLoop(const ScalarOpArgs& args) {
  const int exponent_bits = ExponentBits(*args.node);
  const int mantissa_bits = MantissaBits(*args.node);
  const auto* x = Operand<T>(args, 0);
  auto* out = Result<T>(args);
  for (int64_t i = 0; i < args.count; ++i) {
    out[i] = ReducePrecision<T>(x[i], exponent_bits, mantissa_bits);
  }
}

// ---------------------------------------------------------------------------
// Type rules and selection.

// The element type `op` produces from operands of type `operand`.
ElementType ResultTypeOf(uint32_t op, ElementType operand) {
  switch (op) {
    case PHAL_KIR_OP_COMPARE:
    case PHAL_KIR_OP_IS_FINITE:
      return PHAL_ELEMENT_TYPE_PRED;
    case PHAL_KIR_OP_ABS:
    case PHAL_KIR_OP_REAL:
    case PHAL_KIR_OP_IMAG:
      return ComplexComponentType(operand);
    case PHAL_KIR_OP_COMPLEX:
      return operand == PHAL_ELEMENT_TYPE_F64 ? PHAL_ELEMENT_TYPE_C128
                                              : PHAL_ELEMENT_TYPE_C64;
    default:
      return operand;
  }
}

std::string TypeName(ElementType type) { return ElementTypeName(type); }

Status CheckTypes(const phal_kir_node_t& node, uint32_t op,
                  std::span<const ElementType> operand_types) {
  const ElementType result = node.type;
  if (op == PHAL_KIR_OP_CONVERT) return OkStatus();
  if (op == PHAL_KIR_OP_BITCAST_CONVERT) {
    if (ElementTypeByteSize(operand_types[0]) != ElementTypeByteSize(result)) {
      return InvalidArgument("bitcast_convert from " +
                             TypeName(operand_types[0]) + " to " +
                             TypeName(result) + " changes the width");
    }
    return OkStatus();
  }
  const bool is_select = op == PHAL_KIR_OP_SELECT;
  if (is_select && operand_types[0] != PHAL_ELEMENT_TYPE_PRED) {
    return InvalidArgument("the select predicate is " +
                           TypeName(operand_types[0]) + ", not pred");
  }
  const std::size_t first = is_select ? 1 : 0;
  const ElementType typed = operand_types[first];
  for (std::size_t i = first + 1; i < operand_types.size(); ++i) {
    if (operand_types[i] != typed) {
      return InvalidArgument("operands of different element types " +
                             TypeName(typed) + " and " +
                             TypeName(operand_types[i]));
    }
  }
  const ElementType expected = ResultTypeOf(op, typed);
  if (result != expected) {
    return InvalidArgument("the result element type must be " +
                           TypeName(expected) + ", not " + TypeName(result));
  }
  if (op == PHAL_KIR_OP_COMPARE) {
    if (node.attributes[0] < PHAL_KIR_COMPARE_EQ ||
        node.attributes[0] > PHAL_KIR_COMPARE_GE) {
      return InvalidArgument("comparison direction " +
                             std::to_string(node.attributes[0]) +
                             " is none of EQ NE LT LE GT GE");
    }
    if (node.attributes[1] < PHAL_KIR_COMPARISON_FLOAT ||
        node.attributes[1] > PHAL_KIR_COMPARISON_UNSIGNED) {
      return InvalidArgument("comparison type " +
                             std::to_string(node.attributes[1]) +
                             " is none of float totalorder signed unsigned");
    }
  }
  if (op == PHAL_KIR_OP_REDUCE_PRECISION &&
      (ExponentBits(node) < 1 || MantissaBits(node) < 0)) {
    return InvalidArgument(
        "reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0, "
        "got e" +
        std::to_string(node.attributes[0]) + " m" +
        std::to_string(node.attributes[1]));
  }
  return OkStatus();
}

// The loop for `op` on operands whose (value) element type is `type`, or
// nullptr when the op is not defined for it.
ScalarOp TypedOp(const phal_kir_node_t& node, uint32_t op, ElementType type) {
  return DispatchElementType(type, [&](auto traits) -> ScalarOp {
    using T = decltype(traits);
    switch (op) {
      case PHAL_KIR_OP_SELECT:
        return SelectOp(sizeof(typename T::Storage));
      case PHAL_KIR_OP_COMPARE:
        return CompareOp<T>(static_cast<uint32_t>(node.attributes[0]),
                            static_cast<uint32_t>(node.attributes[1]));
      case PHAL_KIR_OP_CLAMP:
        if constexpr (kIsComplex<T>) {
          return nullptr;
        } else {
          return &ClampLoop<T>;
        }
      case PHAL_KIR_OP_REDUCE_PRECISION:
        if constexpr (kIsFloat<T>) {
          return &ReducePrecisionLoop<T>;
        } else {
          return nullptr;
        }
      default:
        break;
    }
    const bool unary = KirOpClassOf(op) == KirOpClass::kUnary;
    if constexpr (kIsFloat<T>) {
      return unary ? FloatUnaryOp<T>(op) : FloatBinaryOp<T>(op, node.type);
    } else if constexpr (kIsComplex<T>) {
      return unary ? ComplexUnaryOp<T>(op) : ComplexBinaryOp<T>(op);
    } else if constexpr (kIsInteger<T>) {
      return unary ? IntegerUnaryOp<T>(op) : IntegerBinaryOp<T>(op);
    } else {
      return unary ? PredUnaryOp(op) : PredBinaryOp(op);
    }
  });
}

}  // namespace

StatusOr<ScalarOp> SelectScalarOp(const phal_kir_node_t& node,
                                  std::span<const ElementType> operand_types) {
  const uint32_t op = EnumValue(node.op);
  const uint32_t arity = KirOperandCount(KirOpClassOf(op));
  if (arity == 0 || operand_types.size() != arity) {
    return InvalidArgument(std::string(KirOpName(op)) + " is not a scalar op");
  }
  PHAL_RETURN_IF_ERROR(CheckTypes(node, op, operand_types));
  if (op == PHAL_KIR_OP_CONVERT) {
    return ConvertOp(operand_types[0], node.type);
  }
  if (op == PHAL_KIR_OP_BITCAST_CONVERT) return &BitcastLoop;
  // The element type the op computes in: select's values, not its predicate.
  const ElementType type = operand_types[op == PHAL_KIR_OP_SELECT ? 1 : 0];
  const ScalarOp scalar_op = TypedOp(node, op, type);
  if (scalar_op == nullptr) {
    return Unimplemented(std::string(KirOpName(op)) +
                         " is not defined for element type " +
                         ElementTypeName(type));
  }
  return scalar_op;
}

}  // namespace phal::kir_interpreter
