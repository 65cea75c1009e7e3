// The Kernel API: ownership of the description, running, concurrency,
// serialization, and the validation that refuses malformed KIR with a
// message naming the kernel, the body and the node.
#include "sdk/kir_interpreter/kir_interpreter.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

// out[i] = in[i] * 2 + 1 over [n] s32.
void BuildAffine(KirKernel& loop, int64_t n) {
  loop.set_name("affine");
  const uint32_t in = loop.AddBuffer(kS32, {n});
  loop.outputs = {loop.AddBuffer(kS32, {n}, PHAL_KIR_ACCESS_WRITE)};
  loop.dims = {n};
  KirBody& b = loop.body;
  const uint32_t x = b.Read(kS32, in, {b.Index(0)});
  const uint32_t twice =
      b.Add(PHAL_KIR_OP_MULTIPLY, kS32, {x, b.Constant(kS32, 2)});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kS32, {twice, b.Constant(kS32, 1)}));
}

StatusOr<Kernel> AffineKernel(int64_t n) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  BuildAffine(loop, n);
  return Kernel::Create(loop.Desc());
}

// ---- the kernel -------------------------------------------------------------

TEST(Kernel, OwnsACopyOfTheDescription) {
  // The builder, and every array the description pointed at, is gone
  // before the kernel runs.
  StatusOr<Kernel> kernel = AffineKernel(3);
  ASSERT_TRUE(IsOk(kernel.status()));
  EXPECT_EQ(kernel->name(), "affine");
  EXPECT_EQ(kernel->desc().buffer_count, 2u);
  EXPECT_EQ(kernel->BufferByteSize(0), 12u);
  EXPECT_EQ(kernel->BufferByteSize(2), 0u);
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {-1, 0, 20});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{-1, 1, 41}));
}

TEST(Kernel, MovesKeepTheDescriptionValid) {
  StatusOr<Kernel> created = AffineKernel(2);
  ASSERT_TRUE(IsOk(created.status()));
  Kernel kernel = std::move(created).value();
  Kernel moved = std::move(kernel);
  EXPECT_EQ(std::string(moved.desc().name), "affine");
  HostBuffers buffers(moved);
  buffers.Set<int32_t>(0, {1, 2});
  ASSERT_TRUE(IsOk(buffers.Run(moved)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{3, 5}));
}

TEST(Kernel, RunRefusesAWrongNumberOfBuffers) {
  StatusOr<Kernel> kernel = AffineKernel(2);
  ASSERT_TRUE(IsOk(kernel.status()));
  std::vector<int32_t> memory(2);
  uint8_t* one[] = {reinterpret_cast<uint8_t*>(memory.data())};
  EXPECT_TRUE(HasCode(kernel->Run(one), PHAL_INVALID_ARGUMENT,
                      {"kernel affine", "takes 2 buffers, got 1"}));
}

TEST(Kernel, ReadOutOfBoundsIsAnErrorNotAWildRead) {
  // out[i] = in[i + 3] reads past the end of in[4] from i = 1 on.
  KirKernel loop("overrun", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kF32, {4});
  loop.outputs = {loop.AddBuffer(kF32, {4}, PHAL_KIR_ACCESS_WRITE)};
  loop.dims = {4};
  KirBody& b = loop.body;
  const uint32_t shifted =
      b.Add(PHAL_KIR_OP_ADD, kS64, {b.Index(0), b.Index64(3)});
  b.AddResult(b.Read(kF32, in, {shifted}));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  EXPECT_TRUE(HasCode(buffers.Run(*kernel), PHAL_OUT_OF_RANGE,
                      {"kernel overrun", "loop body", "node %3 (read)",
                       "index 4 is out of bounds in dimension 0 of buf0 [4]"}));
}

