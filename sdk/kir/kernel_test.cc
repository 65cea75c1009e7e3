// The kernel under construction: what a new kernel of each kind starts
// with, and the description Desc() hands out.
#include "sdk/kir/kernel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace phal {
namespace {

constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;

TEST(KirKernelTest, ANewKernelHasTheArraysAndAccumulatorsOfItsKind) {
  EXPECT_EQ(KirKernel("c", PHAL_KERNEL_KIND_CONV).arrays.size(),
            static_cast<std::size_t>(KirKernel::kConvArrayCount));
  EXPECT_EQ(KirKernel("g", PHAL_KERNEL_KIND_GATHER).arrays.size(),
            static_cast<std::size_t>(KirKernel::kGatherArrayCount));
  EXPECT_EQ(KirKernel("s", PHAL_KERNEL_KIND_SCATTER).arrays.size(),
            static_cast<std::size_t>(KirKernel::kScatterArrayCount));
  EXPECT_TRUE(KirKernel("l", PHAL_KERNEL_KIND_LOOP).arrays.empty());
  EXPECT_EQ(KirKernel("r", PHAL_KERNEL_KIND_REDUCE).accumulator_count, 1u);
}

TEST(KirKernelTest, DescribesBuffersAndTheBodyOfALoop) {
  KirKernel kernel("negate", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = kernel.AddBuffer(kS32, {2, 3});
  kernel.outputs = {kernel.AddBuffer(kS32, {2, 3}, PHAL_KIR_ACCESS_WRITE)};
  kernel.dims = {2, 3};
  KirBody& body = kernel.body;
  const uint32_t x = body.Read(kS32, in, {body.Index(0), body.Index(1)});
  body.AddResult(body.Add(PHAL_KIR_OP_NEGATE, kS32, {x}));
  const phal_kernel_desc_t& desc = kernel.Desc();
  EXPECT_EQ(desc.struct_size, sizeof(phal_kernel_desc_t));
  EXPECT_STREQ(desc.name, "negate");
  ASSERT_EQ(desc.buffer_count, 2u);
  EXPECT_EQ(desc.buffers[0].access, PHAL_KIR_ACCESS_READ);
  EXPECT_EQ(desc.buffers[1].access, PHAL_KIR_ACCESS_WRITE);
  EXPECT_EQ(desc.buffers[1].rank, 2u);
  EXPECT_EQ(desc.buffers[1].dims[1], 3);
  ASSERT_EQ(desc.u.loop->output_count, 1u);
  EXPECT_EQ(desc.u.loop->outputs[0], 1u);
  EXPECT_EQ(desc.u.loop->body.node_count, 4u);
}

TEST(KirKernelTest, DescCountsTheArraysOfAGather) {
  KirKernel gather("rows", PHAL_KERNEL_KIND_GATHER);
  gather.gather.operand = gather.AddBuffer(kS32, {3, 2});
  gather.arrays[KirKernel::kGatherOffsetDims] = {1};
  gather.arrays[KirKernel::kGatherCollapsedSliceDims] = {0};
  gather.arrays[KirKernel::kGatherStartIndexMap] = {0};
  gather.arrays[KirKernel::kGatherSliceSizes] = {1, 2};
  const phal_kir_gather_t& g = *gather.Desc().u.gather;
  EXPECT_EQ(g.offset_dims_count, 1u);
  EXPECT_EQ(g.collapsed_slice_dims_count, 1u);
  EXPECT_EQ(g.start_index_map_count, 1u);
  EXPECT_EQ(g.operand_batching_dims_count, 0u);
  EXPECT_EQ(g.operand_batching_dims, nullptr);
  EXPECT_EQ(g.slice_sizes[1], 2);
}

TEST(KirKernelTest, AMovedKernelDescribesItselfAgain) {
  KirKernel original("copy", PHAL_KERNEL_KIND_COPY);
  original.copy.source = original.AddBuffer(kS32, {4});
  original.copy.destination =
      original.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_WRITE);
  KirKernel moved = std::move(original);
  const phal_kernel_desc_t& desc = moved.Desc();
  EXPECT_EQ(desc.u.copy, &moved.copy);
  EXPECT_EQ(desc.u.copy->destination, 1u);
}

}  // namespace
}  // namespace phal
