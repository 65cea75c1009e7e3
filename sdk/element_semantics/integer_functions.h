// The elementwise ops on integers and on pred, one function per op, as
// StableHLO defines them. Integer arithmetic wraps modulo 2^bits: it is
// done in uint64_t and truncated, which avoids signed overflow and the
// promotion of narrow unsigned operands to int. Where C++ is undefined the
// results are XLA's: x / 0 = -1 (all ones), INT_MIN / -1 = INT_MIN,
// x % 0 = x, INT_MIN % -1 = 0, and shifts by the width or more shift
// everything out.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_INTEGER_FUNCTIONS_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_INTEGER_FUNCTIONS_H_

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace phal::element_semantics {

// `value` modulo 2^bits of I.
template <typename I>
I Wrap(uint64_t value) {
  return static_cast<I>(value);
}

// `value` modulo 2^64 (signed values sign-extended).
template <typename I>
uint64_t Widen(I value) {
  return static_cast<uint64_t>(value);
}

// The shift amount is read as unsigned.
template <typename I>
bool ShiftOutOfRange(I amount) {
  return static_cast<std::make_unsigned_t<I>>(amount) >=
         static_cast<unsigned>(sizeof(I) * 8);
}

template <typename I>
I IntegerAdd(I x, I y) {
  return Wrap<I>(Widen(x) + Widen(y));
}

template <typename I>
I IntegerSubtract(I x, I y) {
  return Wrap<I>(Widen(x) - Widen(y));
}

template <typename I>
I IntegerMultiply(I x, I y) {
  return Wrap<I>(Widen(x) * Widen(y));
}

template <typename I>
I IntegerDivide(I x, I y) {
  if (y == 0) return static_cast<I>(-1);
  if constexpr (std::is_signed_v<I>) {
    if (x == std::numeric_limits<I>::min() && y == -1) return x;
  }
  return static_cast<I>(x / y);
}

// The sign follows x.
template <typename I>
I IntegerRemainder(I x, I y) {
  if (y == 0) return x;
  if constexpr (std::is_signed_v<I>) {
    if (x == std::numeric_limits<I>::min() && y == -1) return 0;
  }
  return static_cast<I>(x % y);
}

// A negative exponent gives 0 unless |x| == 1, when it is x^|y|;
// square-and-multiply with wraparound otherwise.
template <typename I>
I IntegerPower(I x, I y) {
  uint64_t exponent = Widen(y);
  if constexpr (std::is_signed_v<I>) {
    if (y < 0) {
      if (x != 1 && x != -1) return 0;
      // |y| in unsigned arithmetic: negating the most negative value of
      // I (or of int64_t) overflows a signed type.
      exponent = uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(y));
    }
  }
  uint64_t base = Widen(x), result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return Wrap<I>(result);
}

template <typename I>
I IntegerMaximum(I x, I y) {
  return x > y ? x : y;
}

template <typename I>
I IntegerMinimum(I x, I y) {
  return x < y ? x : y;
}

template <typename I>
I IntegerAnd(I x, I y) {
  return static_cast<I>(x & y);
}

template <typename I>
I IntegerOr(I x, I y) {
  return static_cast<I>(x | y);
}

template <typename I>
I IntegerXor(I x, I y) {
  return static_cast<I>(x ^ y);
}

template <typename I>
I ShiftLeft(I x, I amount) {
  if (ShiftOutOfRange(amount)) return 0;
  return Wrap<I>(Widen(x) << static_cast<int>(amount));
}

template <typename I>
I ShiftRightLogical(I x, I amount) {
  using U = std::make_unsigned_t<I>;
  if (ShiftOutOfRange(amount)) return 0;
  return static_cast<I>(static_cast<U>(x) >> static_cast<int>(amount));
}

// Sign fill, also for amounts of the width or more.
template <typename I>
I ShiftRightArithmetic(I x, I amount) {
  using S = std::make_signed_t<I>;
  const S value = static_cast<S>(x);
  if (ShiftOutOfRange(amount)) {
    return static_cast<I>(value < 0 ? -1 : 0);
  }
  return static_cast<I>(value >> static_cast<int>(amount));
}

template <typename I>
I IntegerSign(I x) {
  if constexpr (std::is_signed_v<I>) {
    if (x < 0) return -1;
  }
  return x == 0 ? 0 : 1;
}

// |INT_MIN| wraps to INT_MIN.
template <typename I>
I IntegerAbs(I x) {
  if constexpr (std::is_signed_v<I>) {
    if (x < 0) return Wrap<I>(0 - Widen(x));
  }
  return x;
}

template <typename I>
I IntegerNegate(I x) {
  return Wrap<I>(0 - Widen(x));
}

template <typename I>
I IntegerNot(I x) {
  return static_cast<I>(~x);
}

template <typename I>
I PopulationCount(I x) {
  return static_cast<I>(std::popcount(static_cast<std::make_unsigned_t<I>>(x)));
}

template <typename I>
I CountLeadingZeros(I x) {
  return static_cast<I>(
      std::countl_zero(static_cast<std::make_unsigned_t<I>>(x)));
}

// pred is the one-bit unsigned integer: maximum, add and or are or;
// minimum, multiply and and are and; subtract and xor are xor.
inline bool PredNot(bool x) { return !x; }
inline bool PredAnd(bool x, bool y) { return x && y; }
inline bool PredOr(bool x, bool y) { return x || y; }
inline bool PredXor(bool x, bool y) { return x != y; }

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_INTEGER_FUNCTIONS_H_
