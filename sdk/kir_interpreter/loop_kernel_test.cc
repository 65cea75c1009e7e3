// LOOP kernels: index arithmetic, several outputs, batches, in-place
// updates.
#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

TEST(LoopKernel, ReadsThroughIndexArithmetic) {
  // out[i, j] = in[j, i]: a transpose is a READ at swapped indices.
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kF32, {2, 3});
  const uint32_t out = loop.AddBuffer(kF32, {3, 2}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {3, 2};
  loop.outputs = {out};
  KirBody& b = loop.body;
  b.AddResult(b.Read(kF32, in, {b.Index(1), b.Index(0)}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<float>(in, {0, 1, 2, 3, 4, 5});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(out), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(LoopKernel, WritesEachResultToItsOutput) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kS32, {3});
  const uint32_t plus_one = loop.AddBuffer(kS32, {3}, PHAL_KIR_ACCESS_WRITE);
  const uint32_t square = loop.AddBuffer(kS32, {3}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {3};
  loop.outputs = {plus_one, square};
  KirBody& b = loop.body;
  const uint32_t x = b.Read(kS32, in, {b.Index(0)});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kS32, {x, b.Constant(kS32, Bits(1))}));
  b.AddResult(b.Add(PHAL_KIR_OP_MULTIPLY, kS32, {x, x}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(in, {-2, 0, 5});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(plus_one), (std::vector<int32_t>{-1, 1, 6}));
  EXPECT_EQ(buffers.Get<int32_t>(square), (std::vector<int32_t>{4, 0, 25}));
}

TEST(LoopKernel, CoversIterationSpacesLargerThanOneBatch) {
  // out[i, j] = 1000 i + j over 3000 points.
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t out = loop.AddBuffer(kS64, {3, 1000}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {3, 1000};
  loop.outputs = {out};
  KirBody& b = loop.body;
  const uint32_t row =
      b.Add(PHAL_KIR_OP_MULTIPLY, kS64, {b.Index(0), b.Index64(1000)});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kS64, {row, b.Index(1)}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  std::vector<int64_t> expected(3000);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(buffers.Get<int64_t>(out), expected);
}

TEST(LoopKernel, UpdatesABufferItReadsInPlace) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t data =
      loop.AddBuffer(kF32, {2000}, PHAL_KIR_ACCESS_READ_WRITE);
  loop.dims = {2000};
  loop.outputs = {data};
  KirBody& b = loop.body;
  const uint32_t x = b.Read(kF32, data, {b.Index(0)});
  b.AddResult(b.Add(PHAL_KIR_OP_MULTIPLY, kF32, {x, x}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  std::vector<float> values(2000), squares(2000);
  for (int i = 0; i < 2000; ++i) {
    values[i] = static_cast<float>(i % 7 - 3);
    squares[i] = values[i] * values[i];
  }
  buffers.Set(data, values);
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<float>(data), squares);
}

TEST(LoopKernel, OutputBoundOverAnotherInputStillReadsTheOldValues) {
  // out[i] = in[1 - i], with out and in bound to the same memory: every
  // read happens before the first write.
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kS32, {2});
  const uint32_t out = loop.AddBuffer(kS32, {2}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {2};
  loop.outputs = {out};
  KirBody& b = loop.body;
  const uint32_t mirrored = b.Add(PHAL_KIR_OP_SUBTRACT, PHAL_ELEMENT_TYPE_S64,
                                  {b.Index64(1), b.Index(0)});
  b.AddResult(b.Read(kS32, in, {mirrored}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  std::vector<int32_t> shared = {10, 20};
  uint8_t* memory = reinterpret_cast<uint8_t*>(shared.data());
  uint8_t* bindings[] = {memory, memory};
  ASSERT_TRUE(IsOk(kernel->Run(bindings)));
  EXPECT_EQ(shared, (std::vector<int32_t>{20, 10}));
}

TEST(LoopKernel, EmptyIterationSpaceWritesNothing) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t out = loop.AddBuffer(kS32, {0, 4}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {0, 4};
  loop.outputs = {out};
  loop.body.AddResult(loop.body.Constant(kS32, Bits(7)));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  EXPECT_TRUE(IsOk(buffers.Run(*kernel)));
}

TEST(LoopKernel, RankZeroSpaceRunsOnce) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kS32, {});
  const uint32_t out = loop.AddBuffer(kS32, {}, PHAL_KIR_ACCESS_WRITE);
  loop.outputs = {out};
  KirBody& b = loop.body;
  b.AddResult(b.Add(PHAL_KIR_OP_NEGATE, kS32, {b.Read(kS32, in, {})}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(in, {42});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(out), (std::vector<int32_t>{-42}));
}

}  // namespace
}  // namespace phal::kir_interpreter
