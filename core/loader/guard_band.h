// The guard band the validation layer places behind every device buffer:
// extra bytes allocated past the size the core asked for, filled with a
// known pattern, and read back after each launch that bound the buffer.
// A kernel that writes past its buffer's end changes the pattern.
#ifndef POLYHAL_CORE_LOADER_GUARD_BAND_H_
#define POLYHAL_CORE_LOADER_GUARD_BAND_H_

#include <cstdint>
#include <string>

namespace phal {

// Bytes of the band behind each buffer.
inline constexpr uint64_t kGuardBandBytes = 256;

// The band's pattern: kGuardBandBytes bytes, none of them 0 and no two
// neighbours equal, so neither a zero fill nor a memset goes unseen.
const uint8_t* GuardBandPattern();

// Empty when `band` (kGuardBandBytes read back from a buffer) still holds
// the pattern; otherwise "17 of its 256 bytes changed, the first at end+0
// (0x00, expected 0xa5)".
std::string DescribeGuardBandDamage(const uint8_t* band);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_GUARD_BAND_H_
