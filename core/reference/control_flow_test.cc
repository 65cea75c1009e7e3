#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

TEST(ControlFlowTest, WhileLoopRunsUntilTheConditionFails) {
  const std::string text =
      "HloModule t\n"
      "cond {\n s = (s32[], s32[]) parameter(0)\n"
      " i = s32[] get-tuple-element(s), index=0\n n = s32[] constant(10)\n"
      " ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n s = (s32[], s32[]) parameter(0)\n"
      " i = s32[] get-tuple-element(s), index=0\n"
      " a = s32[] get-tuple-element(s), index=1\n one = s32[] constant(1)\n"
      " i1 = s32[] add(i, one)\n a1 = s32[] add(a, i)\n"
      " ROOT t = (s32[], s32[]) tuple(i1, a1)\n}\n"
      "ENTRY e {\n z = s32[] constant(0)\n t = (s32[], s32[]) tuple(z, z)\n"
      " w = (s32[], s32[]) while(t), condition=cond, body=body\n"
      " ROOT r = s32[] get-tuple-element(w), index=1\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text), Values(kS32, {}, {45})));
}

constexpr const char* kBranches =
    "HloModule t\n"
    "neg {\n x = f32[] parameter(0)\n ROOT n = f32[] negate(x)\n}\n"
    "dbl {\n x = f32[] parameter(0)\n ROOT d = f32[] add(x, x)\n}\n"
    "sq {\n x = f32[] parameter(0)\n ROOT s = f32[] multiply(x, x)\n}\n";

TEST(ControlFlowTest, ConditionalWithPredSelectsTrueThenFalseBranch) {
  const std::string text =
      std::string(kBranches) +
      "ENTRY e {\n p = pred[] parameter(0)\n x = f32[] parameter(1)\n"
      " ROOT c = f32[] conditional(p, x, x), true_computation=neg, "
      "false_computation=dbl\n}\n";
  const Literal three = Values(kF32, {}, {3});
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kPred, {}, {1}), three}),
                          Values(kF32, {}, {-3})));
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kPred, {}, {0}), three}),
                          Values(kF32, {}, {6})));
}

TEST(ControlFlowTest, ConditionalIndexOutOfRangeRunsTheLastBranch) {
  const std::string text =
      std::string(kBranches) +
      "ENTRY e {\n i = s32[] parameter(0)\n x = f32[] parameter(1)\n"
      " ROOT c = f32[] conditional(i, x, x, x), "
      "branch_computations={neg, dbl, sq}\n}\n";
  const Literal three = Values(kF32, {}, {3});
  for (auto [index, expected] :
       {std::pair{0, -3.0}, std::pair{1, 6.0}, std::pair{2, 9.0},
        std::pair{7, 9.0}, std::pair{-1, 9.0}}) {
    EXPECT_TRUE(
        SameLiteral(EvaluateText(text, {Values(kS32, {}, {index}), three}),
                    Values(kF32, {}, {expected})))
        << "branch index " << index;
  }
}

TEST(ControlFlowTest, CallFusionAndMapApplyTheirComputations) {
  const std::string text =
      std::string(kBranches) +
      "fused {\n a = f32[2] parameter(0)\n ROOT m = f32[2] multiply(a, a)\n}\n"
      "ENTRY e {\n p = f32[2] parameter(0)\n"
      " f = f32[2] fusion(p), kind=kLoop, calls=fused\n"
      " m = f32[2] map(f), dimensions={0}, to_apply=neg\n"
      " ROOT c = f32[2] call(m), to_apply=fused\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {2}, {2, 3})}),
                          Values(kF32, {2}, {16, 81})));
}

TEST(ControlFlowTest, OptimizationBarrierPassesItsTupleThrough) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[2] parameter(0)\n"
      " t = (f32[2]) tuple(p)\n ROOT b = (f32[2]) opt-barrier(t)\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kF32, {2}, {1, 2})}),
                          Literal::Tuple({Values(kF32, {2}, {1, 2})})));
}

}  // namespace
}  // namespace phal::testing
