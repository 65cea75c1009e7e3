#include "core/reference/elementwise.h"

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/hlo/comparison.h"
#include "sdk/element_semantics/comparison.h"
#include "sdk/element_semantics/complex_functions.h"
#include "sdk/element_semantics/convert.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/integer_functions.h"
#include "sdk/element_semantics/real_functions.h"
#include "sdk/element_semantics/reduce_precision.h"
#include "sdk/element_semantics/special_functions.h"

namespace phal::reference {
namespace {

using namespace ::phal::element_semantics;  // NOLINT(build/namespaces)

// The error for an element type an operation does not accept.
Status UnsupportedElementType(std::string_view operation, ElementType type) {
  return Unimplemented(std::string(operation) +
                       " does not support element type " +
                       ElementTypeName(type));
}

// ---------------------------------------------------------------------------
// Loops. Each reads operands through their traits, applies `fn` to the
// computed values and stores through the result's traits.

template <typename In, typename Out, typename Fn>
Status MapUnary(const Literal& operand, Literal* result, Fn fn) {
  const auto* in = operand.data_as<typename In::Storage>();
  auto* out = result->data_as<typename Out::Storage>();
  const int64_t count = result->ElementCount();
  for (int64_t i = 0; i < count; ++i) {
    out[i] = Out::Store(fn(In::Load(in[i])));
  }
  return OkStatus();
}

template <typename In, typename Out, typename Fn>
Status MapBinary(const Literal& lhs, const Literal& rhs, Literal* result,
                 Fn fn) {
  const auto* a = lhs.data_as<typename In::Storage>();
  const auto* b = rhs.data_as<typename In::Storage>();
  auto* out = result->data_as<typename Out::Storage>();
  const int64_t count = result->ElementCount();
  for (int64_t i = 0; i < count; ++i) {
    out[i] = Out::Store(fn(In::Load(a[i]), In::Load(b[i])));
  }
  return OkStatus();
}

// ---------------------------------------------------------------------------
// Real floating-point ops (values in double).

template <typename T>
Status FloatUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return map(FloatAbs);
    case HloOpcode::kBesselI1e:
      return map(FloatBesselI1e);
    case HloOpcode::kAsin:
      return map(FloatAsin);
    case HloOpcode::kAcos:
      return map(FloatAcos);
    case HloOpcode::kAtan:
      return map(FloatAtan);
    case HloOpcode::kSinh:
      return map(FloatSinh);
    case HloOpcode::kCosh:
      return map(FloatCosh);
    case HloOpcode::kAsinh:
      return map(FloatAsinh);
    case HloOpcode::kAcosh:
      return map(FloatAcosh);
    case HloOpcode::kAtanh:
      return map(FloatAtanh);
    case HloOpcode::kCbrt:
      return map(FloatCbrt);
    case HloOpcode::kCeil:
      return map(FloatCeil);
    case HloOpcode::kCos:
      return map(FloatCos);
    case HloOpcode::kDigamma:
      return map(FloatDigamma);
    case HloOpcode::kErf:
      return map(FloatErf);
    case HloOpcode::kErfc:
      return map(FloatErfc);
    case HloOpcode::kExp:
      return map(FloatExp);
    case HloOpcode::kExpm1:
      return map(FloatExpm1);
    case HloOpcode::kFloor:
      return map(FloatFloor);
    case HloOpcode::kImag:
      return map(FloatImag);
    case HloOpcode::kIsFinite:
      return MapUnary<T, PredTraits>(in, out, FloatIsFinite);
    case HloOpcode::kLgamma:
      return map(FloatLgamma);
    case HloOpcode::kLog:
      return map(FloatLog);
    case HloOpcode::kLog1p:
      return map(FloatLog1p);
    case HloOpcode::kLogistic:
      return map(FloatLogistic);
    case HloOpcode::kNegate:
      return map(FloatNegate);
    case HloOpcode::kReal:
      return map(FloatReal);
    case HloOpcode::kRoundNearestAfz:
      return map(FloatRoundAfz);
    case HloOpcode::kRoundNearestEven:
      return map(FloatRoundEven);
    case HloOpcode::kRsqrt:
      return map(FloatRsqrt);
    case HloOpcode::kSign:
      return map(FloatSign);
    case HloOpcode::kSin:
      return map(FloatSin);
    case HloOpcode::kSqrt:
      return map(FloatSqrt);
    case HloOpcode::kTan:
      return map(FloatTan);
    case HloOpcode::kTanh:
      return map(FloatTanh);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

// next_after steps through the element type's bit patterns, which the
// values in double do not see.
template <typename T>
Status NextAfter(const Literal& from, const Literal& to, Literal* out) {
  using Storage = typename T::Storage;
  using Bits = std::conditional_t<
      sizeof(Storage) == 2, uint16_t,
      std::conditional_t<sizeof(Storage) == 4, uint32_t, uint64_t>>;
  const auto* a = from.data_as<Storage>();
  const auto* b = to.data_as<Storage>();
  auto* result = out->data_as<Storage>();
  for (int64_t i = 0; i < out->ElementCount(); ++i) {
    result[i] = NextAfterBits<Bits>(a[i], T::Load(a[i]), b[i], T::Load(b[i]));
  }
  return OkStatus();
}

template <typename T>
Status FloatBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                   Literal* out) {
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map(FloatAdd);
    case HloOpcode::kSubtract:
      return map(FloatSubtract);
    case HloOpcode::kMultiply:
      return map(FloatMultiply);
    case HloOpcode::kDivide:
      return map(FloatDivide);
    case HloOpcode::kRemainder:
      return map(FloatRemainder);
    case HloOpcode::kMaximum:
      return map(FloatMaximum);
    case HloOpcode::kMinimum:
      return map(FloatMinimum);
    case HloOpcode::kPower:
      return map(FloatPower);
    case HloOpcode::kAtan2:
      return map(FloatAtan2);
    case HloOpcode::kPolygamma:
      return map(FloatPolygamma);
    case HloOpcode::kZeta:
      return map(FloatZeta);
    case HloOpcode::kNextAfter:
      return NextAfter<T>(a, b, out);
    case HloOpcode::kComplex:
      return out->element_type() == PHAL_ELEMENT_TYPE_C64
                 ? MapBinary<T, C64Traits>(a, b, out, MakeComplex)
                 : MapBinary<T, C128Traits>(a, b, out, MakeComplex);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

// ---------------------------------------------------------------------------
// Complex ops (values in std::complex<double>).

template <typename T>
Status ComplexUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  using Part = typename T::Part;
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return MapUnary<T, Part>(in, out, ComplexAbs);
    case HloOpcode::kReal:
      return MapUnary<T, Part>(in, out, ComplexReal);
    case HloOpcode::kImag:
      return MapUnary<T, Part>(in, out, ComplexImag);
    case HloOpcode::kNegate:
      return map(ComplexNegate);
    case HloOpcode::kExp:
      return map(ComplexExp);
    case HloOpcode::kExpm1:
      return map(ComplexExpm1);
    case HloOpcode::kLog:
      return map(ComplexLog);
    case HloOpcode::kLog1p:
      return map(ComplexLog1p);
    case HloOpcode::kLogistic:
      return map(ComplexLogistic);
    case HloOpcode::kSqrt:
      return map(ComplexSqrt);
    case HloOpcode::kRsqrt:
      return map(ComplexRsqrt);
    case HloOpcode::kCbrt:
      return map(ComplexCbrt);
    case HloOpcode::kSin:
      return map(ComplexSin);
    case HloOpcode::kCos:
      return map(ComplexCos);
    case HloOpcode::kTan:
      return map(ComplexTan);
    case HloOpcode::kTanh:
      return map(ComplexTanh);
    case HloOpcode::kAsin:
      return map(ComplexAsin);
    case HloOpcode::kAcos:
      return map(ComplexAcos);
    case HloOpcode::kAtan:
      return map(ComplexAtan);
    case HloOpcode::kSinh:
      return map(ComplexSinh);
    case HloOpcode::kCosh:
      return map(ComplexCosh);
    case HloOpcode::kAsinh:
      return map(ComplexAsinh);
    case HloOpcode::kAcosh:
      return map(ComplexAcosh);
    case HloOpcode::kAtanh:
      return map(ComplexAtanh);
    case HloOpcode::kSign:
      return map(ComplexSign);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

template <typename T>
Status ComplexBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                     Literal* out) {
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map(ComplexAdd);
    case HloOpcode::kSubtract:
      return map(ComplexSubtract);
    case HloOpcode::kMultiply:
      return map(ComplexMultiply);
    case HloOpcode::kDivide:
      return map(ComplexDivide);
    case HloOpcode::kPower:
      return map(ComplexPower);
    case HloOpcode::kAtan2:
      return map(ComplexAtan2);
    case HloOpcode::kMaximum:
      return map(ComplexMaximum);
    case HloOpcode::kMinimum:
      return map(ComplexMinimum);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

// ---------------------------------------------------------------------------
// Integer and pred ops.

template <typename T>
Status IntegerUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  using I = typename T::Value;
  auto map = [&](auto fn) { return MapUnary<T, T>(in, out, fn); };
  switch (opcode) {
    case HloOpcode::kAbs:
      return map(IntegerAbs<I>);
    case HloOpcode::kNegate:
      return map(IntegerNegate<I>);
    case HloOpcode::kNot:
      return map(IntegerNot<I>);
    case HloOpcode::kPopulationCount:
      return map(PopulationCount<I>);
    case HloOpcode::kClz:
      return map(CountLeadingZeros<I>);
    case HloOpcode::kSign:
      return map(IntegerSign<I>);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

template <typename T>
Status IntegerBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                     Literal* out) {
  using I = typename T::Value;
  auto map = [&](auto fn) { return MapBinary<T, T>(a, b, out, fn); };
  switch (opcode) {
    case HloOpcode::kAdd:
      return map(IntegerAdd<I>);
    case HloOpcode::kSubtract:
      return map(IntegerSubtract<I>);
    case HloOpcode::kMultiply:
      return map(IntegerMultiply<I>);
    case HloOpcode::kDivide:
      return map(IntegerDivide<I>);
    case HloOpcode::kRemainder:
      return map(IntegerRemainder<I>);
    case HloOpcode::kMaximum:
      return map(IntegerMaximum<I>);
    case HloOpcode::kMinimum:
      return map(IntegerMinimum<I>);
    case HloOpcode::kPower:
      return map(IntegerPower<I>);
    case HloOpcode::kAnd:
      return map(IntegerAnd<I>);
    case HloOpcode::kOr:
      return map(IntegerOr<I>);
    case HloOpcode::kXor:
      return map(IntegerXor<I>);
    case HloOpcode::kShiftLeft:
      return map(ShiftLeft<I>);
    case HloOpcode::kShiftRightLogical:
      return map(ShiftRightLogical<I>);
    case HloOpcode::kShiftRightArithmetic:
      return map(ShiftRightArithmetic<I>);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode), T::kElementType);
  }
}

