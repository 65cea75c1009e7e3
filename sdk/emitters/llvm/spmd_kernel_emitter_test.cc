// The SPMD emitter's launches and its NVPTX output. That the kernels compute
// what the reference computes is certified on the grid emulator by the
// nvidia plugin's conformance run; here: the shapes, and PTX that NVIDIA's
// assembler accepts (where the CUDA toolkit is installed).
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/nvptx_target.h"
#include "sdk/emitters/llvm/spmd_test_kernels.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"

namespace phal::llvm_emitter {
namespace {

using plugin_testing::BuildMatmul;
using plugin_testing::BuildSort;
using plugin_testing::BuildSum;

class SpmdKernelEmitterTest : public ::testing::Test {
 protected:
  SpmdTestKernels kernels_;
};

TEST_F(SpmdKernelEmitterTest, TilesADotIntoSixteenBySixteenBlocks) {
  auto target = NvptxTarget::Create(80);
  ASSERT_TRUE(target.ok()) << target.status().message();
  BuildMatmul(kernels_.matmul, PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F32, 33,
              17, 70);
  llvm::LLVMContext context;
  auto kernel = EmitSpmdKernel(kernels_.matmul.Desc(), **target, context);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  const SpmdLaunch& launch = kernel->launch;
  EXPECT_EQ(launch.grid[0], 2u);  // 17 columns
  EXPECT_EQ(launch.grid[1], 3u);  // 33 rows
  EXPECT_EQ(launch.grid[2], 1u);
  EXPECT_EQ(launch.block[0], 16u);
  EXPECT_EQ(launch.block[1], 16u);
  // Two 16 x 17 f32 tiles and their (unused) valid bytes.
  EXPECT_GE(launch.shared_bytes, 2u * 16 * 17 * 4);
  EXPECT_EQ(launch.scratch_bytes, 0u);
}

TEST_F(SpmdKernelEmitterTest, ReducesLongRowsWithABlockPerOutput) {
  auto target = NvptxTarget::Create(80);
  ASSERT_TRUE(target.ok()) << target.status().message();
  BuildSum(kernels_.long_sum, PHAL_ELEMENT_TYPE_F32, {4, 5000}, {1});
  BuildSum(kernels_.short_sum, PHAL_ELEMENT_TYPE_F32, {300, 7}, {1});
  llvm::LLVMContext context;
  auto long_kernel =
      EmitSpmdKernel(kernels_.long_sum.Desc(), **target, context);
  ASSERT_TRUE(long_kernel.ok()) << long_kernel.status().message();
  EXPECT_EQ(long_kernel->launch.grid[0], 4u);
  EXPECT_EQ(long_kernel->launch.block[0], 128u);
  EXPECT_GT(long_kernel->launch.shared_bytes, 0u);
  auto short_kernel =
      EmitSpmdKernel(kernels_.short_sum.Desc(), **target, context);
  ASSERT_TRUE(short_kernel.ok()) << short_kernel.status().message();
  EXPECT_EQ(short_kernel->launch.shared_bytes, 0u);
  EXPECT_EQ(
      short_kernel->launch.grid[0] * short_kernel->launch.block[0] >= 300u,
      true);
}

TEST_F(SpmdKernelEmitterTest, SortsInScratchMemoryOfTheLaunch) {
  auto target = NvptxTarget::Create(80);
  ASSERT_TRUE(target.ok()) << target.status().message();
  BuildSort(kernels_.sort, {PHAL_ELEMENT_TYPE_S32}, {5, 100}, 1);
  llvm::LLVMContext context;
  auto kernel = EmitSpmdKernel(kernels_.sort.Desc(), **target, context);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  // Five slices, each with two permutations of 100 indices and a copy.
  EXPECT_GE(kernel->launch.scratch_bytes, 5u * 100 * (16 + 4));
  // The scratch buffer is the kernel's last parameter.
  EXPECT_EQ(kernel->module->getFunction("phal_kernel")->arg_size(), 3u);
}

TEST(NvptxTargetTest, RefusesComputeCapabilitiesOutsideItsRange) {
  auto target = NvptxTarget::Create(100);
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_NE(target.status().message().find("sm_100"), std::string::npos);
}

// The CUDA toolkit's assembler, where it is installed.
std::string FindPtxas() {
  for (const char* candidate : {"/usr/local/cuda/bin/ptxas"}) {
    if (std::filesystem::exists(candidate)) return candidate;
  }
  if (std::system("command -v ptxas > /dev/null 2>&1") == 0) return "ptxas";
  return "";
}

TEST_F(SpmdKernelEmitterTest, EmitsPtxThatPtxasAssemblesForSm80AndSm90) {
  const std::string ptxas = FindPtxas();
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("phal_spmd_ptx_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const std::vector<NamedKernel> kernels = kernels_.BuildEveryShape();
  for (unsigned capability : {80u, 90u}) {
    auto target = NvptxTarget::Create(capability);
    ASSERT_TRUE(target.ok()) << target.status().message();
    for (const NamedKernel& named : kernels) {
      SCOPED_TRACE(named.name + " for " + (*target)->arch());
      llvm::LLVMContext context;
      auto kernel = EmitSpmdKernel(named.desc(), **target, context);
      ASSERT_TRUE(kernel.ok()) << kernel.status().message();
      auto ptx = (*target)->CompileToPtx(*kernel->module);
      ASSERT_TRUE(ptx.ok()) << ptx.status().message();
      EXPECT_NE(ptx->find(".target " + (*target)->arch()), std::string::npos);
      EXPECT_NE(ptx->find(".version " + (*target)->ptx_version()),
                std::string::npos);
      EXPECT_NE(ptx->find(".entry phal_kernel"), std::string::npos);
      // No call is left for a driver to resolve: the device library is in.
      EXPECT_EQ(ptx->find(".extern .func"), std::string::npos) << *ptx;
      if (ptxas.empty()) continue;
      const std::filesystem::path file =
          directory / (named.name + "_" + (*target)->arch() + ".ptx");
      std::ofstream(file) << *ptx;
      const std::string command = ptxas + " -arch=" + (*target)->arch() +
                                  " -o /dev/null " + file.string() + " 2>&1";
      EXPECT_EQ(std::system(command.c_str()), 0) << command;
    }
  }
  std::filesystem::remove_all(directory);
  if (ptxas.empty()) {
    GTEST_SKIP() << "ptxas (the CUDA toolkit) is not installed: the PTX was "
                    "emitted and checked for its target, not assembled";
  }
}

}  // namespace
}  // namespace phal::llvm_emitter
