// The ops that apply to every element type, run on each type with small
// integral values whose results are exact in all of them.
#include <string>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"
#include "core/testing/element_type_params.h"

namespace phal::testing {
namespace {

class EveryElementTypeTest : public ::testing::TestWithParam<ElementType> {
 protected:
  ElementType type() const { return GetParam(); }
  bool arithmetic() const { return type() != kPred; }
  bool ordered() const { return !IsComplex(type()); }
  Literal Of(std::vector<int64_t> dims, std::initializer_list<int> values) {
    return Values(type(), std::move(dims), values);
  }
  std::string Name() const { return ElementTypeName(type()); }
};

TEST_P(EveryElementTypeTest, Arithmetic) {
  if (!arithmetic()) GTEST_SKIP() << "pred has no arithmetic";
  const Literal a = Of({3}, {1, 2, 3});
  const Literal b = Of({3}, {4, 5, 6});
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("add", {a, b}, type()),
                          Of({3}, {5, 7, 9})));
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("subtract", {b, a}, type()),
                          Of({3}, {3, 3, 3})));
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("multiply", {a, b}, type()),
                          Of({3}, {4, 10, 18})));
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("divide", {b, a}, type()),
                          IsIntegral(type())
                              ? Of({3}, {4, 2, 2})
                              : Values(type(), {3}, {4.0, 2.5, 2.0})));
}

TEST_P(EveryElementTypeTest, MaximumMinimumAndCompare) {
  if (!ordered()) GTEST_SKIP() << "complex numbers are not ordered";
  const Literal a = Of({3}, {1, 0, 1});
  const Literal b = Of({3}, {0, 0, 1});
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("maximum", {a, b}, type()),
                          Of({3}, {1, 0, 1})));
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("minimum", {a, b}, type()),
                          Of({3}, {0, 0, 1})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp("compare", {a, b}, kPred, "direction=GT"),
      Values(kPred, {3}, {1, 0, 0})));
}

TEST_P(EveryElementTypeTest, SelectAndDataMovement) {
  const Literal a = Of({2, 2}, {1, 0, 0, 1});
  const Literal zeros = Of({2, 2}, {0, 0, 0, 0});
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "select", {Values(kPred, {2, 2}, {1, 1, 0, 0}), a, zeros}, type()),
      Of({2, 2}, {1, 0, 0, 0})));
  EXPECT_TRUE(SameLiteral(EvaluateOp("transpose", {Of({2, 2}, {1, 1, 0, 1})},
                                     Shape(type(), {2, 2}), "dimensions={1,0}"),
                          Of({2, 2}, {1, 0, 1, 1})));
  EXPECT_TRUE(SameLiteral(EvaluateOp("reverse", {Of({3}, {1, 0, 0})},
                                     Shape(type(), {3}), "dimensions={0}"),
                          Of({3}, {0, 0, 1})));
  EXPECT_TRUE(SameLiteral(EvaluateOp("pad", {Of({1}, {1}), Of({}, {0})},
                                     Shape(type(), {3}), "padding=1_1"),
                          Of({3}, {0, 1, 0})));
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("concatenate", {Of({1}, {1}), Of({2}, {0, 1})},
                             Shape(type(), {3}), "dimensions={0}"),
                  Of({3}, {1, 0, 1})));
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dynamic-slice", {Of({3}, {0, 1, 1}), Values(kS32, {}, {9})},
                 Shape(type(), {2}), "dynamic_slice_sizes={2}"),
      Of({2}, {1, 1})));
}

TEST_P(EveryElementTypeTest, ConvertRoundTripsThroughF32) {
  const Literal a = Of({2}, {1, 0});
  const Literal f32 = Values(kF32, {2}, {1, 0});
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("convert", {f32}, type()), a));
  if (IsComplex(type())) return;  // complex -> real is real(), not convert
  EXPECT_TRUE(SameLiteral(EvaluateElementwiseOp("convert", {a}, kF32), f32));
}

TEST_P(EveryElementTypeTest, ReduceAndDot) {
  if (!arithmetic()) GTEST_SKIP() << "pred has no sum";
  const std::string t = Name();
  const std::string text =
      "HloModule t\nsum {\n a = " + t + "[] parameter(0)\n b = " + t +
      "[] parameter(1)\n ROOT s = " + t + "[] add(a, b)\n}\n" +
      "ENTRY e {\n p = " + t + "[2,3] parameter(0)\n z = " + t +
      "[] parameter(1)\n ROOT r = " + t +
      "[2] reduce(p, z), dimensions={1}, to_apply=sum\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Of({2, 3}, {1, 2, 3, 4, 5, 6}), Of({}, {0})}),
      Of({2}, {6, 15})));
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("dot", {Of({3}, {1, 2, 3}), Of({3}, {4, 5, 6})},
                 Shape(type(), {}),
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
      Of({}, {32})));
}

TEST_P(EveryElementTypeTest, SortAscending) {
  if (!ordered()) GTEST_SKIP() << "complex numbers are not ordered";
  const std::string t = Name();
  const std::string text =
      "HloModule t\nlt {\n a = " + t + "[] parameter(0)\n b = " + t +
      "[] parameter(1)\n ROOT c = pred[] compare(a, b), direction=LT\n}\n" +
      "ENTRY e {\n p = " + t + "[4] parameter(0)\n ROOT s = " + t +
      "[4] sort(p), dimensions={0}, to_apply=lt\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Of({4}, {1, 0, 1, 0})}),
                          Of({4}, {0, 0, 1, 1})));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, EveryElementTypeTest,
                         testing::EveryArrayElementType(),
                         testing::ElementTypeParamName());

}  // namespace
}  // namespace phal::testing