Status PredUnary(HloOpcode opcode, const Literal& in, Literal* out) {
  if (opcode != HloOpcode::kNot) {
    return UnsupportedElementType(HloOpcodeName(opcode),
                                  PHAL_ELEMENT_TYPE_PRED);
  }
  return MapUnary<PredTraits, PredTraits>(in, out, PredNot);
}

Status PredBinary(HloOpcode opcode, const Literal& a, const Literal& b,
                  Literal* out) {
  auto map = [&](auto fn) {
    return MapBinary<PredTraits, PredTraits>(a, b, out, fn);
  };
  switch (opcode) {
    case HloOpcode::kAnd:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
      return map(PredAnd);
    case HloOpcode::kOr:
    case HloOpcode::kMaximum:
    case HloOpcode::kAdd:
      return map(PredOr);
    case HloOpcode::kXor:
    case HloOpcode::kSubtract:
      return map(PredXor);
    default:
      return UnsupportedElementType(HloOpcodeName(opcode),
                                    PHAL_ELEMENT_TYPE_PRED);
  }
}

Status EvaluateUnary(const HloInstruction& instruction, const Literal& in,
                     Literal* out) {
  const HloOpcode opcode = instruction.opcode();
  return DispatchElementType(in.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsFloat<T>) return FloatUnary<T>(opcode, in, out);
    if constexpr (kIsComplex<T>) return ComplexUnary<T>(opcode, in, out);
    if constexpr (kIsInteger<T>) return IntegerUnary<T>(opcode, in, out);
    if constexpr (kIsPred<T>) return PredUnary(opcode, in, out);
  });
}

