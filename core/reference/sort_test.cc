#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

TEST(SortTest, TotalOrderComparatorPlacesNaNLastAndNegativeZeroFirst) {
  const std::string text =
      "HloModule t\nlt {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
      " ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n"
      "ENTRY e {\n p = f32[5] parameter(0)\n"
      " ROOT s = f32[5] sort(p), dimensions={0}, to_apply=lt\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kF32, {5}, {kNaN, 1.0, 0.0, -0.0, -kInf})}),
      Values(kF32, {5}, {-kInf, -0.0, 0.0, 1.0, kNaN})));
}

TEST(SortTest, KeyValueSortIsStableForEqualKeys) {
  const std::string text =
      "HloModule t\nlt {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
      " c = s32[] parameter(2)\n d = s32[] parameter(3)\n"
      " ROOT r = pred[] compare(a, b), direction=LT\n}\n"
      "ENTRY e {\n k = s32[6] parameter(0)\n v = s32[6] parameter(1)\n"
      " ROOT s = (s32[6], s32[6]) sort(k, v), dimensions={0}, "
      "is_stable=true, to_apply=lt\n}\n";
  EXPECT_TRUE(
      SameLiteral(EvaluateText(text, {Values(kS32, {6}, {2, 1, 2, 1, 0, 2}),
                                      Values(kS32, {6}, {0, 1, 2, 3, 4, 5})}),
                  Literal::Tuple({Values(kS32, {6}, {0, 1, 1, 2, 2, 2}),
                                  Values(kS32, {6}, {4, 1, 3, 0, 2, 5})})));
}

TEST(SortTest, SortsEachRowAlongTheChosenDimensionDescending) {
  const std::string text =
      "HloModule t\ngt {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
      " ROOT c = pred[] compare(a, b), direction=GT\n}\n"
      "ENTRY e {\n p = s32[2,3] parameter(0)\n"
      " ROOT s = s32[2,3] sort(p), dimensions={0}, to_apply=gt\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kS32, {2, 3}, {1, 5, 3, 4, 2, 6})}),
      Values(kS32, {2, 3}, {4, 5, 6, 1, 2, 3})));
}

TEST(SortTest, InconsistentComparatorStaysInBounds) {
  // "Always true" is not a strict weak order; the result is some
  // permutation, computed without reading out of bounds.
  const std::string text =
      "HloModule t\nyes {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
      " ROOT c = pred[] constant(true)\n}\n"
      "ENTRY e {\n p = s32[9] parameter(0)\n"
      " ROOT s = s32[9] sort(p), dimensions={0}, to_apply=yes\n}\n";
  const Literal result =
      EvaluateText(text, {Values(kS32, {9}, {0, 1, 2, 3, 4, 5, 6, 7, 8})});
  int64_t sum = 0;
  for (int64_t i = 0; i < 9; ++i) sum += result.GetAsInt64(i);
  EXPECT_EQ(sum, 36) << result.ToString();
}

}  // namespace
}  // namespace phal::testing
