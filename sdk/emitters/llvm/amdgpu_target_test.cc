// The AMDGPU SPMD target: its architectures, and the code objects it makes
// of kernels of every shape, read back from the ELF header and, where LLVM
// 16's llvm-readobj is installed, from the metadata notes a runtime loads.
// That the kernels compute what the reference computes is certified on the
// grid emulator by the amd plugin's conformance run.
#include "sdk/emitters/llvm/amdgpu_target.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/emitters/llvm/spmd_test_kernels.h"

namespace phal::llvm_emitter {
namespace {

using plugin_testing::BuildSum;

// ELF facts of an AMDGPU code object (the ELF and AMDGPUUsage specs).
constexpr unsigned char kOsAbiAmdgpuHsa = 64;
constexpr uint16_t kElfTypeSharedObject = 3;
constexpr uint16_t kElfMachineAmdgpu = 224;
// EI_ABIVERSION names the code-object version: 2 for version 4.
constexpr unsigned char kAbiVersionOfCodeObjectV4 = 2;

uint16_t ReadU16(const std::string& bytes, size_t offset) {
  return static_cast<uint16_t>(static_cast<unsigned char>(bytes[offset]) |
                               static_cast<unsigned char>(bytes[offset + 1])
                                   << 8);
}

// The output of `command`, empty when it failed.
std::string RunAndRead(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string output;
  char chunk[4096];
  size_t count;
  while ((count = fread(chunk, 1, sizeof chunk, pipe)) > 0) {
    output.append(chunk, count);
  }
  return pclose(pipe) == 0 ? output : "";
}

// The unsigned integer after `key` in llvm-readobj's YAML rendering of the
// notes, or -1.
long NoteNumber(const std::string& notes, const std::string& key) {
  std::smatch match;
  if (!std::regex_search(notes, match, std::regex(key + R"(:\s+(\d+))"))) {
    return -1;
  }
  return std::stol(match[1]);
}

size_t CountOf(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// out = exp(in) over c64[64]: the device library's complex functions return
// their result through a pointer to the calling thread's private memory.
void BuildComplexExp(KirKernel& loop) {
  const phal_element_type_t c64 = PHAL_ELEMENT_TYPE_C64;
  const uint32_t input = loop.AddBuffer(c64, {64});
  loop.outputs = {loop.AddBuffer(c64, {64}, PHAL_KIR_ACCESS_WRITE)};
  loop.dims = {64};
  const uint32_t x = loop.body.Read(c64, input, {loop.body.Index(0)});
  loop.body.AddResult(loop.body.Add(PHAL_KIR_OP_EXP, c64, {x}));
}

TEST(AmdgpuTargetTest, RunsWave64OnCdnaAndWave32OnRdna) {
  const std::pair<const char*, unsigned> expected[] = {{"gfx908", 64},
                                                       {"gfx90a", 64},
                                                       {"gfx940", 64},
                                                       {"gfx1030", 32},
                                                       {"gfx1100", 32}};
  for (const auto& [arch, wave_size] : expected) {
    auto target = AmdgpuTarget::Create(arch);
    ASSERT_TRUE(target.ok()) << arch << ": " << target.status().message();
    EXPECT_EQ((*target)->arch(), arch);
    EXPECT_EQ((*target)->WarpSize(), wave_size) << arch;
    EXPECT_EQ((*target)->MaxBlockSize(), 1024u) << arch;
    EXPECT_EQ((*target)->MaxSharedBytes(), 64u * 1024) << arch;
  }
}

TEST(AmdgpuTargetTest, RefusesArchitecturesLlvm16DoesNotKnow) {
  auto target = AmdgpuTarget::Create("gfx942");
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_NE(target.status().message().find("gfx942"), std::string::npos)
      << target.status().message();
}

class AmdgpuCodeObjectTest : public ::testing::Test {
 protected:
  SpmdTestKernels kernels_;
};

TEST_F(AmdgpuCodeObjectTest, AssemblyUsesLdsPermutesAndBarriersForAReduction) {
  BuildSum(kernels_.long_sum, PHAL_ELEMENT_TYPE_F32, {4, 5000}, {1});
  for (const char* arch : {"gfx90a", "gfx1100"}) {
    SCOPED_TRACE(arch);
    auto target = AmdgpuTarget::Create(arch);
    ASSERT_TRUE(target.ok()) << target.status().message();
    llvm::LLVMContext context;
    auto kernel = EmitSpmdKernel(kernels_.long_sum.Desc(), **target, context);
    ASSERT_TRUE(kernel.ok()) << kernel.status().message();
    ASSERT_GT(kernel->launch.shared_bytes, 0u);
    auto assembly = (*target)->CompileToAssembly(*kernel->module);
    ASSERT_TRUE(assembly.ok()) << assembly.status().message();
    EXPECT_NE(assembly->find(".amdhsa_kernel phal_kernel"), std::string::npos);
    EXPECT_NE(assembly->find(std::string("amdgcn-amd-amdhsa--") + arch),
              std::string::npos);
    EXPECT_NE(assembly->find("ds_bpermute_b32"), std::string::npos)
        << "the warp shuffles are cross-lane permutes";
    EXPECT_NE(assembly->find("s_barrier"), std::string::npos);
    // ds_write on gfx9, ds_store on gfx11.
    EXPECT_TRUE(std::regex_search(*assembly, std::regex("ds_(write|store)_b")))
        << "the block's partial results go through LDS";
  }
}

TEST_F(AmdgpuCodeObjectTest, PassesPrivateMemoryToComplexFunctions) {
  BuildComplexExp(kernels_.loop);
  auto target = AmdgpuTarget::Create("gfx90a");
  ASSERT_TRUE(target.ok()) << target.status().message();
  llvm::LLVMContext context;
  auto kernel = EmitSpmdKernel(kernels_.loop.Desc(), **target, context);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  EXPECT_FALSE(llvm::verifyModule(*kernel->module, &stream)) << problems;
  auto code_object = (*target)->CompileToCodeObject(*kernel->module);
  EXPECT_TRUE(code_object.ok()) << code_object.status().message();
}

TEST(AmdgpuConcurrencyTest, OneTargetCompilesOnManyThreadsAtOnce) {
  auto target = AmdgpuTarget::Create("gfx1100");
  ASSERT_TRUE(target.ok()) << target.status().message();
  constexpr int kThreads = 4;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      // Each thread its own kernel, context and module, as the plugin's.
      KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
      BuildExpLoop(loop, {64, 10 + i});
      llvm::LLVMContext context;
      auto kernel = EmitSpmdKernel(loop.Desc(), **target, context);
      if (!kernel.ok()) {
        failures[i] = kernel.status().message();
        return;
      }
      auto code_object = (*target)->CompileToCodeObject(*kernel->module);
      if (!code_object.ok()) failures[i] = code_object.status().message();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(failures[i], "") << "thread " << i;
  }
}

TEST_F(AmdgpuCodeObjectTest, CompilesEveryShapeToCodeObjectsTheNotesDescribe) {
  const std::string readobj = PHAL_LLVM_READOBJ_PATH;
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("phal_amdgpu_hsaco_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const std::vector<NamedKernel> kernels = kernels_.BuildEveryShape();
  for (const char* arch : {"gfx90a", "gfx940", "gfx1100"}) {
    auto target = AmdgpuTarget::Create(arch);
    ASSERT_TRUE(target.ok()) << target.status().message();
    for (const NamedKernel& named : kernels) {
      SCOPED_TRACE(named.name + " for " + arch);
      llvm::LLVMContext context;
      auto kernel = EmitSpmdKernel(named.desc(), **target, context);
      ASSERT_TRUE(kernel.ok()) << kernel.status().message();
      std::string problems;
      llvm::raw_string_ostream stream(problems);
      ASSERT_FALSE(llvm::verifyModule(*kernel->module, &stream)) << problems;
      auto code_object = (*target)->CompileToCodeObject(*kernel->module);
      ASSERT_TRUE(code_object.ok()) << code_object.status().message();

      ASSERT_GT(code_object->size(), 64u);
      EXPECT_EQ(code_object->substr(0, 4),
                "\x7f"
                "ELF");
      EXPECT_EQ(static_cast<unsigned char>((*code_object)[7]), kOsAbiAmdgpuHsa);
      EXPECT_EQ(static_cast<unsigned char>((*code_object)[8]),
                kAbiVersionOfCodeObjectV4)
          << "the code object declares version "
          << AmdgpuTarget::kCodeObjectVersion;
      EXPECT_EQ(ReadU16(*code_object, 16), kElfTypeSharedObject);
      EXPECT_EQ(ReadU16(*code_object, 18), kElfMachineAmdgpu);
      if (readobj.empty()) continue;

      const std::filesystem::path file =
          directory / (named.name + "_" + arch + ".hsaco");
      std::ofstream(file, std::ios::binary) << *code_object;
      const std::string notes =
          RunAndRead(readobj + " --notes " + file.string() + " 2>&1");
      ASSERT_NE(notes.find("NT_AMDGPU_METADATA"), std::string::npos) << notes;
      EXPECT_TRUE(
          std::regex_search(notes, std::regex(R"(\.name:\s+phal_kernel\n)")))
          << notes;
      EXPECT_TRUE(std::regex_search(
          notes,
          std::regex(std::string(R"(amdhsa\.target:\s+amdgcn-amd-amdhsa--)") +
                     arch + "\n")))
          << notes;
      EXPECT_EQ(NoteNumber(notes, R"(\.wavefront_size)"),
                static_cast<long>((*target)->WarpSize()))
          << notes;
      // Every pointer the kernel takes is a global buffer argument.
      const unsigned pointers =
          kernel->module->getFunction("phal_kernel")->arg_size();
      EXPECT_EQ(CountOf(notes, "global_buffer"), pointers) << notes;
      const long lds = NoteNumber(notes, R"(\.group_segment_fixed_size)");
      EXPECT_GE(lds, static_cast<long>(kernel->launch.shared_bytes)) << notes;
      EXPECT_LE(lds, static_cast<long>((*target)->MaxSharedBytes())) << notes;
      EXPECT_GE(
          NoteNumber(notes, R"(\.max_flat_workgroup_size)"),
          static_cast<long>(kernel->launch.block[0] * kernel->launch.block[1] *
                            kernel->launch.block[2]))
          << notes;
    }
  }
  std::filesystem::remove_all(directory);
  if (readobj.empty()) {
    GTEST_SKIP() << "llvm-readobj-16 (llvm-16) is not installed: the code "
                    "objects were linked and their ELF headers checked, their "
                    "notes not read";
  }
}

}  // namespace
}  // namespace phal::llvm_emitter
