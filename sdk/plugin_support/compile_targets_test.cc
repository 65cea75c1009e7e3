// The ahead-of-time helpers of the vendor kit: target lookup, the
// compile-only refusal, and kernel dumps.
#include "sdk/plugin_support/compile_targets.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace phal {
namespace {

constexpr const char* kTargets[] = {"sm_75", "sm_80", "sm_90"};

TEST(FindCompileTarget, NullAndEmptyNameTheDefaultTarget) {
  EXPECT_EQ(*FindCompileTarget(kTargets, nullptr, "acme plugin"), 0u);
  EXPECT_EQ(*FindCompileTarget(kTargets, "", "acme plugin"), 0u);
  EXPECT_EQ(*FindCompileTarget(kTargets, "sm_90", "acme plugin"), 2u);
}

TEST(FindCompileTarget, UnknownTargetIsNotFoundListingTheTargets) {
  StatusOr<size_t> found = FindCompileTarget(kTargets, "sm_50", "acme plugin");
  EXPECT_EQ(found.status().code(), PHAL_NOT_FOUND);
  EXPECT_EQ(found.status().message(),
            "acme plugin: no target 'sm_50'; the targets are sm_75, sm_80, "
            "sm_90");
}

TEST(CompileOnlyDeviceError, IsAFailedPreconditionNamingTheTarget) {
  Status error =
      CompileOnlyDeviceError("acme plugin", "sm_80", "create streams");
  EXPECT_EQ(error.code(), PHAL_FAILED_PRECONDITION);
  EXPECT_EQ(error.message(),
            "acme plugin: the device is compile-only (target 'sm_80'); it "
            "cannot create streams");
}

TEST(KernelDumpDirectory, IsAbsentBeyondTheCallersStructSize) {
  phal_kernel_options_t options{};
  options.struct_size = sizeof(options);
  options.dump_directory = "/tmp/dump";
  EXPECT_EQ(KernelDumpDirectory(&options), "/tmp/dump");
  options.struct_size = offsetof(phal_kernel_options_t, dump_directory);
  EXPECT_EQ(KernelDumpDirectory(&options), "") << "a 1.1 core's options";
  EXPECT_EQ(KernelDumpDirectory(nullptr), "");
}

TEST(WriteKernelDump, WritesOneFileNamedAfterTheKernel) {
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / "phal-compile-targets-test";
  std::filesystem::create_directories(directory);
  ASSERT_TRUE(
      WriteKernelDump(directory.string(), "fusion/3 x", "ptx", "text").ok());
  std::ifstream file(directory / "fusion_3_x.ptx");
  std::ostringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(), "text");
  EXPECT_TRUE(WriteKernelDump("", "k", "ptx", "ignored").ok());
  Status failed =
      WriteKernelDump((directory / "missing").string(), "k", "ptx", "text");
  EXPECT_EQ(failed.code(), PHAL_UNAVAILABLE);
  EXPECT_NE(failed.message().find("missing/k.ptx"), std::string::npos);
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace phal