// ---------------------------------------------------------------------------
// Compare, by the keys and relations of comparison.h.

// StableHLO's directions are numbered as the ABI's, which DispatchRelation
// takes.
static_assert(
    static_cast<uint32_t>(ComparisonDirection::kEq) == PHAL_KIR_COMPARE_EQ &&
    static_cast<uint32_t>(ComparisonDirection::kNe) == PHAL_KIR_COMPARE_NE &&
    static_cast<uint32_t>(ComparisonDirection::kLt) == PHAL_KIR_COMPARE_LT &&
    static_cast<uint32_t>(ComparisonDirection::kLe) == PHAL_KIR_COMPARE_LE &&
    static_cast<uint32_t>(ComparisonDirection::kGt) == PHAL_KIR_COMPARE_GT &&
    static_cast<uint32_t>(ComparisonDirection::kGe) == PHAL_KIR_COMPARE_GE);

template <typename T, typename Relation, typename Key>
Status CompareKeys(const Literal& a, const Literal& b, Literal* out, Key key) {
  const auto* x = a.data_as<typename T::Storage>();
  const auto* y = b.data_as<typename T::Storage>();
  auto* result = out->data_as<uint8_t>();
  for (int64_t i = 0; i < out->ElementCount(); ++i) {
    result[i] = Relation{}(key(x[i]), key(y[i])) ? 1 : 0;
  }
  return OkStatus();
}