TEST(Kernel, RunsOnSeveralThreadsAtOnce) {
  StatusOr<Kernel> kernel = AffineKernel(5000);
  ASSERT_TRUE(IsOk(kernel.status()));
  std::vector<std::thread> threads;
  std::vector<std::optional<bool>> correct(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      HostBuffers buffers(*kernel);
      std::vector<int32_t> in(5000), expected(5000);
      for (int i = 0; i < 5000; ++i) {
        in[i] = i * (t + 1);
        expected[i] = in[i] * 2 + 1;
      }
      buffers.Set(0, in);
      for (int repeat = 0; repeat < 20; ++repeat) {
        if (!buffers.Run(*kernel).ok()) {
          correct[t] = false;
          return;
        }
      }
      correct[t] = buffers.Get<int32_t>(1) == expected;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::optional<bool>& c : correct) EXPECT_EQ(c, true);
}

TEST(CopyKernel, CopiesTheBytesOfOneBufferIntoAnother) {
  KirKernel copy("test_kernel", PHAL_KERNEL_KIND_COPY);
  copy.copy.source = copy.AddBuffer(kS32, {3});
  copy.copy.destination =
      copy.AddBuffer(PHAL_ELEMENT_TYPE_F32, {3}, PHAL_KIR_ACCESS_WRITE);
  StatusOr<Kernel> kernel = Kernel::Create(copy.Desc());
  ASSERT_TRUE(IsOk(kernel.status()));
  HostBuffers buffers(*kernel);
  buffers.Set<int32_t>(0, {1, 2, 0x3F800000});
  ASSERT_TRUE(IsOk(buffers.Run(*kernel)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{1, 2, 0x3F800000}));
}

// ---- serialization ----------------------------------------------------------

// One small kernel of each kind.
std::vector<std::string> EncodedKernelsOfEveryKind() {
  std::vector<std::string> encoded;
  auto add = [&](const phal_kernel_desc_t& desc) {
    StatusOr<Kernel> kernel = Kernel::Create(desc);
    EXPECT_TRUE(IsOk(kernel.status()));
    if (kernel.ok()) encoded.push_back(kernel->Serialize());
  };
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  BuildAffine(loop, 4);
  add(loop.Desc());

  KirKernel reduce("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  BuildSum(reduce, kF32, {2, 3}, {1});
  add(reduce.Desc());

  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kF32, kF32, 2, 2, 2);
  add(dot.Desc());

  KirKernel gather("test_kernel", PHAL_KERNEL_KIND_GATHER);
  BuildRowGather(gather, kS32, 2);
  add(gather.Desc());

  KirKernel scatter("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  scatter.scatter.operand = scatter.AddBuffer(kS32, {4});
  scatter.scatter.scatter_indices = scatter.AddBuffer(kS32, {2});
  scatter.scatter.updates = scatter.AddBuffer(kS32, {2});
  scatter.scatter.output = scatter.AddBuffer(kS32, {4}, PHAL_KIR_ACCESS_WRITE);
  scatter.arrays[KirKernel::kScatterInsertedWindowDims] = {0};
  scatter.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0};
  scatter.scatter.index_vector_dim = 1;
  BuildAddition(scatter.reducer, kS32);
  add(scatter.Desc());

  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  BuildSort(sort, {kF32}, {5}, 0, PHAL_KIR_COMPARE_LT,
            PHAL_KIR_COMPARISON_TOTALORDER);
  add(sort.Desc());

  KirKernel copy("test_kernel", PHAL_KERNEL_KIND_COPY);
  copy.copy.source = copy.AddBuffer(kS32, {3});
  copy.copy.destination = copy.AddBuffer(kS32, {3}, PHAL_KIR_ACCESS_WRITE);
  add(copy.Desc());
  return encoded;
}

TEST(Serialization, RoundTripsKernelsOfEveryKind) {
  const std::vector<std::string> encoded = EncodedKernelsOfEveryKind();
  ASSERT_EQ(encoded.size(), 7u);
  for (const std::string& bytes : encoded) {
    StatusOr<Kernel> decoded = Kernel::Deserialize(bytes);
    ASSERT_TRUE(IsOk(decoded.status()));
    EXPECT_EQ(decoded->Serialize(), bytes);
  }
}

