// The SPMD emitter's own kernels on the grid emulator, and the same kernels
// broken on purpose: a block reduction without its barriers (which still
// sums right when threads run in order), an elementwise loop that runs one
// element past its end. Checking mode must catch both.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/device/device_library.h"
#include "sdk/emitters/llvm/grid/grid_emulator.h"
#include "sdk/emitters/llvm/grid/grid_emulator_target.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"

namespace phal::llvm_emitter::grid {
namespace {

using plugin_testing::BuildSum;

// Calls to the emulator's runtime function `name` in `module`.
std::vector<llvm::CallInst*> CallsTo(llvm::Module& module,
                                     const std::string& name) {
  std::vector<llvm::CallInst*> calls;
  llvm::Function* callee = module.getFunction(name);
  if (callee == nullptr) return calls;
  for (llvm::User* user : callee->users()) {
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user)) {
      calls.push_back(call);
    }
  }
  return calls;
}

// Emits `kernel` for the emulator, lets `breakage` edit the IR, compiles
// it for checking mode and runs it over `buffers`.
Status EmitBreakAndRun(const phal_kernel_desc_t& kernel,
                       const std::function<void(llvm::Module&)>& breakage,
                       std::vector<std::vector<float>>& buffers) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<GridEmulatorTarget> target,
                        GridEmulatorTarget::Create(GridLimits{}));
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(SpmdKernel emitted,
                        EmitSpmdKernel(kernel, *target, context));
  breakage(*emitted.module);
  PHAL_ASSIGN_OR_RETURN(std::string object,
                        target->Compile(*emitted.module, 2, true));
  PHAL_ASSIGN_OR_RETURN(
      GridKernel loaded,
      LoadGridKernel(object, kKernelSymbol, DeviceLibraryHostSymbols()));
  std::vector<GridBuffer> grid_buffers;
  for (std::vector<float>& buffer : buffers) {
    grid_buffers.push_back(
        {buffer.data(), buffer.size() * sizeof(float), std::string_view()});
  }
  GridOptions options;
  options.check = true;
  options.seed = 3;
  const Status status =
      RunGrid(loaded.entry, emitted.launch, grid_buffers, options);
  UnloadGridKernel(loaded);
  return status;
}

class SpmdOnGridTest : public ::testing::Test {
 protected:
  // Two rows of 5000 ones, reduced by a block per row.
  void SetUp() override {
    BuildSum(sum_, PHAL_ELEMENT_TYPE_F32, {2, 5000}, {1});
    buffers_ = {std::vector<float>(10000, 1.0f), std::vector<float>(2, 0.0f)};
  }

  KirKernel sum_{"test_kernel", PHAL_KERNEL_KIND_REDUCE};
  std::vector<std::vector<float>> buffers_;
};

TEST_F(SpmdOnGridTest, BlockReductionIsExactAndCleanInCheckingMode) {
  const Status status = EmitBreakAndRun(
      sum_.Desc(), [](llvm::Module&) {}, buffers_);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(buffers_[1][0], 5000.0f);
  EXPECT_EQ(buffers_[1][1], 5000.0f);
}

TEST_F(SpmdOnGridTest, BlockReductionWithoutItsBarriersIsReportedAsARace) {
  const Status status = EmitBreakAndRun(
      sum_.Desc(),
      [](llvm::Module& module) {
        const std::vector<llvm::CallInst*> barriers =
            CallsTo(module, "phal_grid_barrier");
        ASSERT_FALSE(barriers.empty());
        for (llvm::CallInst* barrier : barriers) barrier->eraseFromParent();
      },
      buffers_);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("race on shared memory"), std::string::npos)
      << status.message();
}

TEST(SpmdOnGrid, LoopRunningOnePastItsEndIsReportedOutOfBounds) {
  // out[i] = in[i] over 1000 f32.
  KirKernel copy("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t input = copy.AddBuffer(PHAL_ELEMENT_TYPE_F32, {1000});
  copy.outputs = {
      copy.AddBuffer(PHAL_ELEMENT_TYPE_F32, {1000}, PHAL_KIR_ACCESS_WRITE)};
  copy.dims = {1000};
  copy.body.AddResult(
      copy.body.Read(PHAL_ELEMENT_TYPE_F32, input, {copy.body.Index(0)}));
  std::vector<std::vector<float>> buffers = {std::vector<float>(1000, 2.0f),
                                             std::vector<float>(1000, 0.0f)};
  const Status status = EmitBreakAndRun(
      copy.Desc(),
      [](llvm::Module& module) {
        // i < 1000 becomes i <= 1000.
        int bounds = 0;
        for (llvm::Function& function : module) {
          for (llvm::Instruction& instruction : llvm::instructions(function)) {
            auto* compare = llvm::dyn_cast<llvm::ICmpInst>(&instruction);
            auto* limit =
                compare
                    ? llvm::dyn_cast<llvm::ConstantInt>(compare->getOperand(1))
                    : nullptr;
            if (limit != nullptr && limit->getSExtValue() == 1000 &&
                compare->getPredicate() == llvm::CmpInst::ICMP_SLT) {
              compare->setPredicate(llvm::CmpInst::ICMP_SLE);
              ++bounds;
            }
          }
        }
        ASSERT_EQ(bounds, 1);
      },
      buffers);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), PHAL_OUT_OF_RANGE) << status.message();
  EXPECT_NE(status.message().find("offset 4000"), std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace phal::llvm_emitter::grid
