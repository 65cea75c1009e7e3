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
using plugin_testing::KirBody;
using plugin_testing::SortKernel;

constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;
constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

// Sorts operands of `types` and shape `dims` along `dimension`, comparing
// operand 0 with `direction` and `ordering`.
void BuildSort(
    SortKernel& sort, std::vector<phal_element_type_t> types,
    std::vector<int64_t> dims, int64_t dimension,
    phal_kir_comparison_direction_t direction = PHAL_KIR_COMPARE_LT,
    phal_kir_comparison_type_t ordering = PHAL_KIR_COMPARISON_SIGNED) {
  for (phal_element_type_t type : types) {
    sort.operands.push_back(sort.AddBuffer(type, dims));
  }
  for (phal_element_type_t type : types) {
    sort.outputs.push_back(sort.AddBuffer(type, dims, PHAL_KIR_ACCESS_WRITE));
  }
  sort.dimension = dimension;
  KirBody& c = sort.comparator;
  std::vector<uint32_t> parameters;
  for (std::size_t k = 0; k < types.size(); ++k) {
    parameters.push_back(c.Parameter(types[k], static_cast<uint32_t>(2 * k)));
    parameters.push_back(
        c.Parameter(types[k], static_cast<uint32_t>(2 * k + 1)));
  }
  c.Result(c.Compare(direction, ordering, parameters[0], parameters[1]));
}

TEST(SortKernel, SortsEverySliceAlongTheDimension) {
  SortKernel rows;
  BuildSort(rows, {kS32}, {2, 3}, 1);
  StatusOr<Kernel> kernel = Kernel::Create(rows.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {3, 1, 2, 9, 7, 8});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{1, 2, 3, 7, 8, 9}));

  SortKernel columns;
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
  SortKernel sort;
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
  SortKernel sort;
  BuildSort(sort, {kF32}, {6}, 0, PHAL_KIR_COMPARE_LT,
            PHAL_KIR_COMPARISON_TOTALORDER);
  StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(0, {nan, 1.0f, -nan, -inf, 0.0f, -0.0f});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(Bytes(buffers.Get<float>(1)),
            Bytes(std::vector<float>{-nan, -inf, -0.0f, 0.0f, 1.0f, nan}));
}

TEST(SortKernel, MatchesAStableSortOnLargeInputs) {
  // 1200 rows of 3 and one row of 2000: merges of many slices run in one
  // batch, and one long slice merges alone.
  std::mt19937 random(7);
  std::uniform_int_distribution<int32_t> values(-50, 50);
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{1200, 3}, std::vector<int64_t>{2000}}) {
    SortKernel sort;
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
  SortKernel sort;
  const uint32_t data = sort.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_READ_WRITE);
  sort.operands = {data};
  sort.outputs = {data};
  KirBody& c = sort.comparator;
  c.Result(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED,
                     c.Parameter(kS32, 0), c.Parameter(kS32, 1)));
  StatusOr<Kernel> kernel = Kernel::Create(sort.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(data, {4, 3, 2, 1});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(data), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(SortKernel, ComparatorMustYieldPred) {
  SortKernel sort;
  BuildSort(sort, {kS32}, {4}, 0);
  sort.comparator = KirBody();
  sort.comparator.Parameter(kS32, 0);
  sort.comparator.Result(sort.comparator.Parameter(kS32, 1));
  sort.name = "int_comparator";
  EXPECT_TRUE(HasError(
      Kernel::Create(sort.Desc()).status(), PHAL_INVALID_ARGUMENT,
      {"kernel int_comparator", "comparator body", "result 0", "is s32"}));
}

}  // namespace
}  // namespace phal::kir_interpreter