TEST(Serialization, ADecodedKernelComputesWhatTheOriginalDoes) {
  StatusOr<Kernel> original = AffineKernel(3);
  ASSERT_TRUE(IsOk(original.status()));
  StatusOr<Kernel> decoded = Kernel::Deserialize(original->Serialize());
  ASSERT_TRUE(IsOk(decoded.status()));
  EXPECT_EQ(decoded->name(), "affine");
  HostBuffers buffers(*decoded);
  buffers.Set<int32_t>(0, {5, 6, 7});
  ASSERT_TRUE(IsOk(buffers.Run(*decoded)));
  EXPECT_EQ(buffers.Get<int32_t>(1), (std::vector<int32_t>{11, 13, 15}));
}

TEST(Serialization, RefusesBytesThatAreNotAKernel) {
  EXPECT_TRUE(HasCode(Kernel::Deserialize("").status(), PHAL_INVALID_ARGUMENT,
                      {"not a serialized KIR kernel"}));
  EXPECT_TRUE(HasCode(Kernel::Deserialize("hello, world").status(),
                      PHAL_INVALID_ARGUMENT, {"not a serialized KIR kernel"}));
  StatusOr<Kernel> kernel = AffineKernel(3);
  ASSERT_TRUE(IsOk(kernel.status()));
  std::string bytes = kernel->Serialize();
  std::string other_version = bytes;
  other_version[4] = 99;
  EXPECT_TRUE(HasCode(Kernel::Deserialize(other_version).status(),
                      PHAL_INVALID_ARGUMENT, {"format version 99"}));
  EXPECT_TRUE(HasCode(Kernel::Deserialize(bytes + "x").status(), PHAL_DATA_LOSS,
                      {"1 bytes after its last field"}));
}

TEST(Serialization, RefusesEveryTruncation) {
  for (const std::string& bytes : EncodedKernelsOfEveryKind()) {
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      EXPECT_FALSE(Kernel::Deserialize(bytes.substr(0, length)).ok())
          << "prefix of " << length << " of " << bytes.size() << " bytes";
    }
  }
}

// Whether running `desc` takes little time: the work of reduce and dot
// kernels is not bounded by their buffers' sizes.
bool WorkIsSmall(const phal_kernel_desc_t& desc) {
  double work = 1;
  if (desc.kind == PHAL_KERNEL_KIND_REDUCE) {
    for (uint32_t d = 0; d < desc.u.reduce->rank; ++d) {
      work *= static_cast<double>(desc.u.reduce->dims[d]);
    }
  }
  if (desc.kind == PHAL_KERNEL_KIND_DOT) {
    const phal_kir_dot_t& dot = *desc.u.dot;
    work = static_cast<double>(dot.batch) * static_cast<double>(dot.m) *
           static_cast<double>(dot.n) * static_cast<double>(dot.k);
  }
  return work < 1e6;
}

TEST(Serialization, CorruptedBytesNeverCrash) {
  // Random byte changes either fail to decode or decode to a kernel that
  // passed validation and runs on buffers of its own sizes.
  std::mt19937 random(1234);
  int decoded = 0;
  for (const std::string& original : EncodedKernelsOfEveryKind()) {
    std::uniform_int_distribution<std::size_t> position(8, original.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int trial = 0; trial < 400; ++trial) {
      std::string bytes = original;
      for (int change = 0; change < 1 + trial % 3; ++change) {
        bytes[position(random)] = static_cast<char>(byte(random));
      }
      StatusOr<Kernel> kernel = Kernel::Deserialize(bytes);
      if (!kernel.ok()) continue;
      uint64_t total = 0;
      for (uint32_t i = 0; i < kernel->desc().buffer_count; ++i) {
        total += kernel->BufferByteSize(i);
      }
      if (total > (uint64_t{1} << 24) || !WorkIsSmall(kernel->desc())) {
        continue;
      }
      ++decoded;
      HostBuffers buffers(*kernel);
      (void)buffers.Run(*kernel);
    }
  }
  EXPECT_GT(decoded, 0);
}

