// The orders of compare and clamp: IEEE comparison of floats (NaN unordered,
// -0 == +0), totalOrder on the representation, integers read as signed or
// unsigned, pred and the lexicographic order of complex values.
#include "sdk/element_semantics/comparison.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <type_traits>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {
namespace {

using ::testing::IsNan;

// Signed zeros, told apart by their sign bit.
MATCHER(IsMinusZero, "is -0") { return arg == 0 && std::signbit(arg); }
MATCHER(IsPlusZero, "is +0") { return arg == 0 && !std::signbit(arg); }

constexpr uint32_t kDirections[] = {PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARE_NE,
                                    PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARE_LE,
                                    PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARE_GE};
constexpr const char* kDirectionNames[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};

// Whether `x direction y` holds for two keys.
template <typename Key>
bool Holds(uint32_t direction, Key x, Key y) {
  return DispatchRelation(direction,
                          [&](auto relation) { return relation(x, y); });
}

// Whether `x direction y` holds for two complex values.
bool ComplexHoldsFor(uint32_t direction, Complex x, Complex y) {
  return DispatchRelation(direction, [&](auto relation) {
    return ComplexHolds<decltype(relation)>(x, y);
  });
}

// The stored element of T whose bits are the low bits of `bits`.
template <typename T>
typename T::Storage FromBits(uint64_t bits) {
  const auto narrow = static_cast<std::make_unsigned_t<typename T::Bits>>(bits);
  typename T::Storage storage;
  std::memcpy(&storage, &narrow, sizeof(storage));
  return storage;
}

// TotalOrderKey is strictly increasing along `bits`, given in totalOrder.
template <typename T>
void ExpectTotalOrderIncreasing(const std::vector<uint64_t>& bits) {
  for (std::size_t i = 1; i < bits.size(); ++i) {
    EXPECT_LT(TotalOrderKey<T>(FromBits<T>(bits[i - 1])),
              TotalOrderKey<T>(FromBits<T>(bits[i])))
        << "expected bits 0x" << std::hex << bits[i - 1] << " before bits 0x"
        << bits[i] << " in totalOrder";
  }
}

TEST(ComparisonTest, DirectionsFollowTheAbiOrder) {
  const bool one_vs_two[] = {false, true, true, true, false, false};
  const bool two_vs_two[] = {true, false, false, true, false, true};
  for (std::size_t d = 0; d < std::size(kDirections); ++d) {
    EXPECT_EQ(Holds(kDirections[d], 1, 2), one_vs_two[d])
        << "1 " << kDirectionNames[d] << " 2";
    EXPECT_EQ(Holds(kDirections[d], 2, 2), two_vs_two[d])
        << "2 " << kDirectionNames[d] << " 2";
  }
}

TEST(ComparisonTest, DirectionOutsideTheAbiHoldsNever) {
  EXPECT_FALSE(Holds(6, 1, 1));
  EXPECT_FALSE(Holds(0xFFFFFFFFu, 1, 2));
}

TEST(ComparisonTest, FloatComparisonWithNaNHoldsOnlyForNotEqual) {
  const double nan =
      ValueKey<Float32Traits>(std::numeric_limits<float>::quiet_NaN());
  const double one = ValueKey<Float32Traits>(1.0f);
  for (std::size_t d = 0; d < std::size(kDirections); ++d) {
    const bool expected = kDirections[d] == PHAL_KIR_COMPARE_NE;
    EXPECT_EQ(Holds(kDirections[d], nan, one), expected)
        << "NaN " << kDirectionNames[d] << " 1";
    EXPECT_EQ(Holds(kDirections[d], one, nan), expected)
        << "1 " << kDirectionNames[d] << " NaN";
    EXPECT_EQ(Holds(kDirections[d], nan, nan), expected)
        << "NaN " << kDirectionNames[d] << " NaN";
  }
}

TEST(ComparisonTest, FloatComparisonHoldsMinusZeroEqualToPlusZero) {
  const double minus_zero = ValueKey<HalfTraits>(0x8000);
  const double plus_zero = ValueKey<HalfTraits>(0x0000);
  EXPECT_TRUE(Holds(PHAL_KIR_COMPARE_EQ, minus_zero, plus_zero));
  EXPECT_FALSE(Holds(PHAL_KIR_COMPARE_LT, minus_zero, plus_zero));
}

TEST(ComparisonTest, TotalOrderOfF32RunsFromMinusNaNToNaN) {
  // -NaN (largest payload first) < -inf < -max < -1 < -min subnormal < -0
  // < +0 < min subnormal < 1 < max < inf < sNaN < qNaN.
  ExpectTotalOrderIncreasing<Float32Traits>(
      {0xFFFFFFFF, 0xFFC00000, 0xFF800001, 0xFF800000, 0xFF7FFFFF, 0xBF800000,
       0x80000001, 0x80000000, 0x00000000, 0x00000001, 0x3F800000, 0x7F7FFFFF,
       0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF});
}

TEST(ComparisonTest, TotalOrderOfF16AndBF16RunsFromMinusNaNToNaN) {
  ExpectTotalOrderIncreasing<HalfTraits>(
      {0xFFFF, 0xFE00, 0xFC00, 0xFBFF, 0xBC00, 0x8001, 0x8000, 0x0000, 0x0001,
       0x3C00, 0x7BFF, 0x7C00, 0x7E00, 0x7FFF});
  ExpectTotalOrderIncreasing<BFloat16Traits>(
      {0xFFFF, 0xFFC0, 0xFF80, 0xFF7F, 0xBF80, 0x8001, 0x8000, 0x0000, 0x0001,
       0x3F80, 0x7F7F, 0x7F80, 0x7FC0, 0x7FFF});
}

TEST(ComparisonTest, TotalOrderOfF64RunsFromMinusNaNToNaN) {
  ExpectTotalOrderIncreasing<Float64Traits>(
      {0xFFF8000000000000, 0xFFF0000000000000, 0xFFEFFFFFFFFFFFFF,
       0xBFF0000000000000, 0x8000000000000001, 0x8000000000000000, 0x0,
       0x0000000000000001, 0x3FF0000000000000, 0x7FEFFFFFFFFFFFFF,
       0x7FF0000000000000, 0x7FF8000000000000});
}

TEST(ComparisonTest, TotalOrderTellsTheZerosApartAndEqualsIdenticalNaNs) {
  const auto minus_zero = TotalOrderKey<Float32Traits>(-0.0f);
  const auto plus_zero = TotalOrderKey<Float32Traits>(0.0f);
  EXPECT_FALSE(Holds(PHAL_KIR_COMPARE_EQ, minus_zero, plus_zero));
  EXPECT_TRUE(Holds(PHAL_KIR_COMPARE_LT, minus_zero, plus_zero));
  const auto nan =
      TotalOrderKey<Float32Traits>(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(Holds(PHAL_KIR_COMPARE_EQ, nan, nan));
}

TEST(ComparisonTest, SignedAndUnsignedOrderingsReadTheBits) {
  EXPECT_GT(UnsignedKey<S32Traits>(-1), UnsignedKey<S32Traits>(1));
  EXPECT_LT(SignedKey<U32Traits>(0xFFFFFFFF), SignedKey<U32Traits>(1));
  EXPECT_EQ(SignedKey<U8Traits>(0x80), -128);
  EXPECT_EQ(UnsignedKey<S64Traits>(-1), std::numeric_limits<uint64_t>::max());
}

TEST(ComparisonTest, PredOrdersFalseBelowTrueAndReadsAnyNonZeroByteAsTrue) {
  EXPECT_TRUE(Holds(PHAL_KIR_COMPARE_LT, ValueKey<PredTraits>(0),
                    ValueKey<PredTraits>(1)));
  EXPECT_TRUE(Holds(PHAL_KIR_COMPARE_EQ, ValueKey<PredTraits>(1),
                    ValueKey<PredTraits>(0xFF)));
}

TEST(ComparisonTest, ComplexValuesCompareByRealPartThenImaginary) {
  EXPECT_TRUE(ComplexHolds<std::less<>>({1, 5}, {2, 0}));
  EXPECT_TRUE(ComplexHolds<std::less<>>({1, 2}, {1, 3}));
  EXPECT_FALSE(ComplexHolds<std::less<>>({1, 3}, {1, 2}));
  EXPECT_TRUE(ComplexHolds<std::greater_equal<>>({2, 0}, {1, 5}));
  EXPECT_TRUE(ComplexHolds<std::equal_to<>>({1, 2}, {1, 2}));
  EXPECT_FALSE(ComplexHolds<std::equal_to<>>({1, 2}, {1, 3}));
  EXPECT_TRUE(ComplexHolds<std::not_equal_to<>>({1, 2}, {2, 2}));
}

TEST(ComparisonTest, ComplexValueWithANaNPartIsUnordered) {
  const Complex real_nan(kNaN, 0), imaginary_nan(1, kNaN);
  for (std::size_t d = 0; d < std::size(kDirections); ++d) {
    const bool expected = kDirections[d] == PHAL_KIR_COMPARE_NE;
    EXPECT_EQ(ComplexHoldsFor(kDirections[d], real_nan, real_nan), expected)
        << "(nan,0) " << kDirectionNames[d] << " (nan,0)";
    EXPECT_EQ(ComplexHoldsFor(kDirections[d], imaginary_nan, {1, 0}), expected)
        << "(1,nan) " << kDirectionNames[d] << " (1,0)";
  }
}

TEST(ComparisonTest, ClampOfFloatsPropagatesNaNAndPrefersPlusZeroAtLowerBound) {
  EXPECT_THAT(ClampValue<Float32Traits>(0, kNaN, 1), IsNan());
  EXPECT_THAT(ClampValue<Float32Traits>(kNaN, 0.5, 1), IsNan());
  EXPECT_THAT(ClampValue<Float32Traits>(0.0, -0.0, 1), IsPlusZero());
  EXPECT_THAT(ClampValue<Float32Traits>(-1, -0.0, -0.0), IsMinusZero());
  EXPECT_EQ(ClampValue<Float32Traits>(-1, 5, 1), 1.0);
  EXPECT_EQ(ClampValue<Float32Traits>(-1, -5, 1), -1.0);
}

TEST(ComparisonTest, ClampWithLowAboveHighGivesHigh) {
  EXPECT_EQ(ClampValue<S32Traits>(5, 0, 3), 3);
  EXPECT_EQ(ClampValue<S32Traits>(5, 9, 3), 3);
  EXPECT_EQ(ClampValue<Float64Traits>(5, 0, 3), 3.0);
}

TEST(ComparisonTest, ClampOfIntegersComparesInTheirSignedness) {
  EXPECT_EQ(ClampValue<S32Traits>(0, -5, 10), 0);
  EXPECT_EQ(ClampValue<S32Traits>(0, 20, 10), 10);
  EXPECT_EQ(ClampValue<U8Traits>(10, 0xFF, 20), 20);
  EXPECT_EQ(ClampValue<S8Traits>(-10, -128, 10), -10);
}

}  // namespace
}  // namespace phal::element_semantics
