// SORT kernels: slices along a dimension, several operands permuted alike,
// stability, comparators on NaN.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

TEST(SortKernel, SortsEverySliceAlongTheDimension) {
  KirKernel rows("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(rows, {kS32}, {2, 3}, 1);
  StatusOr<Kernel> kernel = Kernel::Create(rows.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {3, 1, 2, 9, 7, 8});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{1, 2, 3, 7, 8, 9}));

  KirKernel columns("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(columns, {kS32}, {3, 2}, 0, PHAL_KIR_COMPARE_GT);
  kernel = Kernel::Create(columns.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers column_buffers(*kernel);
  column_buffers.Set<int32_t>(0, {5, 1, 3, 2, 4, 0});
  ASSERT_TRUE(IsOk(column_buffers.Run(*kernel)));
  EXPECT_EQ(column_buffers.Get<int32_t>(1),
            (std::vector<int32_t>{5, 2, 4, 1, 3, 0}));
}

TEST(SortKernel, PermutesEveryOperandAndKeepsEqualKeysInOrder) {
  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(sort, {kS32, kF32}, {6}, 0);
  StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {2, 1, 2, 1, 0, 1});
  buffers.Set<float>(1, {0, 1, 2, 3, 4, 5});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(2), (std::vector<int32_t>{0, 1, 1, 1, 2, 2}));
  EXPECT_EQ(buffers.Get<float>(3), (std::vector<float>{4, 1, 3, 5, 0, 2}));
}

TEST(SortKernel, TotalOrderPlacesNegativeNanFirstAndNanLast) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(sort, {kF32}, {6}, 0, PHAL_KIR_COMPARE_LT,
            PHAL_KIR_COMPARISON_TOTALORDER);
  StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(0, {nan, 1.0f, -nan, -inf, 0.0f, -0.0f});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(ToBytes(buffers.Get<float>(1)),
            ToBytes(std::vector<float>{-nan, -inf, -0.0f, 0.0f, 1.0f, nan}));
}

TEST(SortKernel, MatchesAStableSortOnLargeInputs) {
  // 1200 rows of 3 and one row of 2000: merges of many slices run in one
  // batch, and one long slice merges alone.
  std::mt19937 random(7);
  std::uniform_int_distribution<int32_t> values(-50, 50);
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{1200, 3}, std::vector<int64_t>{2000}}) {
    KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
    BuildSort(sort, {kS32}, dims, static_cast<int64_t>(dims.size() - 1));
    StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
    ASSERT_TRUE(IsOk(kernel.status()));
    HostBuffers buffers(*kernel);
    std::vector<int32_t> input(
        static_cast<std::size_t>(dims[0] * (dims.size() == 2 ? dims[1] : 1)));
    for (int32_t& v : input) v = values(random);
    buffers.Set(0, input);
    ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
    const auto row = static_cast<std::size_t>(dims.back());
    for (std::size_t begin = 0; begin < input.size(); begin += row) {
      std::sort(input.begin() + static_cast<int64_t>(begin),
                input.begin() + static_cast<int64_t>(begin + row));
    }
    EXPECT_EQ(buffers.Get<int32_t>(1), input);
  }
}

TEST(SortKernel, WritesOverItsOwnOperand) {
  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  const uint32_t data = sort.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_READ_WRITE);
  sort.operands = {data};
  sort.outputs = {data};
  KirBody& c = sort.reducer;
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED,
                        c.Parameter(kS32, 0), c.Parameter(kS32, 1)));
  StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(data, {4, 3, 2, 1});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(data), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(SortKernel, ComparatorMustYieldPred) {
  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(sort, {kS32}, {4}, 0);
  sort.reducer = KirBody();
  sort.reducer.Parameter(kS32, 0);
  sort.reducer.AddResult(sort.reducer.Parameter(kS32, 1));
  sort.set_name("int_comparator");
  EXPECT_TRUE(HasCode(
      Kernel::Create(sort.Desc()).status(), PHAL_INVALID_ARGUMENT,
      {"kernel int_comparator", "comparator body", "result 0", "is s32"}));
}

}  // namespace
}  // namespace phal::kir_interpreter
