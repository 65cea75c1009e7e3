// The grid emulator runs GPU-shaped kernels on the host and catches the
// bugs such kernels have. Every kernel here is built through the SpmdTarget
// hooks alone (plus plain IR), so the same builder code makes NVPTX IR.
#include "sdk/emitters/llvm/grid/grid_emulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/grid/grid_emulator_target.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace phal::llvm_emitter::grid {
namespace {

constexpr const char* kEntry = "phal_kernel";

// What a kernel body gets: the builder at the end of the entry block, the
// target's hooks, and the kernel's pointer arguments.
struct KernelBuilder {
  llvm::IRBuilder<>& builder;
  llvm::Module& module;
  const SpmdTarget& target;
  const std::vector<llvm::Value*>& pointers;

  llvm::Value* GlobalThreadIndex() {
    llvm::IRBuilder<>& b = builder;
    return b.CreateAdd(
        b.CreateMul(target.BlockIndex(b, 0), target.BlockSize(b, 0)),
        target.ThreadIndex(b, 0));
  }
  llvm::Value* Element(llvm::Type* type, llvm::Value* base,
                       llvm::Value* index) {
    return builder.CreateGEP(type, base,
                             builder.CreateSExt(index, builder.getInt64Ty()));
  }
  // `for (i = start; i < end; i += step) body(i)`, leaving the builder
  // after the loop.
  void Loop(llvm::Value* start, llvm::Value* end, llvm::Value* step,
            const std::function<void(llvm::Value*)>& body) {
    llvm::IRBuilder<>& b = builder;
    llvm::Function* function = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* before = b.GetInsertBlock();
    llvm::BasicBlock* header =
        llvm::BasicBlock::Create(b.getContext(), "loop", function);
    llvm::BasicBlock* inside =
        llvm::BasicBlock::Create(b.getContext(), "body", function);
    llvm::BasicBlock* after =
        llvm::BasicBlock::Create(b.getContext(), "after", function);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    llvm::PHINode* i = b.CreatePHI(b.getInt32Ty(), 2, "i");
    i->addIncoming(start, before);
    b.CreateCondBr(b.CreateICmpSLT(i, end), inside, after);
    b.SetInsertPoint(inside);
    body(i);
    i->addIncoming(b.CreateAdd(i, step), b.GetInsertBlock());
    b.CreateBr(header);
    b.SetInsertPoint(after);
  }
  // `if (condition) then()`, leaving the builder after it.
  void If(llvm::Value* condition, const std::function<void()>& then) {
    llvm::IRBuilder<>& b = builder;
    llvm::Function* function = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* inside =
        llvm::BasicBlock::Create(b.getContext(), "then", function);
    llvm::BasicBlock* after =
        llvm::BasicBlock::Create(b.getContext(), "endif", function);
    b.CreateCondBr(condition, inside, after);
    b.SetInsertPoint(inside);
    then();
    b.CreateBr(after);
    b.SetInsertPoint(after);
  }
};

using KernelBody = std::function<void(KernelBuilder&)>;

// A compiled and loaded kernel, unloaded when it goes.
class LoadedKernel {
 public:
  explicit LoadedKernel(GridKernel kernel) : kernel_(kernel) {}
  ~LoadedKernel() { UnloadGridKernel(kernel_); }
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  GridKernelEntry entry() const { return kernel_.entry; }

