// The kernel caches of the plugins when the disk fails them: a cache
// directory that cannot be created, a disk that is full, and entries that
// were cut short or changed. Compiles and runs must go on with correct
// results (`polyhal stress` checks each against the reference), the
// failure must be named in a warning, and a damaged entry must never reach
// a plugin's loader (docs/reliability.md, "Resource exhaustion").
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/testing/command_output.h"
#include "core/testing/temp_dir.h"

namespace phal {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunCommand;

const std::string kPolyhal = std::string(PHAL_TEST_BUILD_DIR) + "/bin/polyhal";

// A second of stress on one plugin over modules of three kernel kinds,
// every result checked against the reference. PoCL's own kernel cache is
// off, so that the intel plugin keeps programs in its disk cache
// (plugins/intel/intel_program_cache.h).
std::string StressCommand(const std::string& plugin,
                          const std::string& cache_directory) {
  return "PHAL_GPU_EMULATION=1 POCL_KERNEL_CACHE=0 PHAL_PLUGINS=" + plugin +
         " PHAL_CACHE_DIR=" + cache_directory + " " + kPolyhal +
         " stress --plugin " + plugin +
         " --filter add.f32.odd.random --filter reduce.add.f32.odd.random"
         " --filter dot.f32.odd.random --threads 2 --duration 1 --warmup 0.5";
}

std::vector<fs::path> CacheFiles(const std::string& directory) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(directory, error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

void WriteFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Each file damaged one of three ways: cut in half, one byte changed in
// the middle, or the same size of other bytes.
void DamageEveryFile(const std::vector<fs::path>& files) {
  for (size_t i = 0; i < files.size(); ++i) {
    std::string bytes = ReadFile(files[i]);
    switch (i % 3) {
      case 0:
        bytes.resize(bytes.size() / 2);
        break;
      case 1:
        bytes[bytes.size() / 2] ^= 0x40;
        break;
      default:
        bytes.assign(bytes.size(), '\x5a');
        break;
    }
    WriteFile(files[i], bytes);
  }
}

class KernelCacheFailure : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    testing::CommandOutput plugins = RunCommand(
        "PHAL_GPU_EMULATION=1 PHAL_PLUGINS=" + std::string(GetParam()) + " " +
        kPolyhal + " devices");
    ASSERT_EQ(plugins.exit_code, 0) << plugins.text;
    if (plugins.text.find("] " + std::string(GetParam()) + ":") ==
        std::string::npos) {
      GTEST_SKIP() << "plugin '" << GetParam() << "' has no device here";
    }
  }
};

TEST_P(KernelCacheFailure, DamagedEntriesAreRejectedAndCompiledAgain) {
  testing::TempDir cache;
  testing::CommandOutput first =
      RunCommand(StressCommand(GetParam(), cache.path()));
  ASSERT_EQ(first.exit_code, 0) << first.text;
  const std::vector<fs::path> files = CacheFiles(cache.path());
  ASSERT_FALSE(files.empty()) << "the plugin cached nothing";
  DamageEveryFile(files);

  testing::CommandOutput damaged =
      RunCommand(StressCommand(GetParam(), cache.path()));
  EXPECT_EQ(damaged.exit_code, 0) << damaged.text;
  EXPECT_THAT(damaged.text, HasSubstr("\nPASS\n"));
  EXPECT_THAT(damaged.text, HasSubstr("ignores and removes the damaged entry " +
                                      cache.path() + "/" + GetParam() + "/"));

  testing::CommandOutput repaired =
      RunCommand(StressCommand(GetParam(), cache.path()));
  EXPECT_EQ(repaired.exit_code, 0) << repaired.text;
  EXPECT_THAT(repaired.text, Not(HasSubstr("damaged entry")))
      << "the entries compiled again were stored whole";
}

TEST_P(KernelCacheFailure, ACacheDirectoryThatCannotBeCreatedIsAWarning) {
  testing::TempDir scratch;
  const std::string file = scratch.Write("a-file", "not a directory");
  testing::CommandOutput run =
      RunCommand(StressCommand(GetParam(), file + "/cache"));
  EXPECT_EQ(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("\nPASS\n"));
  EXPECT_THAT(run.text,
              HasSubstr("warning: disk cache: cannot create " + file +
                        "/cache/" + GetParam() + ": Not a directory"));
  EXPECT_THAT(run.text, HasSubstr("compiles still succeed"));
}

// A full disk: a file size limit of zero makes every write fail with EFBIG
// (SIGXFSZ ignored, as a full disk raises none).
TEST_P(KernelCacheFailure, AFullDiskLeavesNoEntryAndIsAWarning) {
  testing::TempDir cache;
  testing::CommandOutput run =
      RunCommand("sh -c \"trap '' XFSZ; ulimit -f 0; " +
                 StressCommand(GetParam(), cache.path()) + "\"");
  EXPECT_THAT(CacheFiles(cache.path()), ::testing::IsEmpty())
      << "neither entries nor temporary files are left";
  if (std::string(GetParam()) == "intel") {
    // PoCL compiles each program into a shared object in a file of its
    // own: on a full disk the compile itself fails, with a status.
    EXPECT_EQ(run.exit_code, 1) << run.text;
    EXPECT_THAT(run.text, HasSubstr("clBuildProgram failed"));
    return;
  }
  EXPECT_EQ(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("\nPASS\n"));
  EXPECT_THAT(run.text, HasSubstr("warning: disk cache: cannot write " +
                                  cache.path() + "/" + GetParam() + "/"));
  EXPECT_THAT(run.text, HasSubstr("File too large"));
}

// Every plugin that keeps a disk cache. intel (PoCL) compiles slowly, but
// the three small modules here take it about a second a run.
INSTANTIATE_TEST_SUITE_P(
    Plugins, KernelCacheFailure,
    ::testing::Values("cpu", "asic-ref", "arm", "intel", "nvidia", "amd"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      std::string name = info.param;
      name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
      return name;
    });

}  // namespace
}  // namespace phal
