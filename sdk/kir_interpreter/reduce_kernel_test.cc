// REDUCE kernels: init, values, reducer and epilogue bodies; the fold order;
// variadic reductions.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

TEST(ReduceKernel, SumsTheReducedDimensionsAndAppliesTheEpilogue) {
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kF32, {2, 3}, {1});
  // Epilogue: twice the sum.
  reduce.epilogue = KirBody();
  KirBody& e = reduce.epilogue;
  const uint32_t sum = e.Parameter(kF32, 0);
  e.AddResult(e.Add(PHAL_KIR_OP_ADD, kF32, {sum, sum}));
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(0, {1, 2, 3, 10, 20, 30});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(1), (std::vector<float>{12, 120}));
}

TEST(ReduceKernel, FoldsEachOutputInRowMajorOrderOfTheReducedPoints) {
  // In f32, ((((0 + 1e8) + 1) - 1e8) + 1) is 1: 1e8 + 1 rounds to 1e8. A
  // pairwise order would give (1e8 + 1) + (-1e8 + 1) = 0.
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kF32, {4}, {0});
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(0, {1e8f, 1.0f, -1e8f, 1.0f});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(1), (std::vector<float>{1.0f}));
}

TEST(ReduceKernel, ReducesManyPointsIntoOneOutput) {
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kS64, {5000}, {0});
  reduce.body = KirBody();
  reduce.body.AddResult(reduce.body.Index(0));
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int64_t>(1), (std::vector<int64_t>{4999 * 5000 / 2}));
}

TEST(ReduceKernel, ReducesOuterDimensionsOfManyOutputs) {
  // Column sums of a [3, 1500] s32 array of ones and column indices.
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kS32, {3, 1500}, {0});
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  std::vector<int32_t> in(4500), expected(1500);
  for (int i = 0; i < 4500; ++i) in[i] = i % 1500;
  for (int j = 0; j < 1500; ++j) expected[j] = 3 * j;
  buffers.Set(0, in);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), expected);
}

TEST(ReduceKernel, EmptyReductionYieldsTheInitValue) {
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kS32, {3, 0}, {1});
  reduce.init = KirBody();
  reduce.init.AddResult(reduce.init.Constant(kS32, Bits(42)));
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{42, 42, 42}));
}

TEST(ReduceKernel, VariadicArgmaxKeepsTheFirstMaximum) {
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  const uint32_t in = reduce.AddBuffer(kF32, {5});
  const uint32_t max_out = reduce.AddBuffer(kF32, {}, PHAL_KIR_ACCESS_WRITE);
  const uint32_t arg_out = reduce.AddBuffer(kS32, {}, PHAL_KIR_ACCESS_WRITE);
  reduce.dims = {5};
  reduce.reduced_dims = {0};
  reduce.accumulator_count = 2;
  reduce.outputs = {max_out, arg_out};
  reduce.init.AddResult(reduce.init.Constant(
      kF32, Bits(-std::numeric_limits<float>::infinity())));
  reduce.init.AddResult(reduce.init.Constant(kS32, Bits(0)));
  KirBody& v = reduce.body;
  const uint32_t i = v.Index(0);
  v.AddResult(v.Read(kF32, in, {i}));
  v.AddResult(v.Add(PHAL_KIR_OP_CONVERT, kS32, {i}));
  // Take the new pair when its value is greater, or equal with a smaller
  // index.
  KirBody& r = reduce.reducer;
  const uint32_t best = r.Parameter(kF32, 0), best_index = r.Parameter(kS32, 1);
  const uint32_t value = r.Parameter(kF32, 2), index = r.Parameter(kS32, 3);
  const uint32_t greater =
      r.Compare(PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARISON_FLOAT, value, best);
  const uint32_t equal =
      r.Compare(PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARISON_FLOAT, value, best);
  const uint32_t earlier = r.Compare(
      PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED, index, best_index);
  const uint32_t take =
      r.Add(PHAL_KIR_OP_OR, kPred,
            {greater, r.Add(PHAL_KIR_OP_AND, kPred, {equal, earlier})});
  r.AddResult(r.Add(PHAL_KIR_OP_SELECT, kF32, {take, value, best}));
  r.AddResult(r.Add(PHAL_KIR_OP_SELECT, kS32, {take, index, best_index}));
  KirBody& e = reduce.epilogue;
  e.AddResult(e.Parameter(kF32, 0));
  e.AddResult(e.Parameter(kS32, 1));
  StatusOr<Kernel> kernel = Kernel::Create(reduce.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(in, {3, 7, 1, 7, -2});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(max_out), (std::vector<float>{7}));
  EXPECT_EQ(buffers.Get<int32_t>(arg_out), (std::vector<int32_t>{1}));
}

TEST(ReduceKernel, ReducerResultsMustKeepTheAccumulatorTypes) {
  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kF32, {4}, {0});
  reduce.reducer = KirBody();
  KirBody& r = reduce.reducer;
  r.Parameter(kF32, 0);
  r.AddResult(r.Add(PHAL_KIR_OP_CONVERT, kS32, {r.Parameter(kF32, 1)}));
  reduce.set_name("mistyped_reducer");
  EXPECT_TRUE(HasCode(Kernel::Create(reduce.Desc()).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel mistyped_reducer", "reducer body", "result 0",
                       "s32", "accumulator 0 is f32"}));
}

}  // namespace
}  // namespace phal::kir_interpreter