 private:
  GridKernel kernel_;
};

class GridEmulatorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    StatusOr<std::unique_ptr<GridEmulatorTarget>> target =
        GridEmulatorTarget::Create(GridLimits{});
    ASSERT_TRUE(target.ok()) << target.status().ToString();
    target_ = std::move(target).value().release();
  }
  static void TearDownTestSuite() { delete target_; }

  // Emits a kernel of `pointer_count` buffers, compiles it at O2 (checked
  // when `check`) and loads it with the host's runtime functions.
  static std::unique_ptr<LoadedKernel> Build(unsigned pointer_count,
                                             const KernelBody& body,
                                             bool check) {
    llvm::LLVMContext context;
    llvm::Module module("grid_test", context);
    target_->ConfigureModule(module);
    llvm::IRBuilder<> builder(context);
    SpmdKernelFunction kernel =
        target_->CreateKernel(module, kEntry, pointer_count, builder);
    KernelBuilder kernel_builder{builder, module, *target_, kernel.pointers};
    body(kernel_builder);
    builder.CreateRetVoid();
    StatusOr<std::string> object = target_->Compile(module, 2, check);
    EXPECT_TRUE(object.ok()) << object.status().ToString();
    if (!object.ok()) return nullptr;
    StatusOr<GridKernel> loaded =
        LoadGridKernel(*object, kEntry, RuntimeSymbols());
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    if (!loaded.ok()) return nullptr;
    return std::make_unique<LoadedKernel>(*loaded);
  }

  static GridOptions Checking(uint64_t seed) {
    GridOptions options;
    options.check = true;
    options.seed = seed;
    return options;
  }

  static SpmdLaunch Launch(uint32_t blocks, uint32_t threads,
                           uint32_t shared_bytes = 0) {
    SpmdLaunch launch;
    launch.grid[0] = blocks;
    launch.block[0] = threads;
    launch.shared_bytes = shared_bytes;
    return launch;
  }

  static GridEmulatorTarget* target_;
};

GridEmulatorTarget* GridEmulatorTest::target_ = nullptr;

// out[i] = 2 * in[i] + 1 for i < n, by a grid-stride loop.
KernelBody GridStrideAffine(int32_t n) {
  return [n](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Value* stride =
        b.CreateMul(k.target.BlockSize(b, 0), k.target.GridSize(b, 0));
    k.Loop(k.GlobalThreadIndex(), b.getInt32(n), stride, [&](llvm::Value* i) {
      llvm::Value* x = b.CreateLoad(
          b.getFloatTy(), k.Element(b.getFloatTy(), k.pointers[0], i));
      llvm::Value* y = b.CreateFAdd(
          b.CreateFMul(x, llvm::ConstantFP::get(b.getFloatTy(), 2.0)),
          llvm::ConstantFP::get(b.getFloatTy(), 1.0));
      b.CreateStore(y, k.Element(b.getFloatTy(), k.pointers[1], i));
    });
  };
}

// Each block sums its `threads` inputs (i32) into out[block]: every thread
// stages one value in shared memory, then a tree halves the active threads
// with a barrier after each step. `skip_first_barrier` leaves out the
// barrier between staging and the tree: the bug to be caught.
KernelBody SharedTreeSum(uint32_t threads, bool skip_first_barrier) {
  return [=](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Type* i32 = b.getInt32Ty();
    llvm::Value* shared = k.target.SharedMemory(b, k.module, threads * 4);
    llvm::Value* t = k.target.ThreadIndex(b, 0);
    llvm::Value* staged =
        b.CreateLoad(i32, k.Element(i32, k.pointers[0], k.GlobalThreadIndex()));
    b.CreateStore(staged, k.Element(i32, shared, t));
    if (!skip_first_barrier) k.target.Barrier(b);
    for (uint32_t half = threads / 2; half > 0; half /= 2) {
      k.If(b.CreateICmpULT(t, b.getInt32(half)), [&] {
        llvm::Value* mine = k.Element(i32, shared, t);
        llvm::Value* other = b.CreateLoad(
            i32, k.Element(i32, shared, b.CreateAdd(t, b.getInt32(half))));
        b.CreateStore(b.CreateAdd(b.CreateLoad(i32, mine), other), mine);
      });
      k.target.Barrier(b);
    }
    k.If(b.CreateICmpEQ(t, b.getInt32(0)), [&] {
      b.CreateStore(b.CreateLoad(i32, shared),
                    k.Element(i32, k.pointers[1], k.target.BlockIndex(b, 0)));
    });
  };
}

std::vector<int32_t> Iota(size_t count) {
  std::vector<int32_t> values(count);
  std::iota(values.begin(), values.end(), 1);
  return values;
}

