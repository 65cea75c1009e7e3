// The real floating-point functions where IEEE 754 or StableHLO pick one
// answer among several: NaN and signed zeros in maximum, minimum and sign,
// ties in the two roundings, the sign of a remainder.
#include "sdk/element_semantics/real_functions.h"

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace phal::element_semantics {
namespace {

using ::testing::IsNan;

// Signed zeros, told apart by their sign bit.
MATCHER(IsMinusZero, "is -0") { return arg == 0 && std::signbit(arg); }
MATCHER(IsPlusZero, "is +0") { return arg == 0 && !std::signbit(arg); }

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(RealFunctionsTest, MaximumAndMinimumPropagateNaN) {
  EXPECT_THAT(FloatMaximum(kNaN, 1.0), IsNan());
  EXPECT_THAT(FloatMaximum(1.0, kNaN), IsNan());
  EXPECT_THAT(FloatMaximum(kInf, kNaN), IsNan());
  EXPECT_THAT(FloatMinimum(kNaN, 1.0), IsNan());
  EXPECT_THAT(FloatMinimum(-kInf, kNaN), IsNan());
}

TEST(RealFunctionsTest, MaximumPrefersPlusZeroAndMinimumMinusZero) {
  EXPECT_THAT(FloatMaximum(-0.0, 0.0), IsPlusZero());
  EXPECT_THAT(FloatMaximum(0.0, -0.0), IsPlusZero());
  EXPECT_THAT(FloatMinimum(-0.0, 0.0), IsMinusZero());
  EXPECT_THAT(FloatMinimum(0.0, -0.0), IsMinusZero());
  EXPECT_EQ(FloatMaximum(-1.0, 2.0), 2.0);
  EXPECT_EQ(FloatMinimum(-1.0, 2.0), -1.0);
}

TEST(RealFunctionsTest, SignOfZeroAndNaNIsTheOperand) {
  EXPECT_EQ(FloatSign(-3.5), -1.0);
  EXPECT_EQ(FloatSign(1e-300), 1.0);
  EXPECT_EQ(FloatSign(-kInf), -1.0);
  EXPECT_THAT(FloatSign(-0.0), IsMinusZero());
  EXPECT_EQ(FloatSign(-0.0), 0.0);
  EXPECT_THAT(FloatSign(0.0), IsPlusZero());
  EXPECT_THAT(FloatSign(kNaN), IsNan());
}

TEST(RealFunctionsTest, RoundAfzTakesTiesAwayFromZero) {
  EXPECT_EQ(FloatRoundAfz(2.5), 3.0);
  EXPECT_EQ(FloatRoundAfz(-2.5), -3.0);
  EXPECT_EQ(FloatRoundAfz(0.5), 1.0);
  EXPECT_THAT(FloatRoundAfz(-0.4), IsMinusZero());
}

TEST(RealFunctionsTest, RoundEvenTakesTiesToEven) {
  EXPECT_EQ(FloatRoundEven(2.5), 2.0);
  EXPECT_EQ(FloatRoundEven(3.5), 4.0);
  EXPECT_EQ(FloatRoundEven(-2.5), -2.0);
  EXPECT_THAT(FloatRoundEven(-0.5), IsMinusZero());
}

TEST(RealFunctionsTest, RemainderTakesTheSignOfTheDividend) {
  EXPECT_EQ(FloatRemainder(-7.0, 3.0), -1.0);
  EXPECT_EQ(FloatRemainder(7.0, -3.0), 1.0);
  EXPECT_THAT(FloatRemainder(-6.0, 3.0), IsMinusZero());
  EXPECT_THAT(FloatRemainder(5.0, 0.0), IsNan());
  EXPECT_THAT(FloatRemainder(kInf, 2.0), IsNan());
  EXPECT_EQ(FloatRemainder(5.0, kInf), 5.0);
}

TEST(RealFunctionsTest, RsqrtOfZeroIsInfinityAndOfNegativeIsNaN) {
  EXPECT_EQ(FloatRsqrt(4.0), 0.5);
  EXPECT_EQ(FloatRsqrt(0.0), kInf);
  EXPECT_EQ(FloatRsqrt(-0.0), -kInf);
  EXPECT_THAT(FloatRsqrt(-1.0), IsNan());
}

TEST(RealFunctionsTest, CbrtIsTheRealCubeRoot) {
  EXPECT_EQ(FloatCbrt(-8.0), -2.0);
  EXPECT_EQ(FloatCbrt(27.0), 3.0);
}

TEST(RealFunctionsTest, LogisticSaturatesWithoutNaN) {
  EXPECT_EQ(FloatLogistic(0.0), 0.5);
  EXPECT_EQ(FloatLogistic(kInf), 1.0);
  EXPECT_EQ(FloatLogistic(-kInf), 0.0);
  EXPECT_EQ(FloatLogistic(-1000.0), 0.0);
}

TEST(RealFunctionsTest, IsFiniteIsFalseForInfinitiesAndNaN) {
  EXPECT_TRUE(FloatIsFinite(1e308));
  EXPECT_FALSE(FloatIsFinite(kInf));
  EXPECT_FALSE(FloatIsFinite(-kInf));
  EXPECT_FALSE(FloatIsFinite(kNaN));
}

TEST(RealFunctionsTest, Atan2TakesTheQuadrantFromBothSigns) {
  EXPECT_EQ(FloatAtan2(0.0, -1.0), std::numbers::pi);
  EXPECT_EQ(FloatAtan2(-0.0, -1.0), -std::numbers::pi);
  EXPECT_EQ(FloatAtan2(1.0, 0.0), std::numbers::pi / 2);
  EXPECT_THAT(FloatAtan2(-0.0, 1.0), IsMinusZero());
}

TEST(RealFunctionsTest, PowerOfNegativeBaseToNonIntegerIsNaN) {
  EXPECT_EQ(FloatPower(-2.0, 3.0), -8.0);
  EXPECT_EQ(FloatPower(2.0, -1.0), 0.5);
  EXPECT_EQ(FloatPower(kNaN, 0.0), 1.0);
  EXPECT_THAT(FloatPower(-8.0, 1.0 / 3), IsNan());
}

TEST(RealFunctionsTest, RealIsTheValueImagIsZeroAndComplexPairsThem) {
  EXPECT_EQ(FloatReal(-2.5), -2.5);
  EXPECT_EQ(FloatImag(-2.5), 0.0);
  EXPECT_EQ(MakeComplex(1.5, -2.0), std::complex<double>(1.5, -2.0));
}

}  // namespace
}  // namespace phal::element_semantics
