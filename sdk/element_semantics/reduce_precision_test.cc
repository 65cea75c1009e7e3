// Reduce-precision on the bits of f16, f32 and f64: the mantissa rounds to
// nearest even, exponents that do not fit overflow to infinity or flush to
// a signed zero, and NaN stays NaN (+infinity with no mantissa bits).
#include "sdk/element_semantics/reduce_precision.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sdk/base/float16.h"

namespace phal::element_semantics {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

float Reduce(float x, int exponent_bits, int mantissa_bits) {
  return ReducePrecision<Float32Traits>(x, exponent_bits, mantissa_bits);
}

float Reduce(uint32_t bits, int exponent_bits, int mantissa_bits) {
  return Reduce(std::bit_cast<float>(bits), exponent_bits, mantissa_bits);
}

std::string Hex(uint32_t bits) {
  std::ostringstream text;
  text << "0x" << std::hex << bits;
  return text.str();
}

// Bit equality, so that -0 differs from +0 and a NaN's payload counts.
::testing::AssertionResult SameBits(float actual, float expected) {
  const auto actual_bits = std::bit_cast<uint32_t>(actual);
  const auto expected_bits = std::bit_cast<uint32_t>(expected);
  if (actual_bits == expected_bits) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << expected << " (" << Hex(expected_bits) << "), got "
         << actual << " (" << Hex(actual_bits) << ")";
}

TEST(ReducePrecisionTest, TheTypesOwnPrecisionChangesNothing) {
  for (const float x : {0.0f, -0.0f, 1.0f / 3, -2.5e-40f, 0x1p-149f,
                        std::numeric_limits<float>::max(), -kInf}) {
    EXPECT_TRUE(SameBits(Reduce(x, 8, 23), x));
  }
  EXPECT_TRUE(
      SameBits(Reduce(0x7FC00123u, 8, 23), std::bit_cast<float>(0x7FC00123u)));
}

TEST(ReducePrecisionTest, EightExponentAndSevenMantissaBitsRoundAsBF16) {
  for (const float x :
       {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1.0f + 0x1p-8f + 0x1p-20f,
        3.14159265f, -2.71828183f, 1e30f, 1e-30f, 1e-40f,
        std::numeric_limits<float>::max()}) {
    EXPECT_TRUE(SameBits(Reduce(x, 8, 7), BFloat16ToFloat(FloatToBFloat16(x))))
        << "reducing " << x;
  }
}

TEST(ReducePrecisionTest, MantissaRoundingCarriesIntoTheExponent) {
  EXPECT_TRUE(SameBits(Reduce(0x1.fffffep0f, 8, 7), 2.0f));
  EXPECT_TRUE(SameBits(Reduce(0x1.fffffep0f, 8, 10), 2.0f));
}

TEST(ReducePrecisionTest, ExponentOverflowGivesAnInfinityOfTheSign) {
  EXPECT_TRUE(SameBits(Reduce(65504.0f, 5, 10), 65504.0f));
  EXPECT_TRUE(SameBits(Reduce(65519.0f, 5, 10), 65504.0f));
  EXPECT_TRUE(SameBits(Reduce(65520.0f, 5, 10), kInf));
  EXPECT_TRUE(SameBits(Reduce(-65520.0f, 5, 10), -kInf));
  EXPECT_TRUE(SameBits(Reduce(1e10f, 5, 10), kInf));
  EXPECT_TRUE(SameBits(Reduce(kInf, 5, 10), kInf));
  EXPECT_TRUE(SameBits(Reduce(-kInf, 5, 10), -kInf));
}

TEST(ReducePrecisionTest, ExponentUnderflowFlushesToAZeroOfTheSign) {
  EXPECT_TRUE(SameBits(Reduce(0x1p-14f, 5, 10), 0x1p-14f));
  EXPECT_TRUE(SameBits(Reduce(0x1p-15f, 5, 10), 0.0f));
  EXPECT_TRUE(SameBits(Reduce(-0x1p-15f, 5, 10), -0.0f));
  // f16 would hold 1e-5 as a subnormal; reduce-precision flushes it.
  EXPECT_TRUE(SameBits(Reduce(1e-5f, 5, 10), 0.0f));
  // The mantissa rounds first: this value rounds up to the smallest normal.
  EXPECT_TRUE(SameBits(Reduce(0x1.ffep-15f, 5, 10), 0x1p-14f));
}

TEST(ReducePrecisionTest, NaNStaysTheSameNaN) {
  for (const uint32_t bits : {0x7FC00000u, 0xFFC00000u, 0x7FC00123u}) {
    EXPECT_TRUE(SameBits(Reduce(bits, 5, 10), std::bit_cast<float>(bits)));
    EXPECT_TRUE(SameBits(Reduce(bits, 8, 1), std::bit_cast<float>(bits)));
  }
  // The payload lies only in dropped bits: rounding the bits alone would
  // make it an infinity.
  EXPECT_TRUE(
      SameBits(Reduce(0x7F800001u, 8, 7), std::bit_cast<float>(0x7F800001u)));
}

TEST(ReducePrecisionTest, NoMantissaBitsTurnNaNIntoPlusInfinity) {
  EXPECT_TRUE(SameBits(Reduce(0x7FC00000u, 8, 0), kInf));
  EXPECT_TRUE(SameBits(Reduce(0xFFC00000u, 8, 0), kInf));
  EXPECT_TRUE(SameBits(Reduce(0x7FC00000u, 5, 0), kInf));
}

TEST(ReducePrecisionTest, NoMantissaBitsRoundTiesToTheEvenExponent) {
  // With no mantissa the last kept bit is the exponent's lowest: 1.5 lies
  // between 2^0 (odd exponent 127) and 2^1 (even 128), 3 between 2^1 and
  // 2^2 (odd 129), 6 between 2^2 and 2^3 (even 130).
  EXPECT_TRUE(SameBits(Reduce(1.5f, 8, 0), 2.0f));
  EXPECT_TRUE(SameBits(Reduce(3.0f, 8, 0), 2.0f));
  EXPECT_TRUE(SameBits(Reduce(6.0f, 8, 0), 8.0f));
  EXPECT_TRUE(SameBits(Reduce(1.25f, 8, 0), 1.0f));
}

TEST(ReducePrecisionTest, HalfRoundsItsMantissaAndOverflowsItsExponent) {
  // 1 + 2^-10 is the tie between 1 and 1 + 2^-9; 1 + 3 * 2^-10 the tie
  // between 1 + 2^-9 and 1 + 2^-8.
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x3C01, 5, 9), 0x3C00);
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x3C03, 5, 9), 0x3C04);
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x3C01, 5, 10), 0x3C01);
  // Four exponent bits hold exponents up to 7.
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x5800, 4, 10), 0x5800);  // 128
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x5C00, 4, 10), 0x7C00);  // 256
  EXPECT_EQ(ReducePrecision<HalfTraits>(0xDC00, 4, 10), 0xFC00);  // -256
  EXPECT_EQ(ReducePrecision<HalfTraits>(0x7E01, 4, 3), 0x7E01);   // NaN
}

TEST(ReducePrecisionTest, F64ToF32PrecisionRoundsAsF32ButFlushesSubnormals) {
  for (const double x : {0.1, 1.0 / 3, -123.456, 1e38,
                         double{std::numeric_limits<float>::max()}}) {
    const double reduced = ReducePrecision<Float64Traits>(x, 8, 23);
    EXPECT_EQ(reduced, double{static_cast<float>(x)})
        << "reducing " << x << " to (8, 23)";
  }
  EXPECT_EQ(ReducePrecision<Float64Traits>(1e39, 8, 23),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(ReducePrecision<Float64Traits>(1e-39, 8, 23), 0.0);
  const double flushed = ReducePrecision<Float64Traits>(-1e-39, 8, 23);
  EXPECT_TRUE(flushed == 0 && std::signbit(flushed))
      << "expected -0, got " << flushed;
}

}  // namespace
}  // namespace phal::element_semantics