std::vector<int32_t> BlockSums(const std::vector<int32_t>& in,
                               uint32_t threads) {
  std::vector<int32_t> sums(in.size() / threads, 0);
  for (size_t i = 0; i < in.size(); ++i) sums[i / threads] += in[i];
  return sums;
}

TEST_F(GridEmulatorTest, GridStrideLoopCoversEveryElementOnce) {
  constexpr int32_t kCount = 1000;  // not a multiple of the 4 x 64 threads
  std::vector<float> in(kCount), out(kCount, -1.0f);
  for (int32_t i = 0; i < kCount; ++i) in[i] = static_cast<float>(i);
  for (bool check : {false, true}) {
    std::unique_ptr<LoadedKernel> kernel =
        Build(2, GridStrideAffine(kCount), check);
    ASSERT_NE(kernel, nullptr);
    const GridBuffer buffers[] = {{in.data(), kCount * 4, "in"},
                                  {out.data(), kCount * 4, "out"}};
    Status status = RunGrid(kernel->entry(), Launch(4, 64), buffers,
                            check ? Checking(1) : GridOptions{});
    ASSERT_TRUE(status.ok()) << status.ToString();
    for (int32_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(out[i], 2.0f * i + 1.0f)
          << "element " << i << " (check " << check << ")";
    }
  }
}

TEST_F(GridEmulatorTest, SharedMemoryTreeReductionSumsEachBlock) {
  constexpr uint32_t kThreads = 256;
  constexpr uint32_t kBlocks = 8;
  const std::vector<int32_t> in = Iota(kThreads * kBlocks);
  std::vector<int32_t> out(kBlocks, 0);
  std::unique_ptr<LoadedKernel> kernel =
      Build(2, SharedTreeSum(kThreads, false), false);
  ASSERT_NE(kernel, nullptr);
  const GridBuffer buffers[] = {
      {const_cast<int32_t*>(in.data()), in.size() * 4, "in"},
      {out.data(), out.size() * 4, "out"}};
  Status status =
      RunGrid(kernel->entry(), Launch(kBlocks, kThreads, kThreads * 4), buffers,
              GridOptions{});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(out, BlockSums(in, kThreads));
}

TEST_F(GridEmulatorTest, SharedMemoryTreeReductionIsCleanInCheckingMode) {
  constexpr uint32_t kThreads = 128;
  constexpr uint32_t kBlocks = 4;
  const std::vector<int32_t> in = Iota(kThreads * kBlocks);
  std::unique_ptr<LoadedKernel> kernel =
      Build(2, SharedTreeSum(kThreads, false), true);
  ASSERT_NE(kernel, nullptr);
  for (uint64_t seed = 0; seed < 4; ++seed) {
    std::vector<int32_t> out(kBlocks, 0);
    const GridBuffer buffers[] = {
        {const_cast<int32_t*>(in.data()), in.size() * 4, "in"},
        {out.data(), out.size() * 4, "out"}};
    Status status =
        RunGrid(kernel->entry(), Launch(kBlocks, kThreads, kThreads * 4),
                buffers, Checking(seed));
    ASSERT_TRUE(status.ok()) << "seed " << seed << ": " << status.ToString();
    EXPECT_EQ(out, BlockSums(in, kThreads)) << "seed " << seed;
  }
}

