// GATHER and SCATTER kernels: slices, clamped starts, skipped updates, the
// order in which updates to one element combine.
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

TEST(GatherKernel, TakesRowsAndClampsStartsIntoTheOperand) {
  KirKernel gather("test_kernel", PHAL_KERNEL_KIND_GATHER);
  BuildRowGather(gather, kS32, 4);
  StatusOr<Kernel> kernel = Kernel::Create(gather.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(gather.gather.operand, {0, 1, 2, 3, 4, 5});
  buffers.Set<int32_t>(gather.gather.start_indices, {2, 0, 7, -3});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(gather.gather.output),
            (std::vector<int32_t>{4, 5, 0, 1, 4, 5, 0, 1}));
}

TEST(GatherKernel, UnsignedIndicesAboveInt64MaxAreClampedHigh) {
  KirKernel gather("test_kernel", PHAL_KERNEL_KIND_GATHER);
  BuildRowGather(gather, kU64, 2);
  StatusOr<Kernel> kernel = Kernel::Create(gather.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(gather.gather.operand, {0, 1, 2, 3, 4, 5});
  buffers.Set<uint64_t>(gather.gather.start_indices,
                        {std::numeric_limits<uint64_t>::max(), 1});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(gather.gather.output),
            (std::vector<int32_t>{4, 5, 2, 3}));
}

TEST(GatherKernel, RefusesIndexVectorsOfTheWrongLength) {
  KirKernel gather("test_kernel", PHAL_KERNEL_KIND_GATHER);
  BuildRowGather(gather, kS32, 2);
  gather.arrays[KirKernel::kGatherStartIndexMap] = {0, 1};
  gather.set_name("short_vectors");
  EXPECT_TRUE(HasCode(
      Kernel::Create(gather.Desc()).status(), PHAL_INVALID_ARGUMENT,
      {"kernel short_vectors", "start_index_map", "index vectors of 1"}));
}

// Scatters `count` s32 updates into a [4] s32 operand at indices
// (index_vector_dim implicit), combining with `combiner`.
void BuildElementScatter(KirKernel& scatter, int64_t count) {
  scatter.scatter.operand = scatter.AddBuffer(kS32, {4});
  scatter.scatter.scatter_indices = scatter.AddBuffer(kS32, {count});
  scatter.scatter.updates = scatter.AddBuffer(kS32, {count});
  scatter.scatter.output = scatter.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_WRITE);
  scatter.arrays[KirKernel::kScatterInsertedWindowDims] = {0};
  scatter.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0};
  scatter.scatter.index_vector_dim = 1;
}

TEST(ScatterKernel, CombinesUpdatesToOneElementInUpdateOrder) {
  // current * 10 + update is not commutative: the result shows the order.
  KirKernel scatter("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  BuildElementScatter(scatter, 5);
  KirBody& c = scatter.reducer;
  const uint32_t scaled = c.Add(PHAL_KIR_OP_MULTIPLY, kS32,
                                {c.Parameter(kS32, 0), c.Constant(kS32, 10)});
  c.AddResult(c.Add(PHAL_KIR_OP_ADD, kS32, {scaled, c.Parameter(kS32, 1)}));
  StatusOr<Kernel> kernel = Kernel::Create(scatter.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(scatter.scatter.operand, {0, 0, 7, 0});
  // Index 9 is outside the operand: that update is skipped.
  buffers.Set<int32_t>(scatter.scatter.scatter_indices, {1, 3, 1, 9, 1});
  buffers.Set<int32_t>(scatter.scatter.updates, {1, 2, 3, 4, 5});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(scatter.scatter.output),
            (std::vector<int32_t>{0, 135, 7, 2}));
}

TEST(ScatterKernel, UpdatesItsOperandInPlace) {
  KirKernel scatter("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  BuildElementScatter(scatter, 3000);
  // The output is the operand itself.
  scatter.scatter.output = scatter.scatter.operand;
  BuildAddition(scatter.reducer, kS32);
  StatusOr<Kernel> kernel = Kernel::Create(scatter.Desc());
  // The operand must be writable for that.
  EXPECT_TRUE(HasCode(kernel.status(), PHAL_INVALID_ARGUMENT,
                      {"scatter output", "read-only"}));

  KirKernel in_place("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  in_place.scatter.operand =
      in_place.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_READ_WRITE);
  in_place.scatter.scatter_indices = in_place.AddBuffer(kS32, {3000});
  in_place.scatter.updates = in_place.AddBuffer(kS32, {3000});
  in_place.scatter.output = in_place.scatter.operand;
  in_place.arrays[KirKernel::kScatterInsertedWindowDims] = {0};
  in_place.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0};
  in_place.scatter.index_vector_dim = 1;
  in_place.reducer = scatter.reducer;
  kernel = Kernel::Create(in_place.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {100, 200, 300, 400});
  std::vector<int32_t> indices(3000), ones(3000, 1);
  for (int i = 0; i < 3000; ++i) indices[i] = i % 4;
  buffers.Set(1, indices);
  buffers.Set(2, ones);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(0),
            (std::vector<int32_t>{850, 950, 1050, 1150}));
}

TEST(ScatterKernel, ScattersWindowsOfRows) {
  // Rows of a [2, 3] update into a [4, 3] operand at rows 3 and 0.
  KirKernel scatter("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  scatter.scatter.operand = scatter.AddBuffer(kS32, {4, 3});
  scatter.scatter.scatter_indices = scatter.AddBuffer(kS32, {2, 1});
  scatter.scatter.updates = scatter.AddBuffer(kS32, {2, 3});
  scatter.scatter.output =
      scatter.AddBuffer(kS32, {4, 3}, PHAL_KIR_ACCESS_WRITE);
  scatter.arrays[KirKernel::kScatterUpdateWindowDims] = {1};
  scatter.arrays[KirKernel::kScatterInsertedWindowDims] = {0};
  scatter.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0};
  scatter.scatter.index_vector_dim = 1;
  KirBody& c = scatter.reducer;
  c.Parameter(kS32, 0);
  c.AddResult(c.Parameter(kS32, 1));
  StatusOr<Kernel> kernel = Kernel::Create(scatter.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, std::vector<int32_t>(12, 0));
  buffers.Set<int32_t>(1, {3, 0});
  buffers.Set<int32_t>(2, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(3),
            (std::vector<int32_t>{4, 5, 6, 0, 0, 0, 0, 0, 0, 1, 2, 3}));
}

}  // namespace
}  // namespace phal::kir_interpreter