// Floats compare by totalOrder or as IEEE values (any other type), complex
// values lexicographically whatever the type, integers by their bits read
// as signed or unsigned (or in their own signedness for FLOAT and
// TOTALORDER), pred as false < true.
template <typename T, typename Relation>
Status CompareTyped(ComparisonType type, const Literal& a, const Literal& b,
                    Literal* out) {
  if constexpr (kIsFloat<T>) {
    if (type == ComparisonType::kTotalOrder) {
      return CompareKeys<T, Relation>(a, b, out, TotalOrderKey<T>);
    }
    return CompareKeys<T, Relation>(a, b, out, ValueKey<T>);
  } else if constexpr (kIsComplex<T>) {
    return MapBinary<T, PredTraits>(a, b, out, ComplexHolds<Relation>);
  } else if constexpr (kIsPred<T>) {
    return CompareKeys<T, Relation>(a, b, out, ValueKey<T>);
  } else {
    if (type == ComparisonType::kSigned) {
      return CompareKeys<T, Relation>(a, b, out, SignedKey<T>);
    }
    if (type == ComparisonType::kUnsigned) {
      return CompareKeys<T, Relation>(a, b, out, UnsignedKey<T>);
    }
    return CompareKeys<T, Relation>(a, b, out, ValueKey<T>);
  }
}

Status EvaluateCompare(const HloInstruction& instruction, const Literal& a,
                       const Literal& b, Literal* out) {
  const ComparisonType type = instruction.EffectiveComparisonType();
  return DispatchElementType(a.element_type(), [&](auto traits) {
    return DispatchRelation(
        static_cast<uint32_t>(instruction.comparison_direction()),
        [&](auto relation) {
          return CompareTyped<decltype(traits), decltype(relation)>(type, a, b,
                                                                    out);
        });
  });
}

Status EvaluateBinary(const HloInstruction& instruction, const Literal& a,
                      const Literal& b, Literal* out) {
  const HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::kCompare) {
    return EvaluateCompare(instruction, a, b, out);
  }
  return DispatchElementType(a.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsFloat<T>) return FloatBinary<T>(opcode, a, b, out);
    if constexpr (kIsComplex<T>) return ComplexBinary<T>(opcode, a, b, out);
    if constexpr (kIsInteger<T>) return IntegerBinary<T>(opcode, a, b, out);
    if constexpr (kIsPred<T>) return PredBinary(opcode, a, b, out);
  });
}