TEST_F(GridEmulatorTest,
       MissingBarrierBeforeTheTreeIsReportedAsASharedMemoryRace) {
  constexpr uint32_t kThreads = 64;
  const std::vector<int32_t> in = Iota(kThreads * 2);
  std::vector<int32_t> out(2, 0);
  std::unique_ptr<LoadedKernel> kernel =
      Build(2, SharedTreeSum(kThreads, /*skip_first_barrier=*/true), true);
  ASSERT_NE(kernel, nullptr);
  const GridBuffer buffers[] = {
      {const_cast<int32_t*>(in.data()), in.size() * 4, "in"},
      {out.data(), out.size() * 4, "out"}};
  for (uint64_t seed = 0; seed < 3; ++seed) {
    Status status = RunGrid(kernel->entry(), Launch(2, kThreads, kThreads * 4),
                            buffers, Checking(seed));
    ASSERT_FALSE(status.ok()) << "seed " << seed << ": the race went unseen";
    EXPECT_EQ(status.code(), PHAL_FAILED_PRECONDITION) << status.ToString();
    EXPECT_NE(status.message().find("block (0,0,0)"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("race on shared memory"), std::string::npos)
        << status.message();
  }
}

TEST_F(GridEmulatorTest,
       OffByOneBlockIndexWritePastTheBufferIsReportedNotDone) {
  constexpr uint32_t kThreads = 32;
  constexpr uint32_t kBlocks = 4;
  // out[(block + 1) * threads + thread] = thread: the last block writes
  // one block past the end, into what the test keeps as a guard band.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Value* t = k.target.ThreadIndex(b, 0);
    llvm::Value* index = b.CreateAdd(
        b.CreateMul(b.CreateAdd(k.target.BlockIndex(b, 0), b.getInt32(1)),
                    k.target.BlockSize(b, 0)),
        t);
    b.CreateStore(t, k.Element(b.getInt32Ty(), k.pointers[0], index));
  };
  std::unique_ptr<LoadedKernel> kernel = Build(1, body, true);
  ASSERT_NE(kernel, nullptr);
  std::vector<int32_t> storage((kBlocks + 1) * kThreads, -7);
  const GridBuffer buffers[] = {
      {storage.data(), kBlocks * kThreads * 4, "out"}};
  Status status =
      RunGrid(kernel->entry(), Launch(kBlocks, kThreads), buffers, Checking(3));
  ASSERT_FALSE(status.ok()) << "the write past the end went unseen";
  EXPECT_EQ(status.code(), PHAL_OUT_OF_RANGE) << status.ToString();
  const std::string& message = status.message();
  EXPECT_NE(message.find("block (3,0,0)"), std::string::npos) << message;
  // Which thread of the block is caught first depends on the seed; its
  // offset is 512 + 4 * thread.
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      message, match,
      std::regex(
          R"(thread \((\d+),0,0\) writes 4 bytes at address 0x[0-9a-f]+, )"
          R"(offset (\d+) of buffer 0 "out" \(512 bytes\))")))
      << message;
  EXPECT_EQ(std::stoi(match[2]), 512 + 4 * std::stoi(match[1])) << message;
  for (uint32_t i = kBlocks * kThreads; i < storage.size(); ++i) {
    ASSERT_EQ(storage[i], -7) << "the guard band was written at " << i;
  }
}

TEST_F(GridEmulatorTest, WarpShuffleReductionSumsEachWarp) {
  constexpr uint32_t kThreads = 128;  // four warps of 32
  // Each warp sums its lanes' values by shuffling down 16, 8, 4, 2, 1;
  // lane 0 writes the warp's sum. Both i32 and f32 shuffles are used.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Value* t = k.GlobalThreadIndex();
    llvm::Value* i = b.CreateLoad(b.getInt32Ty(),
                                  k.Element(b.getInt32Ty(), k.pointers[0], t));
    llvm::Value* f = b.CreateSIToFP(i, b.getFloatTy());
    for (unsigned delta = 16; delta > 0; delta /= 2) {
      i = b.CreateAdd(i, k.target.ShuffleDown(b, i, delta));
      f = b.CreateFAdd(f, k.target.ShuffleDown(b, f, delta));
    }
    llvm::Value* warp = b.CreateUDiv(t, b.getInt32(32));
    k.If(b.CreateICmpEQ(b.CreateURem(t, b.getInt32(32)), b.getInt32(0)), [&] {
      b.CreateStore(i, k.Element(b.getInt32Ty(), k.pointers[1], warp));
      b.CreateStore(f, k.Element(b.getFloatTy(), k.pointers[2], warp));
    });
  };
  const std::vector<int32_t> in = Iota(kThreads);
  const std::vector<int32_t> expected = BlockSums(in, 32);
  for (bool check : {false, true}) {
    std::unique_ptr<LoadedKernel> kernel = Build(3, body, check);
    ASSERT_NE(kernel, nullptr);
    std::vector<int32_t> sums(4, 0);
    std::vector<float> float_sums(4, 0.0f);
    const GridBuffer buffers[] = {
        {const_cast<int32_t*>(in.data()), in.size() * 4, "in"},
        {sums.data(), 16, "sums"},
        {float_sums.data(), 16, "float_sums"}};
    Status status = RunGrid(kernel->entry(), Launch(1, kThreads), buffers,
                            check ? Checking(5) : GridOptions{});
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(sums, expected) << "check " << check;
    for (size_t w = 0; w < 4; ++w) {
      EXPECT_EQ(float_sums[w], static_cast<float>(expected[w]))
          << "warp " << w << ", check " << check;
    }
  }
}