// ---- validation -------------------------------------------------------------

// The affine loop, broken by `mutate` before it is created.
template <typename Mutate>
Status CreateBrokenLoop(Mutate mutate) {
  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  BuildAffine(loop, 4);
  loop.set_name("broken");
  phal_kernel_desc_t desc = loop.Desc();
  phal_kir_loop_t loop_desc = *desc.u.loop;
  std::vector<phal_kir_node_t> nodes(
      loop_desc.body.nodes, loop_desc.body.nodes + loop_desc.body.node_count);
  std::vector<uint32_t> operands(
      loop_desc.body.operands,
      loop_desc.body.operands + loop_desc.body.operand_count);
  std::vector<phal_kir_buffer_t> buffers(desc.buffers,
                                         desc.buffers + desc.buffer_count);
  loop_desc.body.nodes = nodes.data();
  loop_desc.body.operands = operands.data();
  desc.buffers = buffers.data();
  desc.u.loop = &loop_desc;
  mutate(desc, loop_desc, nodes, operands, buffers);
  return Kernel::Create(desc).status();
}

// Node numbers of the affine loop: %0 index, %1 read, %2 constant 2,
// %3 multiply, %4 constant 1, %5 add.
using Nodes = std::vector<phal_kir_node_t>;
using Operands = std::vector<uint32_t>;
using Buffers = std::vector<phal_kir_buffer_t>;

TEST(Validation, OperandsMustBeEarlierNodes) {
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&, Nodes& nodes,
                          Operands& operands,
                          Buffers&) { operands[nodes[3].operand_begin] = 5; }),
      PHAL_INVALID_ARGUMENT,
      {"kernel broken", "loop body", "node %3 (multiply)",
       "operand 0 is %5, not an earlier node"}));
}

TEST(Validation, OperandRangesStayInsideTheBody) {
  EXPECT_TRUE(
      HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                  Nodes& nodes, Operands&,
                                  Buffers&) { nodes[5].operand_begin = 1000; }),
              PHAL_INVALID_ARGUMENT, {"node %5 (add)", "run past the body"}));
}

TEST(Validation, ReadsNameAnExistingBufferOfTheirTypeAndRank) {
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&, Nodes& nodes,
                          Operands&, Buffers&) { nodes[1].attributes[0] = 7; }),
      PHAL_INVALID_ARGUMENT,
      {"node %1 (read)",
       "buffer 7 does not exist (the kernel has 2 buffers)"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes& nodes, Operands&, Buffers&) {
                        nodes[1].type = PHAL_ELEMENT_TYPE_F32;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"node %1 (read)", "reads f32 from buf0 of s32"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes&, Operands&, Buffers& buffers) {
                        buffers[0].rank = 0;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"node %1 (read)", "has 1 indices for buf0 of rank 0"}));
}

TEST(Validation, IndexAndParameterLeavesMustExistInTheBody) {
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&, Nodes& nodes,
                          Operands&, Buffers&) { nodes[0].attributes[0] = 1; }),
      PHAL_INVALID_ARGUMENT,
      {"node %0 (index)", "dimension 1 is outside",
       "iteration space of rank 1"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes& nodes, Operands&, Buffers&) {
                        nodes[2].op = PHAL_KIR_OP_PARAMETER;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"node %2 (parameter)", "the loop body takes 0"}));
}

TEST(Validation, OperandTypesFollowTheOpsRules) {
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes& nodes, Operands&, Buffers&) {
                        nodes[2].type = PHAL_ELEMENT_TYPE_F32;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"node %3 (multiply)",
                       "operands of different element types s32 and f32"}));
  EXPECT_TRUE(
      HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                  Nodes& nodes, Operands&, Buffers&) {
                nodes[3].op = PHAL_KIR_OP_COMPARE;
                nodes[3].attributes[0] = 9;
              }),
              PHAL_INVALID_ARGUMENT,
              {"node %3 (compare)", "the result element type must be pred"}));
}

