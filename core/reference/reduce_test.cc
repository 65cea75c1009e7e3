#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

constexpr const char* kAddF32 =
    "add {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
    " ROOT s = f32[] add(a, b)\n}\n";
constexpr const char* kMaxF32 =
    "max {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
    " ROOT m = f32[] maximum(a, b)\n}\n";

std::string Module(const std::string& computations, const std::string& entry) {
  return "HloModule t\n" + computations + "ENTRY e {\n" + entry + "}\n";
}

TEST(ReduceTest, SumsOverChosenDimensions) {
  const std::string text =
      Module(kAddF32,
             " p = f32[2,3] parameter(0)\n z = f32[] constant(0)\n"
             " ROOT r = f32[3] reduce(p, z), dimensions={0}, to_apply=add\n");
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kF32, {2, 3}, {1, 2, 3, 4, 5, 6})}),
      Values(kF32, {3}, {5, 7, 9})));
}

TEST(ReduceTest, ReducingAnEmptyDimensionGivesTheInitValue) {
  const std::string text =
      Module(kMaxF32,
             " p = f32[0,2] parameter(0)\n z = f32[] constant(-inf)\n"
             " ROOT r = f32[2] reduce(p, z), dimensions={0}, to_apply=max\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Literal(Shape(kF32, {0, 2}))}),
                          Values(kF32, {2}, {-kInf, -kInf})));
}

TEST(ReduceTest, VariadicReduceComputesArgmax) {
  const std::string text = Module(
      "argmax {\n av = f32[] parameter(0)\n ai = s32[] parameter(1)\n"
      " bv = f32[] parameter(2)\n bi = s32[] parameter(3)\n"
      " gt = pred[] compare(av, bv), direction=GE\n"
      " v = f32[] select(gt, av, bv)\n i = s32[] select(gt, ai, bi)\n"
      " ROOT t = (f32[], s32[]) tuple(v, i)\n}\n",
      " p = f32[4] parameter(0)\n idx = s32[4] iota(), iota_dimension=0\n"
      " lo = f32[] constant(-inf)\n zero = s32[] constant(0)\n"
      " ROOT r = (f32[], s32[]) reduce(p, idx, lo, zero), dimensions={0}, "
      "to_apply=argmax\n");
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kF32, {4}, {3, 9, 2, 9})}),
      Literal::Tuple({Values(kF32, {}, {9}), Values(kS32, {}, {1})})));
}

TEST(ReduceTest, ReducerWithNonScalarOpsFallsBackToTheInterpreter) {
  // The reducer calls another computation, so it cannot run as a plain
  // scalar program.
  const std::string text =
      Module(std::string(kAddF32) +
                 "outer {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
                 " ROOT c = f32[] call(a, b), to_apply=add\n}\n",
             " p = f32[3] parameter(0)\n z = f32[] constant(10)\n"
             " ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=outer\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {3}, {1, 2, 3})}),
                          Values(kF32, {}, {16})));
}

TEST(ReduceWindowTest, MaxPoolWithStrideAndPaddingReadingTheInitValue) {
  const std::string text = Module(
      kMaxF32,
      " p = f32[3,3] parameter(0)\n lo = f32[] constant(-inf)\n"
      " ROOT r = f32[2,2] reduce-window(p, lo), window={size=2x2 stride=2x2 "
      "pad=0_1x0_1}, to_apply=max\n");
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kF32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}),
      Values(kF32, {2, 2}, {5, 6, 8, 9})));
}

TEST(ReduceWindowTest, SumWithBaseAndWindowDilation) {
  // Base dilation 2 turns [1 2 3] into [1 _ 2 _ 3] (holes read as init 0);
  // a size-2 window with dilation 2 sums elements two apart.
  const std::string text = Module(
      kAddF32,
      " p = f32[3] parameter(0)\n z = f32[] constant(0)\n"
      " ROOT r = f32[3] reduce-window(p, z), window={size=2 lhs_dilate=2 "
      "rhs_dilate=2}, to_apply=add\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {3}, {1, 2, 3})}),
                          Values(kF32, {3}, {3, 0, 5})));
}

TEST(SelectAndScatterTest, ScattersSourceToTheSelectedMaximum) {
  const std::string text =
      Module(std::string(kAddF32) +
                 "ge {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
                 " ROOT c = pred[] compare(a, b), direction=GE\n}\n",
             " p = f32[4] parameter(0)\n s = f32[2] parameter(1)\n"
             " z = f32[] constant(0)\n"
             " ROOT r = f32[4] select-and-scatter(p, s, z), window={size=2 "
             "stride=2}, select=ge, scatter=add\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {4}, {1, 5, 7, 7}),
                                              Values(kF32, {2}, {10, 20})}),
                          Values(kF32, {4}, {0, 10, 20, 0})));
}

TEST(SelectAndScatterTest, OverlappingWindowsAccumulate) {
  const std::string text =
      Module(std::string(kAddF32) +
                 "ge {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
                 " ROOT c = pred[] compare(a, b), direction=GE\n}\n",
             " p = f32[3] parameter(0)\n s = f32[2] parameter(1)\n"
             " z = f32[] constant(0)\n"
             " ROOT r = f32[3] select-and-scatter(p, s, z), window={size=2 "
             "stride=1}, select=ge, scatter=add\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {3}, {1, 9, 2}),
                                              Values(kF32, {2}, {1, 2})}),
                          Values(kF32, {3}, {0, 3, 0})));
}

}  // namespace
}  // namespace phal::testing
