// The orders of compare and clamp as StableHLO defines them. Each ordering
// of compare maps a stored element to a key whose built-in comparison is
// that ordering: the value for IEEE comparison of floats (where every
// relation with a NaN is false except !=, as C++ has it), for integers in
// their own signedness and for pred (false < true); the representation
// for totalOrder; the bits read as signed or unsigned for integers compared
// SIGNED or UNSIGNED. Complex values compare lexicographically.
//
// The relation is a function object (std::equal_to<>, std::less<>, ...);
// DispatchRelation picks it for a direction of the ABI
// (phal_kir_comparison_direction_t, whose order EQ, NE, LT, LE, GT, GE
// StableHLO's directions share).
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_COMPARISON_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_COMPARISON_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "polyhal/kernel.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {

template <typename T>
typename T::Value ValueKey(typename T::Storage s) {
  return T::Load(s);
}

// The bits as a signed integer, with the magnitude bits of negative values
// flipped so that -NaN < -inf < ... < -0 < +0 < ... < inf < NaN.
template <typename T>
typename T::Bits TotalOrderKey(typename T::Storage s) {
  using Bits = typename T::Bits;
  Bits bits;
  std::memcpy(&bits, &s, sizeof(bits));
  return bits < 0 ? static_cast<Bits>(bits ^ std::numeric_limits<Bits>::max())
                  : bits;
}

template <typename T>
std::make_signed_t<typename T::Storage> SignedKey(typename T::Storage s) {
  return static_cast<std::make_signed_t<typename T::Storage>>(s);
}

template <typename T>
std::make_unsigned_t<typename T::Storage> UnsignedKey(typename T::Storage s) {
  return static_cast<std::make_unsigned_t<typename T::Storage>>(s);
}

// Lexicographic on (real, imaginary); NaN parts compare as unordered.
template <typename Relation>
bool ComplexHolds(Complex x, Complex y) {
  if (x.real() != y.real() || std::isnan(x.real()) || std::isnan(y.real())) {
    return Relation{}(x.real(), y.real());
  }
  return Relation{}(x.imag(), y.imag());
}

// Calls fn(Relation{}) for `direction` and returns what it returns; a
// value-initialised result for a value that is no direction.
template <typename Fn>
auto DispatchRelation(uint32_t direction, Fn&& fn) {
  switch (direction) {
    case PHAL_KIR_COMPARE_EQ:
      return fn(std::equal_to<>{});
    case PHAL_KIR_COMPARE_NE:
      return fn(std::not_equal_to<>{});
    case PHAL_KIR_COMPARE_LT:
      return fn(std::less<>{});
    case PHAL_KIR_COMPARE_LE:
      return fn(std::less_equal<>{});
    case PHAL_KIR_COMPARE_GT:
      return fn(std::greater<>{});
    case PHAL_KIR_COMPARE_GE:
      return fn(std::greater_equal<>{});
    default:
      return decltype(fn(std::equal_to<>{})){};
  }
}

// min(max(x, low), high), with maximum and minimum's NaN and signed-zero
// rules for floats; not defined for complex types.
template <typename T>
typename T::Value ClampValue(typename T::Value low, typename T::Value x,
                             typename T::Value high) {
  if constexpr (kIsFloat<T>) {
    return FloatMinimum(FloatMaximum(x, low), high);
  } else {
    const auto raised = x < low ? low : x;
    return high < raised ? high : raised;
  }
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_COMPARISON_H_
