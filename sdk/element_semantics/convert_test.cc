// Conversions between element types: float to integer truncates and
// saturates with NaN to 0, integer to float rounds to nearest even exactly
// once, narrowing floats round once and keep NaN a NaN, pred is x != 0 and
// complex to real keeps the real part.
#include "sdk/element_semantics/convert.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "sdk/base/float16.h"
#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
template <typename I>
constexpr I kMin = std::numeric_limits<I>::min();
template <typename I>
constexpr I kMax = std::numeric_limits<I>::max();

// A stored element of From converted and stored as To.
template <typename From, typename To>
typename To::Storage Convert(typename From::Storage x) {
  return To::Store(ConvertValue<From, To>(From::Load(x)));
}

template <typename To>
typename To::Storage FromF64(double x) {
  return Convert<Float64Traits, To>(x);
}

TEST(ConvertTest, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ(FromF64<S32Traits>(2.9), 2);
  EXPECT_EQ(FromF64<S32Traits>(-2.9), -2);
  EXPECT_EQ(FromF64<S32Traits>(-0.9), 0);
  EXPECT_EQ(FromF64<U8Traits>(255.9), 255);
}

TEST(ConvertTest, FloatNaNToIntegerIsZero) {
  EXPECT_EQ(FromF64<S32Traits>(kNaN), 0);
  EXPECT_EQ(FromF64<S64Traits>(-kNaN), 0);
  EXPECT_EQ(FromF64<U8Traits>(kNaN), 0);
  EXPECT_EQ((Convert<HalfTraits, S16Traits>(0x7E00)), 0);
}

TEST(ConvertTest, FloatInfinitiesToIntegerSaturate) {
  EXPECT_EQ(FromF64<S32Traits>(kInf), kMax<int32_t>);
  EXPECT_EQ(FromF64<S32Traits>(-kInf), kMin<int32_t>);
  EXPECT_EQ(FromF64<U16Traits>(kInf), kMax<uint16_t>);
  EXPECT_EQ(FromF64<U16Traits>(-kInf), 0);
  EXPECT_EQ(FromF64<S64Traits>(kInf), kMax<int64_t>);
  EXPECT_EQ(FromF64<S64Traits>(-kInf), kMin<int64_t>);
}

TEST(ConvertTest, FloatOutOfRangeToIntegerSaturatesAtTheBounds) {
  EXPECT_EQ(FromF64<S8Traits>(200.0), 127);
  EXPECT_EQ(FromF64<S8Traits>(-129.0), -128);
  EXPECT_EQ(FromF64<U8Traits>(256.0), 255);
  EXPECT_EQ(FromF64<U8Traits>(-1.0), 0);
  EXPECT_EQ(FromF64<S32Traits>(3e9), kMax<int32_t>);
  EXPECT_EQ(FromF64<S32Traits>(-3e9), kMin<int32_t>);
  EXPECT_EQ(FromF64<U32Traits>(-0.5), 0u);
  EXPECT_EQ(FromF64<U64Traits>(1e30), kMax<uint64_t>);
}

TEST(ConvertTest, FloatToInteger64IsExactUpToTheBoundsOfTheType) {
  EXPECT_EQ(FromF64<S64Traits>(0x1p63), kMax<int64_t>);
  EXPECT_EQ(FromF64<S64Traits>(-0x1p63), kMin<int64_t>);
  // The largest doubles below 2^63 and 2^64.
  EXPECT_EQ(FromF64<S64Traits>(0x1.fffffffffffffp62),
            int64_t{9223372036854774784});
  EXPECT_EQ(FromF64<U64Traits>(0x1.fffffffffffffp63),
            uint64_t{18446744073709549568u});
  EXPECT_EQ(FromF64<U64Traits>(0x1p64), kMax<uint64_t>);
}