// ---------------------------------------------------------------------------
// Select and clamp, whose predicate or bounds may be scalars.

Status EvaluateSelect(const Literal& predicate, const Literal& on_true,
                      const Literal& on_false, Literal* out) {
  const std::size_t size = ElementTypeByteSize(out->element_type());
  const int64_t count = out->ElementCount();
  const bool scalar_predicate = predicate.shape().rank() == 0;
  const uint8_t* choice = predicate.data();
  for (int64_t i = 0; i < count; ++i) {
    const bool take_true = choice[scalar_predicate ? 0 : i] != 0;
    const uint8_t* source = (take_true ? on_true : on_false).data();
    std::memcpy(out->data() + i * static_cast<int64_t>(size),
                source + i * static_cast<int64_t>(size), size);
  }
  return OkStatus();
}

Status EvaluateClamp(const Literal& low, const Literal& operand,
                     const Literal& high, Literal* out) {
  return DispatchElementType(out->element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (kIsComplex<T>) {
      return UnsupportedElementType("clamp", T::kElementType);
    } else {
      const auto* lo = low.data_as<typename T::Storage>();
      const auto* x = operand.data_as<typename T::Storage>();
      const auto* hi = high.data_as<typename T::Storage>();
      const int64_t lo_step = low.shape().rank() == 0 ? 0 : 1;
      const int64_t hi_step = high.shape().rank() == 0 ? 0 : 1;
      auto* result = out->data_as<typename T::Storage>();
      for (int64_t i = 0; i < out->ElementCount(); ++i) {
        result[i] = T::Store(ClampValue<T>(
            T::Load(lo[i * lo_step]), T::Load(x[i]), T::Load(hi[i * hi_step])));
      }
      return OkStatus();
    }
  });
}

// ---------------------------------------------------------------------------
// Convert and reduce-precision.

Status EvaluateConvert(const Literal& in, Literal* out) {
  return DispatchElementType(in.element_type(), [&](auto from) {
    return DispatchElementType(out->element_type(), [&](auto to) {
      using From = decltype(from);
      using To = decltype(to);
      return MapUnary<From, To>(in, out, ConvertValue<From, To>);
    });
  });
}

Status EvaluateReducePrecision(const HloInstruction& instruction,
                               const Literal& in, Literal* out) {
  const int exponent_bits = static_cast<int>(instruction.exponent_bits());
  const int mantissa_bits = static_cast<int>(instruction.mantissa_bits());
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return InvalidArgument(
        "reduce-precision needs exponent_bits >= 1 and "
        "mantissa_bits >= 0");
  }
  return DispatchElementType(in.element_type(), [&](auto traits) -> Status {
    using T = decltype(traits);
    if constexpr (!kIsFloat<T>) {
      return UnsupportedElementType("reduce-precision", T::kElementType);
    } else {
      const auto* x = in.data_as<typename T::Storage>();
      auto* result = out->data_as<typename T::Storage>();
      for (int64_t i = 0; i < out->ElementCount(); ++i) {
        result[i] = ReducePrecision<T>(x[i], exponent_bits, mantissa_bits);
      }
      return OkStatus();
    }
  });
}

// Bitcast-convert reinterprets the row-major bytes: with equal widths
// element by element, otherwise the narrower side has one more (minor)
// dimension holding the pieces of a wider element in memory order. pred
// counts as one byte, as the verifier's shape rules have it. Copy is the
// same byte copy between equal types.
Status EvaluateBitcastConvert(const Literal& in, Literal* out) {
  if (in.byte_size() != out->byte_size()) {
    return InvalidArgument("bitcast-convert from " + in.shape().ToString() +
                           " to " + out->shape().ToString() +
                           " changes the size in bytes");
  }
  if (in.byte_size() > 0) std::memcpy(out->data(), in.data(), in.byte_size());
  return OkStatus();
}

// The element type `opcode` produces from operands of type `operand`.
ElementType ResultTypeOf(HloOpcode opcode, ElementType operand) {
  switch (opcode) {
    case HloOpcode::kCompare:
    case HloOpcode::kIsFinite:
      return PHAL_ELEMENT_TYPE_PRED;
    case HloOpcode::kAbs:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
      return ComplexComponentType(operand);
    case HloOpcode::kComplex:
      return operand == PHAL_ELEMENT_TYPE_F64 ? PHAL_ELEMENT_TYPE_C128
                                              : PHAL_ELEMENT_TYPE_C64;
    default:
      return operand;
  }
}

