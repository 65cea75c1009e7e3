// The special functions against closed forms and tabulated values, at
// their poles, and outside their domains.
#include "sdk/element_semantics/special_functions.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace phal::element_semantics {
namespace {

using ::testing::DoubleNear;
using ::testing::IsNan;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEulerGamma = 0.57721566490153286061;

// Within `ulps` of `expected` relative to its magnitude.
MATCHER_P2(IsWithinUlps, expected, ulps, "") {
  return std::fabs(arg - expected) <=
         ulps * std::numeric_limits<double>::epsilon() * std::fabs(expected);
}

TEST(SpecialFunctionsTest, LgammaIsInfiniteAtPolesAndInfinities) {
  EXPECT_THAT(FloatLgamma(0.5),
              IsWithinUlps(std::log(std::sqrt(std::numbers::pi)), 2));
  EXPECT_EQ(FloatLgamma(0.0), kInf);
  EXPECT_EQ(FloatLgamma(-3.0), kInf);
  EXPECT_EQ(FloatLgamma(-kInf), kInf);
}

TEST(SpecialFunctionsTest, DigammaMatchesClosedFormsAndReflects) {
  EXPECT_THAT(FloatDigamma(1.0), IsWithinUlps(-kEulerGamma, 8));
  EXPECT_THAT(FloatDigamma(0.5),
              IsWithinUlps(-kEulerGamma - 2 * std::numbers::ln2, 8));
  // digamma(1 - x) - digamma(x) = pi / tan(pi x).
  EXPECT_THAT(
      FloatDigamma(-2.75),
      DoubleNear(FloatDigamma(3.75) +
                     std::numbers::pi / std::tan(std::numbers::pi * 3.75),
                 1e-13));
  EXPECT_THAT(FloatDigamma(0.0), IsNan());
  EXPECT_THAT(FloatDigamma(-4.0), IsNan());
  EXPECT_THAT(FloatDigamma(-kInf), IsNan());
  EXPECT_EQ(FloatDigamma(kInf), kInf);
}

TEST(SpecialFunctionsTest, BesselI1eIsOddAndScaled) {
  // exp(-1) I1(1) and exp(-10) I1(10), as scipy.special.i1e gives them.
  EXPECT_THAT(FloatBesselI1e(1.0), IsWithinUlps(0.2079104153497085, 4));
  EXPECT_THAT(FloatBesselI1e(-1.0), IsWithinUlps(-0.2079104153497085, 4));
  EXPECT_THAT(FloatBesselI1e(10.0), IsWithinUlps(0.1212626813844555, 8));
  // Where the asymptotic form takes over, and where 2 pi x overflows.
  EXPECT_THAT(
      FloatBesselI1e(1000.0),
      IsWithinUlps(FloatBesselI1e(499.99) * std::sqrt(499.99 / 1000.0), 1e13));
  EXPECT_GT(FloatBesselI1e(1e308), 0);
  EXPECT_EQ(FloatBesselI1e(1e-310), 0.5e-310);
  EXPECT_EQ(FloatBesselI1e(kInf), 0);
}

TEST(SpecialFunctionsTest, ZetaAndPolygammaMatchRiemannZeta) {
  const double pi2 = std::numbers::pi * std::numbers::pi;
  EXPECT_THAT(FloatZeta(2.0, 1.0), IsWithinUlps(pi2 / 6, 4));
  EXPECT_THAT(FloatZeta(4.0, 1.0), IsWithinUlps(pi2 * pi2 / 90, 4));
  // zeta(2, 2) = zeta(2, 1) - 1.
  EXPECT_THAT(FloatZeta(2.0, 2.0), IsWithinUlps(pi2 / 6 - 1, 8));
  EXPECT_EQ(FloatZeta(1.0, 3.0), kInf);
  EXPECT_EQ(FloatZeta(3.0, -2.0), kInf);
  EXPECT_THAT(FloatZeta(0.5, 1.0), IsNan());
  EXPECT_THAT(FloatZeta(2.5, -1.5), IsNan());
  // polygamma(1, 1) = pi^2 / 6; polygamma(2, 1) = -2 zeta(3).
  EXPECT_THAT(FloatPolygamma(1.0, 1.0), IsWithinUlps(pi2 / 6, 8));
  EXPECT_THAT(FloatPolygamma(2.0, 1.0),
              IsWithinUlps(-2 * 1.2020569031595942854, 8));
  EXPECT_EQ(FloatPolygamma(0.0, 1.0), FloatDigamma(1.0));
  EXPECT_THAT(FloatPolygamma(1.5, 1.0), IsNan());
  EXPECT_THAT(FloatPolygamma(-1.0, 1.0), IsNan());
}

TEST(SpecialFunctionsTest, NextAfterStepsThroughBitPatterns) {
  const float one = 1.0f;
  EXPECT_EQ((NextAfterBits<uint32_t>(one, 1.0, 2.0f, 2.0)),
            std::nextafter(1.0f, 2.0f));
  EXPECT_EQ((NextAfterBits<uint32_t>(one, 1.0, 0.0f, 0.0)),
            std::nextafter(1.0f, 0.0f));
  const float zero = 0.0f;
  const float down = NextAfterBits<uint32_t>(zero, 0.0, -1.0f, -1.0);
  EXPECT_EQ(down, -std::numeric_limits<float>::denorm_min());
  EXPECT_EQ((NextAfterBits<uint64_t>(-2.0, -2.0, -2.0, -2.0)), -2.0);
  // f16 1.0 (0x3c00) towards 2: 0x3c01.
  EXPECT_EQ((NextAfterBits<uint16_t, uint16_t>(0x3c00, 1.0, 0x4000, 2.0)),
            0x3c01);
  EXPECT_THAT((NextAfterBits<uint64_t>(
                  1.0, 1.0, std::numeric_limits<double>::quiet_NaN(),
                  std::numeric_limits<double>::quiet_NaN())),
              IsNan());
}

}  // namespace
}  // namespace phal::element_semantics
