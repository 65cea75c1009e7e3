#include "core/frontend/emulated_types.h"

#include <cmath>
#include <limits>

namespace phal {
namespace {

using Specials = MinifloatFormat::Specials;

constexpr MinifloatFormat kFormats[] = {
    {"f8E5M2", 5, 2, 15, Specials::kIeee},
    {"f8E4M3", 4, 3, 7, Specials::kIeee},
    {"f8E3M4", 3, 4, 3, Specials::kIeee},
    {"f8E4M3FN", 4, 3, 7, Specials::kFiniteAllOnes},
    {"f8E4M3FNUZ", 4, 3, 8, Specials::kNegativeZero},
    {"f8E5M2FNUZ", 5, 2, 16, Specials::kNegativeZero},
    {"f8E4M3B11FNUZ", 4, 3, 11, Specials::kNegativeZero},
    {"f8E8M0FNU", 8, 0, 127, Specials::kExponentOnly},
    {"f6E2M3FN", 2, 3, 1, Specials::kNone},
    {"f6E3M2FN", 3, 2, 3, Specials::kNone},
    {"f4E2M1FN", 2, 1, 1, Specials::kNone},
};

int BitCount(const MinifloatFormat& format) {
  const int sign = format.specials == Specials::kExponentOnly ? 0 : 1;
  return sign + format.exponent_bits + format.mantissa_bits;
}

}  // namespace

const MinifloatFormat* FindMinifloatFormat(std::string_view name) {
  for (const MinifloatFormat& format : kFormats) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

double DecodeMinifloat(const MinifloatFormat& format, uint32_t bits) {
  const int total = BitCount(format);
  bits &= (1u << total) - 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const uint32_t exponent_mask = (1u << format.exponent_bits) - 1;
  const uint32_t mantissa_mask = (1u << format.mantissa_bits) - 1;
  if (format.specials == Specials::kExponentOnly) {
    return bits == 0xFF ? nan
                        : std::ldexp(1.0, static_cast<int>(bits) - format.bias);
  }
  const bool negative = (bits >> (total - 1)) & 1u;
  const uint32_t exponent = (bits >> format.mantissa_bits) & exponent_mask;
  const uint32_t mantissa = bits & mantissa_mask;
  switch (format.specials) {
    case Specials::kIeee:
      if (exponent == exponent_mask) {
        if (mantissa != 0) return nan;
        return negative ? -HUGE_VAL : HUGE_VAL;
      }
      break;
    case Specials::kFiniteAllOnes:
      if (exponent == exponent_mask && mantissa == mantissa_mask) return nan;
      break;
    case Specials::kNegativeZero:
      if (negative && exponent == 0 && mantissa == 0) return nan;
      break;
    default:
      break;
  }
  const double fraction = static_cast<double>(mantissa) /
                          static_cast<double>(1u << format.mantissa_bits);
  const double magnitude =
      exponent == 0 ? std::ldexp(fraction, 1 - format.bias)
                    : std::ldexp(1.0 + fraction,
                                 static_cast<int>(exponent) - format.bias);
  return negative ? -magnitude : magnitude;
}

double MinifloatMax(const MinifloatFormat& format) {
  double largest = 0;
  for (uint32_t bits = 0; bits < (1u << BitCount(format)); ++bits) {
    const double value = DecodeMinifloat(format, bits);
    if (std::isfinite(value) && value > largest) largest = value;
  }
  return largest;
}

double RoundToMinifloat(const MinifloatFormat& format, double value) {
  if (std::isnan(value)) return value;
  const double largest = MinifloatMax(format);
  if (std::fabs(value) > largest) {
    // Beyond the largest value by more than half an ulp: overflow.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (format.specials) {
      case Specials::kIeee:
        return std::copysign(HUGE_VAL, value);
      case Specials::kNone:
        return std::copysign(largest, value);
      default:
        return nan;
    }
  }
  // Every format has at most 256 values: the nearest one by search, ties
  // to the pattern with an even mantissa.
  double best = 0;
  double best_distance = HUGE_VAL;
  uint32_t best_bits = 0;
  for (uint32_t bits = 0; bits < (1u << BitCount(format)); ++bits) {
    const double candidate = DecodeMinifloat(format, bits);
    if (!std::isfinite(candidate)) continue;
    const double distance = std::fabs(candidate - value);
    const bool tie_to_even =
        distance == best_distance && (bits & 1u) == 0 && (best_bits & 1u) != 0;
    if (distance < best_distance || tie_to_even) {
      best = candidate;
      best_distance = distance;
      best_bits = bits;
    }
  }
  // Keep the sign of zero where the format has -0.
  if (best == 0 && format.specials != Specials::kNegativeZero &&
      format.specials != Specials::kExponentOnly) {
    return std::copysign(0.0, value);
  }
  return best;
}

bool FindEmulatedType(std::string_view name, ElementType* storage,
                      EmulatedType* type) {
  static constexpr struct {
    std::string_view name;
    int bits;
    ElementType storage;
  } kNarrowIntegers[] = {
      {"i2", 2, PHAL_ELEMENT_TYPE_S8},  {"si2", 2, PHAL_ELEMENT_TYPE_S8},
      {"i4", 4, PHAL_ELEMENT_TYPE_S8},  {"si4", 4, PHAL_ELEMENT_TYPE_S8},
      {"ui2", 2, PHAL_ELEMENT_TYPE_U8}, {"ui4", 4, PHAL_ELEMENT_TYPE_U8},
  };
  for (const auto& narrow : kNarrowIntegers) {
    if (narrow.name == name) {
      *storage = narrow.storage;
      *type = EmulatedType{narrow.bits, nullptr, nullptr};
      return true;
    }
  }
  if (const MinifloatFormat* format = FindMinifloatFormat(name)) {
    *storage = PHAL_ELEMENT_TYPE_F32;
    *type = EmulatedType{0, format, nullptr};
    return true;
  }
  return false;
}

}  // namespace phal