// Checks what the typed loops rely on: operands of the result's element
// count (or scalars where they broadcast) and the element types the op
// relates. Malformed instructions get an error instead of a wild read.
Status CheckOperands(const HloInstruction& instruction,
                     std::span<const Literal* const> operands,
                     const Literal& result) {
  const HloOpcode opcode = instruction.opcode();
  const bool converts =
      opcode == HloOpcode::kConvert || opcode == HloOpcode::kBitcastConvert;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Literal& operand = *operands[i];
    const bool may_broadcast = (opcode == HloOpcode::kSelect && i == 0) ||
                               (opcode == HloOpcode::kClamp && i != 1);
    if (operand.IsTuple() ||
        (!converts && operand.ElementCount() != result.ElementCount() &&
         !(may_broadcast && operand.shape().rank() == 0))) {
      return InvalidArgument(
          "operand " + std::to_string(i) + " " + operand.shape().ToString() +
          " does not fit the result " + result.shape().ToString());
    }
  }
  if (converts) return OkStatus();
  const bool is_select = opcode == HloOpcode::kSelect;
  const Literal& typed = *operands[is_select ? 1 : 0];
  for (std::size_t i = is_select ? 1 : 0; i < operands.size(); ++i) {
    if (operands[i]->element_type() != typed.element_type()) {
      return InvalidArgument("operands of different element types " +
                             operands[i]->shape().ToString() + " and " +
                             typed.shape().ToString());
    }
  }
  if (is_select && operands[0]->element_type() != PHAL_ELEMENT_TYPE_PRED) {
    return InvalidArgument("the select predicate must be pred");
  }
  const ElementType expected = ResultTypeOf(opcode, typed.element_type());
  if (result.element_type() != expected) {
    return InvalidArgument(std::string("the result element type must be ") +
                           ElementTypeName(expected) + ", not " +
                           ElementTypeName(result.element_type()));
  }
  return OkStatus();
}

}  // namespace

Status EvaluateElementwise(const HloInstruction& instruction,
                           std::span<const Literal* const> operands,
                           Literal* result) {
  const HloOpcode opcode = instruction.opcode();
  const std::size_t expected =
      IsElementwiseUnary(opcode)                                      ? 1
      : IsElementwiseBinary(opcode)                                   ? 2
      : (opcode == HloOpcode::kSelect || opcode == HloOpcode::kClamp) ? 3
                                                                      : 1;
  if (operands.size() != expected) {
    return InvalidArgument(instruction.name() + ": " +
                           std::string(HloOpcodeName(opcode)) + " takes " +
                           std::to_string(expected) + " operands, got " +
                           std::to_string(operands.size()));
  }
  PHAL_RETURN_IF_ERROR(CheckOperands(instruction, operands, *result));
  if (opcode == HloOpcode::kCopy) {
    return EvaluateBitcastConvert(*operands[0], result);
  }
  if (IsElementwiseUnary(opcode)) {
    return EvaluateUnary(instruction, *operands[0], result);
  }
  if (IsElementwiseBinary(opcode)) {
    return EvaluateBinary(instruction, *operands[0], *operands[1], result);
  }
  switch (opcode) {
    case HloOpcode::kSelect:
      return EvaluateSelect(*operands[0], *operands[1], *operands[2], result);
    case HloOpcode::kClamp:
      return EvaluateClamp(*operands[0], *operands[1], *operands[2], result);
    case HloOpcode::kConvert:
      return EvaluateConvert(*operands[0], result);
    case HloOpcode::kBitcastConvert:
      return EvaluateBitcastConvert(*operands[0], result);
    case HloOpcode::kReducePrecision:
      return EvaluateReducePrecision(instruction, *operands[0], result);
    default:
      return InvalidArgument(instruction.name() + ": " +
                             std::string(HloOpcodeName(opcode)) +
                             " is not an elementwise op");
  }
}

}  // namespace phal::reference
