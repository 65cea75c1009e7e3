// How StableHLO semantics compute with each element type: the C++ type an
// element is stored as, the type arithmetic is done in, and the conversions
// between the two. Real floating types compute in double and round once
// when stored (for +, -, *, /, sqrt that is the correctly rounded result of
// the narrow type, since 53 >= 2 * 24 + 2), complex types in
// std::complex<double>, integers in their own type and pred in bool.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_ELEMENT_TRAITS_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_ELEMENT_TRAITS_H_

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "polyhal/types.h"
#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/base/status.h"

namespace phal::element_semantics {

using Complex = std::complex<double>;

// Storage and computation of integer types are the same type.
template <ElementType kType, typename T>
struct IntegerTraits {
  static constexpr ElementType kElementType = kType;
  using Storage = T;
  using Value = T;
  static Value Load(Storage s) { return s; }
  static Storage Store(Value v) { return v; }
};

// pred is stored in one byte; any non-zero byte reads as true.
struct PredTraits {
  static constexpr ElementType kElementType = PHAL_ELEMENT_TYPE_PRED;
  using Storage = uint8_t;
  using Value = bool;
  static Value Load(Storage s) { return s != 0; }
  static Storage Store(Value v) { return v ? 1 : 0; }
};

// Real floating types also name their mantissa width and the signed integer
// of their width (Bits), for operations on the representation.
struct HalfTraits {
  static constexpr ElementType kElementType = PHAL_ELEMENT_TYPE_F16;
  static constexpr int kMantissaBits = 10;
  using Storage = uint16_t;
  using Bits = int16_t;
  using Value = double;
  static Value Load(Storage s) { return HalfToFloat(s); }
  static Storage Store(Value v) { return DoubleToHalf(v); }
};

struct BFloat16Traits {
  static constexpr ElementType kElementType = PHAL_ELEMENT_TYPE_BF16;
  static constexpr int kMantissaBits = 7;
  using Storage = uint16_t;
  using Bits = int16_t;
  using Value = double;
  static Value Load(Storage s) { return BFloat16ToFloat(s); }
  static Storage Store(Value v) { return DoubleToBFloat16(v); }
};

struct Float32Traits {
  static constexpr ElementType kElementType = PHAL_ELEMENT_TYPE_F32;
  static constexpr int kMantissaBits = 23;
  using Storage = float;
  using Bits = int32_t;
  using Value = double;
  static Value Load(Storage s) { return s; }
  static Storage Store(Value v) { return static_cast<float>(v); }
};

struct Float64Traits {
  static constexpr ElementType kElementType = PHAL_ELEMENT_TYPE_F64;
  static constexpr int kMantissaBits = 52;
  using Storage = double;
  using Bits = int64_t;
  using Value = double;
  static Value Load(Storage s) { return s; }
  static Storage Store(Value v) { return v; }
};

template <ElementType kType, typename Component, typename PartTraits>
struct ComplexTraits {
  static constexpr ElementType kElementType = kType;
  using Storage = std::complex<Component>;
  using Value = Complex;
  // The traits of the real and imaginary parts (f32 for c64).
  using Part = PartTraits;
  static Value Load(Storage s) { return {s.real(), s.imag()}; }
  static Storage Store(Value v) {
    return {static_cast<Component>(v.real()), static_cast<Component>(v.imag())};
  }
};

using S8Traits = IntegerTraits<PHAL_ELEMENT_TYPE_S8, int8_t>;
using S16Traits = IntegerTraits<PHAL_ELEMENT_TYPE_S16, int16_t>;
using S32Traits = IntegerTraits<PHAL_ELEMENT_TYPE_S32, int32_t>;
using S64Traits = IntegerTraits<PHAL_ELEMENT_TYPE_S64, int64_t>;
using U8Traits = IntegerTraits<PHAL_ELEMENT_TYPE_U8, uint8_t>;
using U16Traits = IntegerTraits<PHAL_ELEMENT_TYPE_U16, uint16_t>;
using U32Traits = IntegerTraits<PHAL_ELEMENT_TYPE_U32, uint32_t>;
using U64Traits = IntegerTraits<PHAL_ELEMENT_TYPE_U64, uint64_t>;
using C64Traits = ComplexTraits<PHAL_ELEMENT_TYPE_C64, float, Float32Traits>;
using C128Traits = ComplexTraits<PHAL_ELEMENT_TYPE_C128, double, Float64Traits>;

template <typename Traits>
inline constexpr bool kIsPred = std::is_same_v<typename Traits::Value, bool>;
template <typename Traits>
inline constexpr bool kIsComplex =
    std::is_same_v<typename Traits::Value, Complex>;
template <typename Traits>
inline constexpr bool kIsFloat = std::is_same_v<typename Traits::Value, double>;
template <typename Traits>
inline constexpr bool kIsInteger =
    !kIsPred<Traits> && !kIsComplex<Traits> && !kIsFloat<Traits>;

// Calls fn(Traits{}) with the traits of `type` and returns what it returns.
// For a value outside the enum that is INVALID_ARGUMENT when fn returns a
// Status, and a value-initialised result otherwise.
template <typename Fn>
auto DispatchElementType(ElementType type, Fn&& fn) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return fn(PredTraits{});
    case PHAL_ELEMENT_TYPE_S8:
      return fn(S8Traits{});
    case PHAL_ELEMENT_TYPE_S16:
      return fn(S16Traits{});
    case PHAL_ELEMENT_TYPE_S32:
      return fn(S32Traits{});
    case PHAL_ELEMENT_TYPE_S64:
      return fn(S64Traits{});
    case PHAL_ELEMENT_TYPE_U8:
      return fn(U8Traits{});
    case PHAL_ELEMENT_TYPE_U16:
      return fn(U16Traits{});
    case PHAL_ELEMENT_TYPE_U32:
      return fn(U32Traits{});
    case PHAL_ELEMENT_TYPE_U64:
      return fn(U64Traits{});
    case PHAL_ELEMENT_TYPE_F16:
      return fn(HalfTraits{});
    case PHAL_ELEMENT_TYPE_BF16:
      return fn(BFloat16Traits{});
    case PHAL_ELEMENT_TYPE_F32:
      return fn(Float32Traits{});
    case PHAL_ELEMENT_TYPE_F64:
      return fn(Float64Traits{});
    case PHAL_ELEMENT_TYPE_C64:
      return fn(C64Traits{});
    case PHAL_ELEMENT_TYPE_C128:
      return fn(C128Traits{});
    default:
      break;
  }
  using Result = decltype(fn(PredTraits{}));
  if constexpr (std::is_same_v<Result, Status>) {
    return InvalidArgument("invalid element type " +
                           std::to_string(static_cast<int>(type)));
  } else {
    return Result{};
  }
}

// One element of an array in memory, which need not be aligned for its
// type.
template <typename Traits>
typename Traits::Value LoadUnaligned(const uint8_t* bytes) {
  typename Traits::Storage storage;
  std::memcpy(&storage, bytes, sizeof(storage));
  return Traits::Load(storage);
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_ELEMENT_TRAITS_H_