TEST(ConvertTest, MinusZeroToIntegerIsZero) {
  EXPECT_EQ(FromF64<S32Traits>(-0.0), 0);
  EXPECT_EQ(FromF64<U32Traits>(-0.0), 0u);
  EXPECT_EQ((Convert<HalfTraits, U8Traits>(0x8000)), 0);
}

TEST(ConvertTest, IntegerToF16RoundsToNearestEven) {
  // Between 2048 and 4096 the f16 spacing is 2.
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(2049)), 2048.0f);
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(2051)), 2052.0f);
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(-2051)), -2052.0f);
  EXPECT_EQ(HalfToFloat(Convert<U16Traits, HalfTraits>(2053)), 2052.0f);
}

TEST(ConvertTest, IntegerToF16OverflowsToInfinityFromTheRoundingBoundary) {
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(65519)), 65504.0f);
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(65520)),
            std::numeric_limits<float>::infinity());
  EXPECT_EQ(HalfToFloat(Convert<S32Traits, HalfTraits>(-65520)),
            -std::numeric_limits<float>::infinity());
  EXPECT_EQ(HalfToFloat(Convert<U16Traits, HalfTraits>(65535)),
            std::numeric_limits<float>::infinity());
}

TEST(ConvertTest, IntegerToBF16RoundsToNearestEven) {
  // Between 256 and 512 the bf16 spacing is 2.
  EXPECT_EQ(BFloat16ToFloat(Convert<S32Traits, BFloat16Traits>(257)), 256.0f);
  EXPECT_EQ(BFloat16ToFloat(Convert<S32Traits, BFloat16Traits>(259)), 260.0f);
  EXPECT_EQ(BFloat16ToFloat(Convert<U64Traits, BFloat16Traits>(kMax<uint64_t>)),
            0x1p64f);
}

TEST(ConvertTest, IntegerToBF16RoundsOnceNotThroughDouble) {
  // 2^60 + 2^52 + 1 rounds to the tie 2^60 + 2^52 as a double, which would
  // then round to even (2^60); the integer itself is above the tie.
  const int64_t above_tie = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  EXPECT_EQ(BFloat16ToFloat(Convert<S64Traits, BFloat16Traits>(above_tie)),
            0x1.02p60f);
  EXPECT_EQ(BFloat16ToFloat(Convert<S64Traits, BFloat16Traits>(-above_tie)),
            -0x1.02p60f);
}

TEST(ConvertTest, IntegerToF32RoundsOnceNotThroughDouble) {
  const int64_t above_tie = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  EXPECT_EQ((Convert<S64Traits, Float32Traits>(above_tie)), 0x1.000002p60f);
  EXPECT_EQ((Convert<U64Traits, Float32Traits>(kMax<uint64_t>)), 0x1p64f);
}

TEST(ConvertTest, IntegerRoundedToOddKeepsTheStickyBitInTheLastPlace) {
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<int64_t>(int64_t{1} << 53), 0x1p53);
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<int64_t>((int64_t{1} << 53) + 1),
            0x1p53 + 2);
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<int64_t>((int64_t{1} << 53) + 3),
            0x1p53 + 2);
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<int64_t>(kMax<int64_t>), 0x1p63 - 1024);
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<int64_t>(kMin<int64_t>), -0x1p63);
  EXPECT_EQ(IntegerToDoubleRoundedToOdd<uint64_t>(kMax<uint64_t>),
            0x1p64 - 2048);
}

TEST(ConvertTest, F32ToBF16RoundsToNearestEven) {
  // Between 1 and 2 the bf16 spacing is 2^-7.
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(1.0f + 0x1p-8f)), 0x3F80);
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(1.0f + 3 * 0x1p-8f)),
            0x3F82);
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(1.0f + 0x1p-8f + 0x1p-20f)),
            0x3F81);
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(-0.0f)), 0x8000);
}

TEST(ConvertTest, F32ToBF16OverflowsToInfinity) {
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(
                std::numeric_limits<float>::max())),
            0x7F80);
  EXPECT_EQ((Convert<Float32Traits, BFloat16Traits>(
                -std::numeric_limits<float>::max())),
            0xFF80);
}

