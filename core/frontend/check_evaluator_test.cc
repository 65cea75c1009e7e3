// Check semantics: StableHLO's check dialect tolerance meanings.
#include "core/frontend/check_evaluator.h"

#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace phal {
namespace {

using ::testing::HasSubstr;

Literal F32(std::vector<double> values) {
  return Literal::FromValues(PHAL_ELEMENT_TYPE_F32,
                             {static_cast<int64_t>(values.size())}, values);
}

CheckSpec Spec(CheckKind kind) {
  CheckSpec check;
  check.kind = kind;
  check.op_name = "check.test";
  check.function = "f";
  check.location = "t.mlir:1:1";
  return check;
}

TEST(CheckEvaluatorTest, EqualIsExactAndBitwiseForFloats) {
  const CheckSpec check = Spec(CheckKind::kEqual);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(EvaluateCheck(check, F32({1, nan}), F32({1, nan})).passed);
  EXPECT_FALSE(EvaluateCheck(check, F32({0.0}), F32({-0.0})).passed);
  const CheckResult result = EvaluateCheck(check, F32({1, 2}), F32({1, 2.5}));
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.max_error, 0.5);
  EXPECT_EQ(result.detail, "element 1: actual 2, expected 2.5");
  EXPECT_TRUE(
      EvaluateCheck(check,
                    Literal::FromValues(PHAL_ELEMENT_TYPE_S64, {2}, {-7, 9}),
                    Literal::FromValues(PHAL_ELEMENT_TYPE_S64, {2}, {-7, 9}))
          .passed);
}

TEST(CheckEvaluatorTest, AlmostEqualUsesAnAbsoluteToleranceOfOneTenThousandth) {
  const CheckSpec check = Spec(CheckKind::kAlmostEqual);
  EXPECT_TRUE(EvaluateCheck(check, F32({5.0}), F32({5.00009})).passed);
  EXPECT_FALSE(EvaluateCheck(check, F32({5.0}), F32({5.0002})).passed);
  CheckSpec loose = check;
  loose.tolerance = 0.1;
  EXPECT_TRUE(EvaluateCheck(loose, F32({5.0}), F32({5.09})).passed);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(EvaluateCheck(check, F32({nan, inf}), F32({nan, inf})).passed);
  EXPECT_FALSE(EvaluateCheck(check, F32({inf}), F32({-inf})).passed);
  EXPECT_FALSE(EvaluateCheck(check, F32({nan}), F32({1})).passed);
}

TEST(CheckEvaluatorTest, AlmostEqualComparesComplexPartsSeparately) {
  const CheckSpec check = Spec(CheckKind::kAlmostEqual);
  Literal a(Shape(PHAL_ELEMENT_TYPE_C64, {1}));
  Literal b(Shape(PHAL_ELEMENT_TYPE_C64, {1}));
  a.SetFromComplex(0, {1.0, 2.0});
  b.SetFromComplex(0, {1.0, 2.001});
  const CheckResult result = EvaluateCheck(check, a, b);
  EXPECT_FALSE(result.passed);
  EXPECT_NEAR(result.max_error, 0.001, 1e-6);
}

TEST(CheckEvaluatorTest, CloseCountsUlpsBetweenMinAndMax) {
  CheckSpec check = Spec(CheckKind::kClose);
  const float one = 1.0f;
  const float next = std::nextafter(one, 2.0f);
  const float third = std::nextafter(std::nextafter(next, 2.0f), 2.0f);
  EXPECT_TRUE(EvaluateCheck(check, F32({one}), F32({next})).passed);
  const CheckResult far = EvaluateCheck(check, F32({one}), F32({third}));
  EXPECT_FALSE(far.passed);
  EXPECT_EQ(far.max_error, 3);
  check.max_ulp_difference = 3;
  EXPECT_TRUE(EvaluateCheck(check, F32({one}), F32({third})).passed);
  check.min_ulp_difference = 1;
  EXPECT_FALSE(EvaluateCheck(check, F32({one}), F32({one})).passed);
  // Across zero: -min_subnormal and +min_subnormal are two ulps apart.
  const float tiny = std::numeric_limits<float>::denorm_min();
  check.min_ulp_difference = 0;
  check.max_ulp_difference = 2;
  EXPECT_TRUE(EvaluateCheck(check, F32({-tiny}), F32({tiny})).passed);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(EvaluateCheck(check, F32({nan}), F32({-nan})).passed);
  EXPECT_FALSE(EvaluateCheck(check,
                             F32({std::numeric_limits<double>::infinity()}),
                             F32({std::numeric_limits<float>::max()}))
                   .passed);
}

TEST(CheckEvaluatorTest, CloseMeasuresUlpsOfTheElementType) {
  const CheckSpec check = Spec(CheckKind::kClose);
  // In f16, 5.0 and 5.004 are one ulp (2^-8) apart.
  Literal a = Literal::FromValues(PHAL_ELEMENT_TYPE_F16, {1}, {5.0});
  Literal b = Literal::FromValues(PHAL_ELEMENT_TYPE_F16, {1}, {5.00390625});
  const CheckResult result = EvaluateCheck(check, a, b);
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.max_error, 1);
}

TEST(CheckEvaluatorTest, SkippedAndMismatchedShapes) {
  CheckSpec skipped = Spec(CheckKind::kSkipped);
  skipped.skip_reason = "needs probe files";
  const CheckResult result = EvaluateCheck(skipped, Literal(), Literal());
  EXPECT_TRUE(result.passed);
  EXPECT_TRUE(result.skipped);
  EXPECT_THAT(DescribeCheckResult(result),
              HasSubstr("f: check.test at t.mlir:1:1: skipped"));
  const CheckResult mismatch =
      EvaluateCheck(Spec(CheckKind::kEqual), F32({1}), F32({1, 2}));
  EXPECT_FALSE(mismatch.passed);
  EXPECT_THAT(mismatch.detail, HasSubstr("shapes differ"));
}

TEST(CheckEvaluatorTest, EvaluatesAFunctionsChecksAgainstItsOutputs) {
  StableHloFunction function;
  function.result_count = 1;
  function.returns_tuple = true;
  CheckSpec against_constant = Spec(CheckKind::kEqual);
  against_constant.actual_output = 1;
  against_constant.expected = F32({3});
  CheckSpec against_output = Spec(CheckKind::kAlmostEqual);
  against_output.actual_output = 1;
  against_output.expected_output = 2;
  function.checks = {against_constant, against_output};
  std::vector<Literal> elements;
  elements.push_back(F32({0}));
  elements.push_back(F32({3}));
  elements.push_back(F32({3.5}));
  const std::vector<Literal> outputs =
      SplitFunctionOutputs(function, Literal::Tuple(std::move(elements)));
  ASSERT_EQ(outputs.size(), 3u);
  const std::vector<CheckResult> results = EvaluateChecks(function, outputs);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].passed);
  EXPECT_FALSE(results[1].passed);
  EXPECT_EQ(results[1].max_error, 0.5);
}

}  // namespace
}  // namespace phal
