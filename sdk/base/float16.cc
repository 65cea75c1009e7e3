#include "sdk/base/float16.h"

#include <bit>

namespace phal {
namespace {

// Layout of a binary floating-point format with 16 bits of storage.
struct Narrow16Format {
  int exponent_bits;
  int mantissa_bits;
};

constexpr Narrow16Format kHalfFormat{5, 10};
constexpr Narrow16Format kBFloat16Format{8, 7};

constexpr int kDoubleMantissaBits = 52;
constexpr int kDoubleBias = 1023;

// Rounds `value` to the narrow format once, to nearest even. Every float is a
// double exactly, so the float entry points share this routine.
uint16_t RoundDoubleToNarrow(double value, Narrow16Format format) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 63) << 15);
  const int biased_exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);

  const int m = format.mantissa_bits;
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const uint16_t max_exponent_field =
      static_cast<uint16_t>((1 << format.exponent_bits) - 1);
  const uint16_t infinity = static_cast<uint16_t>(max_exponent_field << m);

  if (biased_exponent == 0x7FF) {
    if (mantissa == 0) return sign | infinity;
    const uint16_t quiet_bit = static_cast<uint16_t>(1 << (m - 1));
    const uint16_t payload =
        static_cast<uint16_t>(mantissa >> (kDoubleMantissaBits - m));
    return sign | infinity | quiet_bit | payload;
  }
  // Double subnormals are far below half the smallest subnormal of either
  // narrow format.
  if (biased_exponent == 0) return sign;

  const int exponent = biased_exponent - kDoubleBias;
  if (exponent + bias >= max_exponent_field) return sign | infinity;

  const uint64_t significand = (uint64_t{1} << 52) | mantissa;
  const int min_normal_exponent = 1 - bias;
  const bool narrow_is_normal = exponent >= min_normal_exponent;
  int shift = kDoubleMantissaBits - m;
  if (!narrow_is_normal) shift += min_normal_exponent - exponent;
  // The significand is below 2^53, so from a shift of 54 on it is less than
  // half a unit in the last place and rounds to zero.
  if (shift > 54) return sign;

  uint64_t rounded = significand >> shift;
  const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (rounded & 1) != 0)) {
    ++rounded;
  }
  // For a normal result the implicit leading bit of `rounded` adds one to the
  // exponent field, hence `exponent + bias - 1`; a carry out of the mantissa
  // moves into the exponent field the same way (possibly up to infinity).
  uint64_t result = rounded;
  if (narrow_is_normal) {
    result += static_cast<uint64_t>(exponent + bias - 1) << m;
  }
  if (result >= infinity) return sign | infinity;
  return sign | static_cast<uint16_t>(result);
}

}  // namespace

uint16_t DoubleToHalf(double value) {
  return RoundDoubleToNarrow(value, kHalfFormat);
}

uint16_t DoubleToBFloat16(double value) {
  return RoundDoubleToNarrow(value, kBFloat16Format);
}

uint16_t FloatToHalf(float value) {
  return RoundDoubleToNarrow(static_cast<double>(value), kHalfFormat);
}

uint16_t FloatToBFloat16(float value) {
  return RoundDoubleToNarrow(static_cast<double>(value), kBFloat16Format);
}

float BFloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0x1F) {
    return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  }
  if (exponent != 0) {
    return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) |
                                (mantissa << 13));
  }
  if (mantissa == 0) return std::bit_cast<float>(sign);
  // A subnormal half is normal as a float: shift its leading one into the
  // implicit position and lower the exponent accordingly.
  int float_exponent = 127 - 14;
  while ((mantissa & 0x400) == 0) {
    mantissa <<= 1;
    --float_exponent;
  }
  mantissa &= 0x3FF;
  return std::bit_cast<float>(
      sign | (static_cast<uint32_t>(float_exponent) << 23) | (mantissa << 13));
}

}  // namespace phal