TEST_F(GridEmulatorTest, ManyBlocksRunInParallelEachExactlyOnce) {
  constexpr uint32_t kThreads = 64;
  constexpr uint32_t kBlocks = 4096;
  // Every thread adds 1 to its own element and atomically to a counter:
  // a block run twice or never shows in either.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Value* element =
        k.Element(b.getInt32Ty(), k.pointers[0], k.GlobalThreadIndex());
    b.CreateStore(
        b.CreateAdd(b.CreateLoad(b.getInt32Ty(), element), b.getInt32(1)),
        element);
    b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, k.pointers[1], b.getInt64(1),
                      llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  };
  for (bool check : {false, true}) {
    std::unique_ptr<LoadedKernel> kernel = Build(2, body, check);
    ASSERT_NE(kernel, nullptr);
    std::vector<int32_t> counts(kThreads * kBlocks, 0);
    int64_t total = 0;
    const GridBuffer buffers[] = {{counts.data(), counts.size() * 4, "counts"},
                                  {&total, 8, "total"}};
    Status status = RunGrid(kernel->entry(), Launch(kBlocks, kThreads), buffers,
                            check ? Checking(9) : GridOptions{});
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(total, int64_t{kThreads} * kBlocks) << "check " << check;
    for (size_t i = 0; i < counts.size(); ++i) {
      ASSERT_EQ(counts[i], 1) << "thread " << i << ", check " << check;
    }
  }
}

TEST_F(GridEmulatorTest, BarrierOnlyHalfTheBlockReachesIsReportedNotHung) {
  // if (threadIdx.x < 16) barrier(): the other half finishes without it.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    k.If(b.CreateICmpULT(k.target.ThreadIndex(b, 0), b.getInt32(16)),
         [&] { k.target.Barrier(b); });
  };
  for (bool check : {false, true}) {
    std::unique_ptr<LoadedKernel> kernel = Build(0, body, check);
    ASSERT_NE(kernel, nullptr);
    Status status = RunGrid(kernel->entry(), Launch(2, 32), {},
                            check ? Checking(2) : GridOptions{});
    ASSERT_FALSE(status.ok()) << "the divergent barrier went unseen";
    EXPECT_EQ(status.code(), PHAL_FAILED_PRECONDITION) << status.ToString();
    EXPECT_NE(status.message().find("block (0,0,0)"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("divergent barrier"), std::string::npos)
        << status.message();
  }
}

TEST_F(GridEmulatorTest, ThreadsAtDifferentBarriersAreADivergence) {
  // if (threadIdx.x < 8) barrier() else barrier(): two places.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Function* function = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* low =
        llvm::BasicBlock::Create(b.getContext(), "low", function);
    llvm::BasicBlock* high =
        llvm::BasicBlock::Create(b.getContext(), "high", function);
    llvm::BasicBlock* after =
        llvm::BasicBlock::Create(b.getContext(), "after", function);
    b.CreateCondBr(b.CreateICmpULT(k.target.ThreadIndex(b, 0), b.getInt32(8)),
                   low, high);
    for (llvm::BasicBlock* side : {low, high}) {
      b.SetInsertPoint(side);
      k.target.Barrier(b);
      b.CreateBr(after);
    }
    b.SetInsertPoint(after);
  };
  std::unique_ptr<LoadedKernel> kernel = Build(0, body, false);
  ASSERT_NE(kernel, nullptr);
  Status status = RunGrid(kernel->entry(), Launch(1, 32), {}, GridOptions{});
  ASSERT_FALSE(status.ok()) << "the divergent barriers went unseen";
  EXPECT_NE(status.message().find("divergent barrier"), std::string::npos)
      << status.message();
}

