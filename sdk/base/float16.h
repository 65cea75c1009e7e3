// Conversions between binary32/binary64 and the two 16-bit float formats HLO
// uses: IEEE 754 binary16 (f16) and bfloat16 (bf16, the upper half of a
// binary32). Values are carried as their raw bit patterns in uint16_t.
//
// Narrowing conversions round to nearest, ties to even, in one step (the
// double versions never round through float first). Overflow gives an
// infinity of the right sign, values below half the smallest subnormal give a
// signed zero, and NaN stays a quiet NaN with its sign and the top bits of
// its payload. Widening conversions are exact.
#ifndef POLYHAL_SDK_BASE_FLOAT16_H_
#define POLYHAL_SDK_BASE_FLOAT16_H_

#include <cstdint>

namespace phal {

uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t bits);
uint16_t FloatToBFloat16(float value);
float BFloat16ToFloat(uint16_t bits);
uint16_t DoubleToHalf(double value);
uint16_t DoubleToBFloat16(double value);

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_FLOAT16_H_