TEST(ConvertTest, F32NaNToBF16StaysNaNWithItsSign) {
  // 0x7F800001 is a NaN whose payload lies only in the dropped bits: a
  // truncating conversion would make it infinity.
  for (const uint32_t bits : {0x7FC00000u, 0x7F800001u, 0xFFC00000u}) {
    const uint16_t result =
        Convert<Float32Traits, BFloat16Traits>(std::bit_cast<float>(bits));
    EXPECT_TRUE(std::isnan(BFloat16ToFloat(result)))
        << "f32 bits 0x" << std::hex << bits << ": expected a NaN, got bf16 0x"
        << result;
    EXPECT_EQ((result & 0x8000) != 0, (bits & 0x80000000u) != 0)
        << "f32 bits 0x" << std::hex << bits << ": sign lost, got bf16 0x"
        << result;
  }
}

TEST(ConvertTest, F64ToF16RoundsOnceNotThroughF32) {
  // 1 + 2^-11 + 2^-30 rounds to the tie 1 + 2^-11 as an f32, which would
  // then round to even (1); the value itself is above the tie.
  EXPECT_EQ(FromF64<HalfTraits>(1 + 0x1p-11 + 0x1p-30), 0x3C01);
  EXPECT_EQ(FromF64<BFloat16Traits>(1 + 0x1p-8 + 0x1p-30), 0x3F81);
}

TEST(ConvertTest, ToPredIsNotEqualToZero) {
  EXPECT_EQ(FromF64<PredTraits>(-0.0), 0);
  EXPECT_EQ(FromF64<PredTraits>(kNaN), 1);
  EXPECT_EQ(FromF64<PredTraits>(1e-300), 1);
  EXPECT_EQ((Convert<S32Traits, PredTraits>(-2)), 1);
  EXPECT_EQ((Convert<C64Traits, PredTraits>({0.0f, 1.0f})), 1);
  EXPECT_EQ((Convert<C64Traits, PredTraits>({0.0f, -0.0f})), 0);
}

TEST(ConvertTest, FromPredIsZeroOrOne) {
  EXPECT_EQ((Convert<PredTraits, S32Traits>(0xFF)), 1);
  EXPECT_EQ((Convert<PredTraits, Float32Traits>(1)), 1.0f);
  EXPECT_EQ((Convert<PredTraits, HalfTraits>(1)), 0x3C00);
  EXPECT_EQ((Convert<PredTraits, C64Traits>(1)), std::complex<float>(1, 0));
}

TEST(ConvertTest, ComplexToRealKeepsTheRealPart) {
  EXPECT_EQ((Convert<C64Traits, Float32Traits>({1.5f, 9.0f})), 1.5f);
  EXPECT_EQ((Convert<C128Traits, S32Traits>({-3.7, 9.0})), -3);
  EXPECT_EQ((Convert<C128Traits, U8Traits>({kNaN, 1.0})), 0);
  EXPECT_EQ((Convert<C128Traits, C64Traits>({1 + 0x1p-30, 2.0})),
            std::complex<float>(1, 2));
}

TEST(ConvertTest, RealToComplexHasZeroImaginaryPart) {
  EXPECT_EQ((Convert<Float32Traits, C64Traits>(2.5f)),
            std::complex<float>(2.5f, 0));
  EXPECT_EQ((Convert<S32Traits, C128Traits>(-7)), std::complex<double>(-7, 0));
}

TEST(ConvertTest, IntegerToIntegerWraps) {
  EXPECT_EQ((Convert<S32Traits, S8Traits>(200)), -56);
  EXPECT_EQ((Convert<S8Traits, U32Traits>(-1)), kMax<uint32_t>);
  EXPECT_EQ((Convert<U64Traits, S64Traits>(kMax<uint64_t>)), -1);
}

}  // namespace
}  // namespace phal::element_semantics
