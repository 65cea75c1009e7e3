// Element type conversion as StableHLO convert defines it: between any two
// element types, rounding once to the destination type.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_CONVERT_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_CONVERT_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sdk/element_semantics/element_traits.h"

namespace phal::element_semantics {

// An integer as a double rounded to odd at 53 bits: converting that double
// to a narrower float rounds exactly as converting the integer directly
// would (round-to-odd at p + 2 or more bits cannot cause double rounding).
template <typename I>
double IntegerToDoubleRoundedToOdd(I value) {
  const bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value)
                                : static_cast<uint64_t>(value);
  const int excess = 64 - std::countl_zero(magnitude) - 53;
  if (excess <= 0) {
    const double exact = static_cast<double>(magnitude);
    return negative ? -exact : exact;
  }
  const bool sticky = (magnitude & ((uint64_t{1} << excess) - 1)) != 0;
  magnitude = (magnitude >> excess) | (sticky ? 1 : 0);
  const double rounded = std::ldexp(static_cast<double>(magnitude), excess);
  return negative ? -rounded : rounded;
}

// The value of integer `x` in To's computation type, rounded once to To.
template <typename To, typename I>
double IntegerToFloat(I x) {
  if constexpr (std::is_same_v<To, Float64Traits> ||
                std::is_same_v<To, C128Traits>) {
    return static_cast<double>(x);
  } else if constexpr (std::is_same_v<To, Float32Traits> ||
                       std::is_same_v<To, C64Traits>) {
    return static_cast<float>(x);
  } else {
    return IntegerToDoubleRoundedToOdd(x);
  }
}

// Float to integer as XLA converts: truncation toward zero, saturating at
// the type's bounds, NaN to 0.
template <typename I>
I FloatToInteger(double x) {
  if (std::isnan(x)) return 0;
  constexpr I kMin = std::numeric_limits<I>::min();
  constexpr I kMax = std::numeric_limits<I>::max();
  // Both bounds are powers of two (or zero) as doubles, hence exact.
  if (x <= static_cast<double>(kMin)) return kMin;
  if (x >= static_cast<double>(kMax)) return kMax;
  return static_cast<I>(x);
}

// x of element type From as a value of element type To: pred is x != 0,
// complex to real keeps the real part, float to integer as FloatToInteger,
// integer to float rounds once.
template <typename From, typename To>
typename To::Value ConvertValue(typename From::Value x) {
  using V = typename To::Value;
  if constexpr (kIsPred<To>) {
    if constexpr (kIsComplex<From>) {
      return x != Complex(0, 0);
    } else {
      return x != 0;
    }
  } else if constexpr (kIsPred<From>) {
    return static_cast<V>(x ? 1 : 0);
  } else if constexpr (kIsComplex<From>) {
    if constexpr (kIsComplex<To>) {
      return x;
    } else {
      return ConvertValue<typename From::Part, To>(x.real());
    }
  } else if constexpr (kIsFloat<From>) {
    if constexpr (kIsInteger<To>) {
      return FloatToInteger<V>(x);
    } else {
      return V(x);
    }
  } else if constexpr (kIsInteger<To>) {
    return static_cast<V>(x);
  } else {
    return V(IntegerToFloat<To>(x));
  }
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_CONVERT_H_
