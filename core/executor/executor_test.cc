// The executor: host control flow, tuples, buffer reuse, leaks and
// concurrent executions, checked against the reference interpreter.
#include <thread>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"

namespace phal::testing {
namespace {

TEST(Executor, WhileLoopOfThousandsOfIterationsMatchesReference) {
  ExpectMatchesReference(kCountingLoopModule,
                         {TestData(PHAL_ELEMENT_TYPE_F32, {4})});
}

TEST(Executor, ConditionalByPredicateAndIndexAndCall) {
  const std::string text = R"(
HloModule branches
double {
  p = f32[3] parameter(0)
  ROOT d = f32[3] add(p, p)
}
negate {
  p = f32[3] parameter(0)
  ROOT n = f32[3] negate(p)
}
square {
  p = f32[3] parameter(0)
  ROOT s = f32[3] multiply(p, p)
}
ENTRY main {
  x = f32[3] parameter(0)
  b = pred[] parameter(1)
  i = s32[] parameter(2)
  c1 = f32[3] conditional(b, x, x), true_computation=double, false_computation=negate
  c2 = f32[3] conditional(i, x, x, x), branch_computations={double, negate, square}
  c3 = f32[3] call(c2), to_apply=square
  ROOT out = (f32[3], f32[3], f32[3]) tuple(c1, c2, c3)
}
)";
  for (int selector : {0, 1, 2, 7}) {
    ExpectMatchesReference(
        text, {TestData(PHAL_ELEMENT_TYPE_F32, {3}),
               Literal::Scalar(PHAL_ELEMENT_TYPE_PRED, selector % 2),
               Literal::Scalar(PHAL_ELEMENT_TYPE_S32, selector)});
  }
}

TEST(Executor, ResultsThatAliasParametersConstantsOrEachOtherAreCopies) {
  ExpectMatchesReference(R"(
HloModule aliasing
ENTRY main {
  x = f32[3] parameter(0)
  c = f32[2] constant({1, 2})
  n = f32[3] negate(x)
  r = f32[3,1] reshape(n)
  ROOT out = (f32[3], f32[2], f32[3], f32[3], f32[3,1]) tuple(x, c, n, n, r)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {3})});
}

TEST(Executor, FreesEveryBufferItAllocates) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kCountingLoopModule);
  ASSERT_NE(loaded, nullptr);
  const int64_t before = LiveEvaluatorBuffers();
  ASSERT_TRUE(
      RunOnDevice(*loaded, {TestData(PHAL_ELEMENT_TYPE_F32, {4})}).ok());
  EXPECT_EQ(LiveEvaluatorBuffers(), before);
  const int64_t kernels = LiveEvaluatorKernels();
  loaded.reset();
  EXPECT_LT(LiveEvaluatorKernels(), kernels);
}

TEST(Executor, ALoopReusesItsIntermediateBuffersInsteadOfAllocatingEachStep) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kCountingLoopModule);
  ASSERT_NE(loaded, nullptr);
  const int64_t before = EvaluatorAllocations();
  StatusOr<std::vector<Literal>> result =
      RunOnDevice(*loaded, {TestData(PHAL_ELEMENT_TYPE_F32, {4})});
  ASSERT_TRUE(result.ok()) << result.status().message();
  // 3000 iterations, each with a condition and a body of their own
  // intermediates: a handful of buffers serve them all.
  EXPECT_LT(EvaluatorAllocations() - before, 20);
}

TEST(Executor, EightThreadsRunOneProgramConcurrently) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kCountingLoopModule);
  ASSERT_NE(loaded, nullptr);
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Literal x = TestData(PHAL_ELEMENT_TYPE_F32, {4}, t);
      StatusOr<std::vector<Literal>> result = RunOnDevice(*loaded, {x});
      if (!result.ok()) {
        failures[t] = 1;
        return;
      }
      for (int64_t i = 0; i < 4; ++i) {
        if ((*result)[0].GetAsDouble(i) != x.GetAsDouble(i) + 750.0) {
          failures[t] = 1;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(Executor, DeadValuesShareSlotsAndElementwiseChainsUpdateInPlace) {
  std::unique_ptr<Program> program = CompileText(R"(
HloModule chain
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[64] parameter(0)
  zero = f32[] constant(0)
  s1 = f32[] reduce(x, zero), dimensions={0}, to_apply=add
  b1 = f32[64] broadcast(s1), dimensions={}
  y = f32[64] add(x, b1)
  s2 = f32[] reduce(y, zero), dimensions={0}, to_apply=add
  b2 = f32[64] broadcast(s2), dimensions={}
  z = f32[64] multiply(y, b2)
  s3 = f32[] reduce(z, zero), dimensions={0}, to_apply=add
  b3 = f32[64] broadcast(s3), dimensions={}
  ROOT w = f32[64] subtract(z, b3)
}
)");
  ASSERT_NE(program, nullptr);
  const ComputationPlan& entry =
      program->computations[static_cast<std::size_t>(program->entry)];
  int64_t kernel_outputs = 0;
  for (const Step& step : entry.steps) {
    kernel_outputs += static_cast<int64_t>(step.outputs.size());
  }
  EXPECT_EQ(kernel_outputs, 6);
  EXPECT_LT(static_cast<int64_t>(entry.slot_bytes.size()), kernel_outputs);
  bool updates_in_place = false;
  for (const auto& kernel : program->kernels) {
    for (const KirBuffer& buffer : kernel->buffers()) {
      updates_in_place |= buffer.access == PHAL_KIR_ACCESS_READ_WRITE;
    }
  }
  EXPECT_TRUE(updates_in_place);
  ExpectMatchesReference(R"(
HloModule chain
ENTRY main {
  x = f32[8] parameter(0)
  e = f32[8] exponential(x)
  n = f32[8] negate(e)
  t = f32[8] tanh(n)
  ROOT a = f32[8] add(t, e)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {8})});
}

TEST(Executor, SiblingOutputsOfOneIterationSpaceShareAKernel) {
  std::unique_ptr<Program> program = CompileText(R"(
HloModule siblings
ENTRY main {
  x = f32[16] parameter(0)
  e = f32[16] exponential(x)
  n = f32[16] negate(e)
  ROOT out = (f32[16], f32[16]) tuple(e, n)
}
)");
  ASSERT_NE(program, nullptr);
  ASSERT_EQ(program->kernels.size(), 1u);
  EXPECT_EQ(program->kernels[0]->outputs.size(), 2u);
}

}  // namespace
}  // namespace phal::testing
