#include "sdk/base/float16.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace phal {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(Float16Test, HalfExactValuesRoundTripThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float value = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    ASSERT_EQ(FloatToHalf(value), bits) << "half bits 0x" << std::hex << bits;
    ASSERT_EQ(DoubleToHalf(value), bits) << "half bits 0x" << std::hex << bits;
  }
}

TEST(Float16Test, HalfKnownEncodings) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);          // largest finite
  EXPECT_EQ(FloatToHalf(6.103515625e-05f), 0x0400);  // smallest normal
  EXPECT_EQ(FloatToHalf(5.9604644775390625e-08f),
            0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(kInf), 0x7C00);
  EXPECT_EQ(FloatToHalf(-kInf), 0xFC00);
}

TEST(Float16Test, HalfRoundsToNearestEvenOnTies) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: even mantissa (1) wins.
  EXPECT_EQ(FloatToHalf(1.0f + 0x1p-11f), 0x3C00);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9: 1 + 2^-9 wins.
  EXPECT_EQ(FloatToHalf(1.0f + 3 * 0x1p-11f), 0x3C02);
  // Just above a tie rounds up.
  EXPECT_EQ(FloatToHalf(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
}

TEST(Float16Test, HalfOverflowsToInfinityAtTheRoundingBoundary) {
  EXPECT_EQ(FloatToHalf(65519.99f), 0x7BFF);  // below max + half ulp
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);   // tie rounds to even = inf
  EXPECT_EQ(FloatToHalf(-1e10f), 0xFC00);
}

TEST(Float16Test, HalfSubnormalsAndUnderflow) {
  EXPECT_EQ(FloatToHalf(0x1p-25f), 0x0000);  // tie with zero -> even (zero)
  EXPECT_EQ(FloatToHalf(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(FloatToHalf(3 * 0x1p-25f), 0x0002);  // tie 1.5 ulp -> 2
  EXPECT_EQ(FloatToHalf(-0x1p-30f), 0x8000);     // keeps the sign
  EXPECT_EQ(FloatToHalf(0x1.ffcp-15f), 0x0400);  // rounds up into normals
  EXPECT_FLOAT_EQ(HalfToFloat(0x03FF), 0x3FFp-24f);
}

TEST(Float16Test, HalfNaNStaysQuietNaNWithSign) {
  const uint16_t positive =
      FloatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(positive & 0x7E00, 0x7E00) << std::hex << positive;
  const uint16_t negative =
      FloatToHalf(-std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(negative & 0xFE00, 0xFE00) << std::hex << negative;
  // A signalling NaN whose payload lies below the kept bits stays a NaN.
  const float signalling = std::bit_cast<float>(0x7F800001u);
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(signalling))));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7C01)));
}

TEST(Float16Test, DoubleToHalfRoundsOnceNotThroughFloat) {
  // 1 + 2^-11 + 2^-40 is above the f16 tie, but rounding it to float first
  // gives exactly the tie (1 + 2^-11), which would round down to 1.
  const double value = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(DoubleToHalf(value), 0x3C01);
  EXPECT_EQ(FloatToHalf(static_cast<float>(value)), 0x3C00);
}

TEST(BFloat16Test, KnownEncodingsAndExactWidening) {
  EXPECT_EQ(FloatToBFloat16(1.0f), 0x3F80);
  EXPECT_EQ(FloatToBFloat16(-0.0f), 0x8000);
  EXPECT_EQ(FloatToBFloat16(kInf), 0x7F80);
  EXPECT_EQ(BFloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(BFloat16ToFloat(0x0001), 0x1p-133f);  // smallest subnormal
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float value = BFloat16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    ASSERT_EQ(FloatToBFloat16(value), bits)
        << "bf16 bits 0x" << std::hex << bits;
  }
}

TEST(BFloat16Test, RoundsToNearestEvenAndOverflows) {
  EXPECT_EQ(FloatToBFloat16(std::bit_cast<float>(0x3F808000u)), 0x3F80);
  EXPECT_EQ(FloatToBFloat16(std::bit_cast<float>(0x3F818000u)), 0x3F82);
  EXPECT_EQ(FloatToBFloat16(std::bit_cast<float>(0x3F808001u)), 0x3F81);
  EXPECT_EQ(FloatToBFloat16(std::bit_cast<float>(0x7F7FFFFFu)), 0x7F80);
  EXPECT_EQ(DoubleToBFloat16(1e300), 0x7F80);
  EXPECT_EQ(DoubleToBFloat16(-1e-300), 0x8000);
  EXPECT_EQ(DoubleToBFloat16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
}

TEST(BFloat16Test, NaNStaysQuietNaNWithSign) {
  const uint16_t negative = DoubleToBFloat16(-std::nan(""));
  EXPECT_EQ(negative & 0xFFC0, 0xFFC0) << std::hex << negative;
  EXPECT_TRUE(std::isnan(
      BFloat16ToFloat(FloatToBFloat16(std::bit_cast<float>(0x7F800001u)))));
}

}  // namespace
}  // namespace phal
