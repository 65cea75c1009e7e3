// The complex functions on values whose results are known exactly (or to
// the last bits), and where the definition picks one of several answers:
// the principal cube root, sign of NaN and zero, the lexicographic order of
// maximum and minimum, expm1 and log1p without cancellation.
#include "sdk/element_semantics/complex_functions.h"

#include <cmath>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {
namespace {

// Both parts within `tolerance` of the expected parts.
::testing::AssertionResult IsNear(Complex actual, Complex expected,
                                  double tolerance = 1e-14) {
  if (std::abs(actual.real() - expected.real()) <= tolerance &&
      std::abs(actual.imag() - expected.imag()) <= tolerance) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected " << expected << " (within "
                                       << tolerance << "), got " << actual;
}

TEST(ComplexFunctionsTest, AbsRealAndImagGiveRealValues) {
  EXPECT_EQ(ComplexAbs({3, -4}), 5.0);
  EXPECT_EQ(ComplexReal({1.5, -2}), 1.5);
  EXPECT_EQ(ComplexImag({1.5, -2}), -2.0);
  EXPECT_EQ(ComplexNegate({1.5, -2}), Complex(-1.5, 2));
}

TEST(ComplexFunctionsTest, ArithmeticOnSmallIntegersIsExact) {
  EXPECT_EQ(ComplexAdd({1, 2}, {3, -4}), Complex(4, -2));
  EXPECT_EQ(ComplexSubtract({1, 2}, {3, -4}), Complex(-2, 6));
  EXPECT_EQ(ComplexMultiply({1, 2}, {3, 4}), Complex(-5, 10));
  EXPECT_EQ(ComplexDivide({4, 2}, {2, 0}), Complex(2, 1));
  EXPECT_TRUE(IsNear(ComplexDivide({-5, 10}, {3, 4}), {1, 2}));
}

TEST(ComplexFunctionsTest, ExpAndLogOfExactPoints) {
  EXPECT_EQ(ComplexExp({0, 0}), Complex(1, 0));
  EXPECT_EQ(ComplexLog({1, 0}), Complex(0, 0));
  EXPECT_EQ(ComplexLog({-1, 0}), Complex(0, std::numbers::pi));
  EXPECT_TRUE(IsNear(ComplexExp({0, std::numbers::pi}), {-1, 0}));
}

TEST(ComplexFunctionsTest, Expm1KeepsTinyArgumentsWithoutCancellation) {
  EXPECT_EQ(ComplexExpm1({1e-20, 0}), Complex(1e-20, 0));
  // expm1(iy) = (cos y - 1) + i sin y, and cos y - 1 ~ -y^2 / 2.
  const Complex imaginary = ComplexExpm1({0, 1e-20});
  EXPECT_DOUBLE_EQ(imaginary.real(), -5e-41);
  EXPECT_EQ(imaginary.imag(), 1e-20);
}

TEST(ComplexFunctionsTest, Log1pKeepsTinyArgumentsWithoutCancellation) {
  EXPECT_DOUBLE_EQ(ComplexLog1p({1e-20, 0}).real(), 1e-20);
  EXPECT_EQ(ComplexLog1p({1e-20, 0}).imag(), 0.0);
  const Complex imaginary = ComplexLog1p({0, 1e-20});
  EXPECT_DOUBLE_EQ(imaginary.real(), 5e-41);
  EXPECT_EQ(imaginary.imag(), 1e-20);
}

TEST(ComplexFunctionsTest, SqrtOfANegativeRealIsOnThePositiveImaginaryAxis) {
  EXPECT_EQ(ComplexSqrt({-4, 0}), Complex(0, 2));
  EXPECT_EQ(ComplexSqrt({-4, -0.0}), Complex(0, -2));
  EXPECT_EQ(ComplexRsqrt({4, 0}), Complex(0.5, 0));
}

TEST(ComplexFunctionsTest, CbrtIsThePrincipalRootNotTheRealOne) {
  EXPECT_TRUE(IsNear(ComplexCbrt({8, 0}), {2, 0}));
  EXPECT_TRUE(IsNear(ComplexCbrt({-8, 0}), {1, std::sqrt(3.0)}));
}

TEST(ComplexFunctionsTest, SignIsTheUnitVectorZeroForZeroAndNaNForNaN) {
  EXPECT_TRUE(IsNear(ComplexSign({3, -4}), {0.6, -0.8}));
  EXPECT_EQ(ComplexSign({0, 0}), Complex(0, 0));
  EXPECT_EQ(ComplexSign({-0.0, 0}), Complex(0, 0));
  for (const Complex z : {Complex(kNaN, 1), Complex(1, kNaN)}) {
    const Complex sign = ComplexSign(z);
    EXPECT_TRUE(std::isnan(sign.real()) && std::isnan(sign.imag()))
        << "sign of " << z << ": expected (nan,nan), got " << sign;
  }
}

TEST(ComplexFunctionsTest, TrigonometryAndLogisticAtZero) {
  EXPECT_EQ(ComplexSin({0, 0}), Complex(0, 0));
  EXPECT_EQ(ComplexCos({0, 0}), Complex(1, 0));
  EXPECT_EQ(ComplexTan({0, 0}), Complex(0, 0));
  EXPECT_EQ(ComplexTanh({0, 0}), Complex(0, 0));
  EXPECT_EQ(ComplexLogistic({0, 0}), Complex(0.5, 0));
}

TEST(ComplexFunctionsTest, PowerOfIToTwoIsMinusOne) {
  EXPECT_TRUE(IsNear(ComplexPower({0, 1}, {2, 0}), {-1, 0}));
}

TEST(ComplexFunctionsTest, Atan2OfRealArgumentsIsTheRealAtan2) {
  EXPECT_TRUE(IsNear(ComplexAtan2({1, 0}, {1, 0}), {std::numbers::pi / 4, 0}));
  EXPECT_TRUE(IsNear(ComplexAtan2({0, 0}, {-1, 0}), {std::numbers::pi, 0}));
}

TEST(ComplexFunctionsTest, MaximumAndMinimumOrderByRealPartThenImaginary) {
  EXPECT_EQ(ComplexMaximum({1, 5}, {2, 0}), Complex(2, 0));
  EXPECT_EQ(ComplexMinimum({1, 5}, {2, 0}), Complex(1, 5));
  EXPECT_EQ(ComplexMaximum({1, 2}, {1, 3}), Complex(1, 3));
  EXPECT_EQ(ComplexMinimum({1, 3}, {1, 2}), Complex(1, 2));
}

}  // namespace
}  // namespace phal::element_semantics
