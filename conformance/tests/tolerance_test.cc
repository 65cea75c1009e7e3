#include "conformance/runner/tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace phal::conformance {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Literal F32(std::vector<double> values) {
  return Literal::FromValues(PHAL_ELEMENT_TYPE_F32,
                             {static_cast<int64_t>(values.size())}, values);
}

Comparison Compare(const Literal& expected, const Literal& actual,
                   const ToleranceSpec& tolerance) {
  return CompareResults({&expected}, {&actual}, tolerance);
}

TEST(TolerancePolicy, ExactRequiresTheSameBitsButAnyNaNMatchesAnyNaN) {
  EXPECT_TRUE(
      Compare(F32({1, kNaN, -kInf}), F32({1, -kNaN, -kInf}), Exact()).passed);
  const Comparison zero = Compare(F32({0.0}), F32({-0.0}), Exact());
  EXPECT_FALSE(zero.passed) << "+0 and -0 differ under the exact bound";
  ASSERT_EQ(zero.worst.size(), 1u);
  EXPECT_EQ(zero.worst[0].expected, "0");
  EXPECT_EQ(zero.worst[0].actual, "-0");
  EXPECT_EQ(zero.error, 1) << "the exact bound counts differing elements";
}

TEST(TolerancePolicy, UlpBoundCountsUnitsInTheLastPlaceOfTheResultType) {
  const double one_ulp_up = std::nextafter(1.0f, 2.0f);
  const double two_ulp_up =
      std::nextafter(static_cast<float>(one_ulp_up), 2.0f);
  EXPECT_TRUE(Compare(F32({1}), F32({one_ulp_up}), Ulps(1)).passed);
  const Comparison two = Compare(F32({1}), F32({two_ulp_up}), Ulps(1));
  EXPECT_FALSE(two.passed);
  EXPECT_EQ(two.error, 2);
  EXPECT_EQ(two.bound, "1 ulp");
  EXPECT_TRUE(Compare(F32({0.0}), F32({-0.0}), Ulps(0)).passed)
      << "+0 and -0 are 0 ulp apart";
  EXPECT_TRUE(Compare(F32({std::ldexp(1.0, -149)}),
                      F32({-std::ldexp(1.0, -149)}), Ulps(2))
                  .passed)
      << "the smallest subnormals of both signs are 2 ulp apart";
}

TEST(TolerancePolicy, OneF64UlpIsOneUlpAtEveryMagnitude) {
  for (double value : {1.0, 3.8733686117673183, 1e300, -2.5e-310}) {
    const Literal expected =
        Literal::FromValues(PHAL_ELEMENT_TYPE_F64, {1}, {value});
    const Literal actual = Literal::FromValues(PHAL_ELEMENT_TYPE_F64, {1},
                                               {std::nextafter(value, 0.0)});
    EXPECT_TRUE(Compare(expected, actual, Ulps(1)).passed) << value;
    EXPECT_FALSE(Compare(expected, actual, Ulps(0)).passed) << value;
  }
}

TEST(TolerancePolicy, SpecialValuesMustMatchUnderEveryBound) {
  for (const ToleranceSpec& bound : {Ulps(1000), Accumulation(1000)}) {
    EXPECT_FALSE(Compare(F32({kNaN}), F32({1}), bound).passed);
    EXPECT_FALSE(Compare(F32({1}), F32({kNaN}), bound).passed);
    EXPECT_FALSE(Compare(F32({kInf}), F32({-kInf}), bound).passed);
    EXPECT_FALSE(Compare(F32({3e38}), F32({kInf}), bound).passed);
    EXPECT_TRUE(Compare(F32({kNaN}), F32({-kNaN}), bound).passed);
    EXPECT_TRUE(Compare(F32({kInf}), F32({kInf}), bound).passed);
  }
  const Comparison nan = Compare(F32({kNaN}), F32({1}), Ulps(4));
  EXPECT_TRUE(std::isinf(nan.error));
  EXPECT_EQ(nan.worst[0].error, "special value differs");
}