TEST(Validation, UnknownOpsKindsAndTypesAreNamed) {
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes& nodes, Operands&, Buffers&) {
                        const uint32_t unknown = 200;
                        std::memcpy(&nodes[3].op, &unknown, sizeof(unknown));
                      }),
                      PHAL_UNIMPLEMENTED,
                      {"node %3 (invalid)", "op 200 is not a KIR node op"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes& nodes, Operands&, Buffers&) {
                        const uint32_t unknown = 99;
                        std::memcpy(&nodes[2].type, &unknown, sizeof(unknown));
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"node %2 (constant)", "element type 99"}));
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t& desc, phal_kir_loop_t&, Nodes&,
                          Operands&, Buffers&) {
        const uint32_t unknown = 42;
        std::memcpy(&desc.kind, &unknown, sizeof(unknown));
      }),
      PHAL_UNIMPLEMENTED, {"kernel broken", "kernel kind 42 is unknown"}));
}

TEST(Validation, OutputsMatchTheResultsAndTheIterationSpace) {
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t& loop, Nodes&,
                          Operands&, Buffers&) { loop.output_count = 0; }),
      PHAL_INVALID_ARGUMENT,
      {"loop body", "has 1 results; the kernel needs 0"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes&, Operands&, Buffers& buffers) {
                        static const int64_t kFive[] = {5};
                        buffers[1].dims = kFive;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"loop output 0 buf1 is [5], not [4]"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes&, Operands&, Buffers& buffers) {
                        buffers[1].element_type = PHAL_ELEMENT_TYPE_S64;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"loop body: result 0 (node %5) is s32", "buf1 is s64"}));
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes&, Operands&, Buffers& buffers) {
                        buffers[1].access = PHAL_KIR_ACCESS_READ;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"loop output 0 buf1 is read-only"}));
}

TEST(Validation, ArraysMustBePresentForTheirCounts) {
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t& loop, Nodes&,
                          Operands&, Buffers&) { loop.body.nodes = nullptr; }),
      PHAL_INVALID_ARGUMENT,
      {"kernel broken", "loop body nodes is NULL but has 6 entries"}));
  EXPECT_TRUE(HasCode(
      CreateBrokenLoop([](phal_kernel_desc_t& desc, phal_kir_loop_t&, Nodes&,
                          Operands&, Buffers&) { desc.u.loop = nullptr; }),
      PHAL_INVALID_ARGUMENT, {"loop description is NULL"}));
}

TEST(Validation, BufferDimsMustBeNonNegative) {
  EXPECT_TRUE(HasCode(CreateBrokenLoop([](phal_kernel_desc_t&, phal_kir_loop_t&,
                                          Nodes&, Operands&, Buffers& buffers) {
                        static const int64_t kNegative[] = {-4};
                        buffers[0].dims = kNegative;
                      }),
                      PHAL_INVALID_ARGUMENT,
                      {"buf0 dims [-4] has a negative dimension"}));
}

TEST(Validation, DotStridesMustStayInsideTheOperands) {
  KirKernel dot("strided", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kF32, kF32, 2, 2, 2);
  dot.dot.lhs_strides[1] = 3;
  EXPECT_TRUE(HasCode(Kernel::Create(dot.Desc()).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel strided", "dot lhs strides [0,3,1]",
                       "reach outside buf0 [2,2]"}));
}

TEST(Validation, SortDimensionMustBeInsideTheOperands) {
  KirKernel sort("sort_axis", PHAL_KERNEL_KIND_SORT);
  BuildSort(sort, {kS32}, {4}, 1);
  EXPECT_TRUE(HasCode(Kernel::Create(sort.Desc()).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel sort_axis", "sort dimension 1 is outside"}));
}

}  // namespace
}  // namespace phal::kir_interpreter