TEST_F(GridEmulatorTest, ShuffleWhileALaneOfTheWarpWaitsAtABarrierIsADeadlock) {
  // Lane 0 waits at a barrier, the other lanes at a shuffle that needs it.
  const KernelBody body = [](KernelBuilder& k) {
    llvm::IRBuilder<>& b = k.builder;
    llvm::Function* function = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* first =
        llvm::BasicBlock::Create(b.getContext(), "first", function);
    llvm::BasicBlock* rest =
        llvm::BasicBlock::Create(b.getContext(), "rest", function);
    llvm::BasicBlock* after =
        llvm::BasicBlock::Create(b.getContext(), "after", function);
    b.CreateCondBr(b.CreateICmpEQ(k.target.ThreadIndex(b, 0), b.getInt32(0)),
                   first, rest);
    b.SetInsertPoint(first);
    k.target.Barrier(b);
    b.CreateBr(after);
    b.SetInsertPoint(rest);
    b.CreateStore(k.target.ShuffleDown(b, b.getInt32(1), 1), k.pointers[0]);
    b.CreateBr(after);
    b.SetInsertPoint(after);
  };
  std::unique_ptr<LoadedKernel> kernel = Build(1, body, false);
  ASSERT_NE(kernel, nullptr);
  int32_t sink = 0;
  const GridBuffer buffers[] = {{&sink, 4, "sink"}};
  Status status =
      RunGrid(kernel->entry(), Launch(1, 32), buffers, GridOptions{});
  ASSERT_FALSE(status.ok()) << "the deadlock went unseen";
  EXPECT_NE(status.message().find("deadlock"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("barrier"), std::string::npos)
      << status.message();
}

TEST_F(GridEmulatorTest, LaunchBeyondTheDeviceLimitsIsRefused) {
  std::unique_ptr<LoadedKernel> kernel = Build(
      0, [](KernelBuilder&) {}, false);
  ASSERT_NE(kernel, nullptr);
  Status too_many_threads =
      RunGrid(kernel->entry(), Launch(1, 2048), {}, GridOptions{});
  EXPECT_EQ(too_many_threads.code(), PHAL_INVALID_ARGUMENT)
      << too_many_threads.ToString();
  Status too_much_shared =
      RunGrid(kernel->entry(), Launch(1, 32, 64 * 1024), {}, GridOptions{});
  EXPECT_EQ(too_much_shared.code(), PHAL_INVALID_ARGUMENT)
      << too_much_shared.ToString();
}

TEST_F(GridEmulatorTest, KernelCallingAnUnlistedFunctionDoesNotLoad) {
  llvm::LLVMContext context;
  llvm::Module module("unlisted", context);
  target_->ConfigureModule(module);
  llvm::IRBuilder<> builder(context);
  target_->CreateKernel(module, kEntry, 0, builder);
  builder.CreateCall(
      module.getOrInsertFunction("phal_no_such_function", builder.getVoidTy()));
  builder.CreateRetVoid();
  StatusOr<std::string> object = target_->Compile(module, 2, false);
  ASSERT_TRUE(object.ok()) << object.status().ToString();
  StatusOr<GridKernel> kernel = LoadGridKernel(*object, kEntry, {});
  ASSERT_FALSE(kernel.ok()) << "an unresolved call loaded";
  EXPECT_NE(kernel.status().message().find("phal_no_such_function"),
            std::string::npos)
      << kernel.status().message();
}

}  // namespace
}  // namespace phal::llvm_emitter::grid
