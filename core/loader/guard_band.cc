#include "core/loader/guard_band.h"

#include <array>
#include <cstdio>

namespace phal {
namespace {

std::array<uint8_t, kGuardBandBytes> MakePattern() {
  std::array<uint8_t, kGuardBandBytes> pattern{};
  for (uint64_t i = 0; i < kGuardBandBytes; ++i) {
    pattern[i] = static_cast<uint8_t>(i % 2 == 0 ? 0xA5 : 0x5A + i % 64);
  }
  return pattern;
}

std::string Hex(uint8_t byte) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%02x", byte);
  return text;
}

}  // namespace

const uint8_t* GuardBandPattern() {
  static const std::array<uint8_t, kGuardBandBytes> pattern = MakePattern();
  return pattern.data();
}

std::string DescribeGuardBandDamage(const uint8_t* band) {
  const uint8_t* pattern = GuardBandPattern();
  uint64_t changed = 0;
  uint64_t first = 0;
  for (uint64_t i = 0; i < kGuardBandBytes; ++i) {
    if (band[i] == pattern[i]) continue;
    if (changed == 0) first = i;
    ++changed;
  }
  if (changed == 0) return "";
  return std::to_string(changed) + " of its " +
         std::to_string(kGuardBandBytes) + " bytes changed, the first at end+" +
         std::to_string(first) + " (" + Hex(band[first]) + ", expected " +
         Hex(pattern[first]) + ")";
}

}  // namespace phal