TEST(TolerancePolicy, AccumulationBoundIsAbsoluteOrRelativeScaledByTerms) {
  // 100 terms in f32: (100 + 2) * 2^-23, about 1.2e-5.
  const ToleranceSpec bound = Accumulation(100);
  EXPECT_EQ(DescribeBound(bound, PHAL_ELEMENT_TYPE_F32),
            "abs or rel 1.22e-05 (100 terms)");
  EXPECT_TRUE(Compare(F32({1e-9}), F32({1e-6}), bound).passed)
      << "an absolute error of 1e-6 near zero is within the bound";
  EXPECT_TRUE(Compare(F32({1e6}), F32({1e6 + 10}), bound).passed)
      << "a relative error of 1e-5 on a large value is within the bound";
  EXPECT_FALSE(Compare(F32({1}), F32({1.001}), bound).passed);
  EXPECT_TRUE(Compare(F32({1000, 1e-6}), F32({1000, 0.005}), bound).passed)
      << "near zero, the absolute error is measured against the result's "
         "largest magnitude (cancellation in a sum of large terms)";
  EXPECT_FALSE(Compare(F32({1000, 1e-6}), F32({1000, 0.05}), bound).passed);
  EXPECT_FALSE(Compare(F32({1}), F32({1.0002}), Accumulation(10)).passed);
  EXPECT_TRUE(Compare(F32({1}), F32({1.0002}), Accumulation(2000)).passed);
}

TEST(TolerancePolicy, IntegersAreAlwaysExact) {
  const Literal expected =
      Literal::FromValues<int64_t>(PHAL_ELEMENT_TYPE_S32, {3}, {1, 2, 3});
  const Literal actual =
      Literal::FromValues<int64_t>(PHAL_ELEMENT_TYPE_S32, {3}, {1, 2, 4});
  const Comparison comparison = Compare(expected, actual, Accumulation(1000));
  EXPECT_FALSE(comparison.passed);
  EXPECT_EQ(comparison.bound, "exact");
  EXPECT_EQ(comparison.worst[0].position, "[2]");
}

TEST(TolerancePolicy, ComplexNonFiniteValuesMatchEachOther) {
  Literal expected(Shape(PHAL_ELEMENT_TYPE_C64, {2}));
  Literal actual(Shape(PHAL_ELEMENT_TYPE_C64, {2}));
  expected.SetFromComplex(0, {kInf, kNaN});
  actual.SetFromComplex(0, {kNaN, kNaN});
  expected.SetFromComplex(1, {1, 2});
  actual.SetFromComplex(1, {1, 2});
  EXPECT_TRUE(Compare(expected, actual, Accumulation(2)).passed)
      << "Annex G infinity recovery is not required";
  EXPECT_FALSE(Compare(expected, actual, Exact()).passed)
      << "under the exact bound every part must match";
  actual.SetFromComplex(0, {1, 0});
  EXPECT_FALSE(Compare(expected, actual, Accumulation(2)).passed)
      << "a finite result where the reference has none fails";
}

TEST(TolerancePolicy, ShapeOrCountMismatchFailsWithAMessage) {
  const Comparison shape = Compare(F32({1, 2}), F32({1}), Exact());
  EXPECT_FALSE(shape.passed);
  EXPECT_EQ(shape.message, "result 0 is f32[1], the reference's f32[2]");
  const Literal one = F32({1});
  const Comparison count = CompareResults({&one, &one}, {&one}, Exact());
  EXPECT_EQ(count.message, "the plugin returned 1 results, the reference 2");
}

TEST(TolerancePolicy, KeepsTheWorstElementsFirst) {
  std::vector<double> expected(20, 1.0);
  std::vector<double> actual(20, 1.0);
  for (int i = 0; i < 12; ++i)
    actual[static_cast<std::size_t>(i)] = 1.0 + i * 0.01;
  const Comparison comparison = Compare(F32(expected), F32(actual), Ulps(0));
  ASSERT_EQ(comparison.worst.size(), kMaxMismatches);
  EXPECT_EQ(comparison.worst[0].index, 11);
  EXPECT_EQ(comparison.worst[1].index, 10);
}

}  // namespace
}  // namespace phal::conformance
