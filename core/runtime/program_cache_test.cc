// The process's program cache: a module compiled again skips the parse and
// the passes, on any device, and the cache keeps to its limits.
#include "core/runtime/program_cache.h"
#include "core/loader/testing/manifests.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/scoped_env.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"

namespace phal {
namespace {

// A module scaling its parameter by `factor`.
std::string Scale(int factor) {
  return "HloModule scale\n"
         "ENTRY main {\n"
         "  x = f32[4] parameter(0)\n"
         "  k = f32[] constant(" +
         std::to_string(factor) +
         ")\n"
         "  b = f32[4] broadcast(k), dimensions={}\n"
         "  ROOT y = f32[4] multiply(x, b)\n"
         "}\n";
}

class ProgramCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ProgramCache::Global().Clear();
    dir_.Write("cpu.json", testing::CpuManifest());
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    const std::string path = dir_.path();
    options.plugin_path = path.c_str();
    Result<Client> client = Client::Create(&options);
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    client_ = std::move(*client);
    ASSERT_EQ(client_.Devices().size(), 1u);
    device_ = client_.Devices()[0];
  }
  void TearDown() override { ProgramCache::Global().Clear(); }

  // Runs `executable` on {1, 2, 3, 4}.
  std::vector<float> Run(Executable& executable) {
    Result<Buffer> x = Buffer::Allocate(device_, PHAL_ELEMENT_TYPE_F32, {4});
    EXPECT_TRUE(x.ok());
    const std::vector<float> values = {1, 2, 3, 4};
    EXPECT_TRUE(x->CopyFromHost(values.data(), 16).ok());
    std::vector<Buffer> arguments;
    arguments.push_back(std::move(*x));
    Result<std::vector<Buffer>> results = executable.Execute(arguments);
    EXPECT_TRUE(results.ok()) << results.error().ToString();
    std::vector<float> out(4);
    if (results.ok()) {
      EXPECT_TRUE((*results)[0].CopyToHost(out.data(), 16).ok());
    }
    return out;
  }

  // Executables from disk would leave the program cache out.
  testing::ScopedEnv no_disk_cache_{"PHAL_CACHE_DIR", "off"};
  testing::TempDir dir_;
  Client client_;
  Device device_;
};

TEST_F(ProgramCacheTest, TheSameTextCompilesOnceAndBothExecutablesRun) {
  Result<Executable> first = Executable::Compile(device_, Scale(2));
  ASSERT_TRUE(first.ok()) << first.error().ToString();
  EXPECT_EQ(ProgramCache::Global().size(), 1u);
  Result<Executable> second = Executable::Compile(device_, Scale(2));
  ASSERT_TRUE(second.ok()) << second.error().ToString();
  EXPECT_EQ(ProgramCache::Global().size(), 1u);
  // The first executable freed, the shared program lives on in the second.
  EXPECT_EQ(Run(*first), (std::vector<float>{2, 4, 6, 8}));
  *first = Executable();
  EXPECT_EQ(Run(*second), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(ProgramCacheTest, AnotherTextFormatOrSourceNameIsAnotherProgram) {
  ASSERT_TRUE(Executable::Compile(device_, Scale(2)).ok());
  Result<Executable> three = Executable::Compile(device_, Scale(3));
  ASSERT_TRUE(three.ok()) << three.error().ToString();
  EXPECT_EQ(Run(*three), (std::vector<float>{3, 6, 9, 12}));
  ASSERT_TRUE(Executable::Compile(device_, Scale(2),
                                  PHAL_PROGRAM_FORMAT_HLO_TEXT, "named.hlo")
                  .ok());
  EXPECT_EQ(ProgramCache::Global().size(), 3u);
  // The same text read as StableHLO is an error every time, and never kept.
  for (int i = 0; i < 2; ++i) {
    EXPECT_FALSE(Executable::Compile(device_, Scale(2),
                                     PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT)
                     .ok());
  }
  EXPECT_EQ(ProgramCache::Global().size(), 3u);
}

TEST_F(ProgramCacheTest, ACompileThatDumpsRunsThePassesAndKeepsNothing) {
  testing::TempDir dump;
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  const std::string directory = dump.path();
  options.dump_directory = directory.c_str();
  const std::string text = Scale(2);
  phal_executable_t* executable = nullptr;
  phal_status_t* status = phal_executable_compile(
      device_.get(), text.data(), text.size(), &options, &executable);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  phal_executable_free(executable);
  EXPECT_EQ(ProgramCache::Global().size(), 0u);
}

// Threads sharing one cached program emit its kernels at once: the
// program is read-only once compiled (scripts/test.sh --tsan runs this).
TEST_F(ProgramCacheTest, EightThreadsCompileAndRunTheSameTextAtOnce) {
  ASSERT_TRUE(Executable::Compile(device_, Scale(5)).ok());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        Result<Executable> executable = Executable::Compile(device_, Scale(5));
        if (!executable.ok() ||
            Run(*executable) != std::vector<float>{5, 10, 15, 20}) {
          ++wrong;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(ProgramCache::Global().size(), 1u);
}

TEST(ProgramCacheKey, CoversWhetherTheDeviceRunsFftKernels) {
  CompilerOptions decomposed;
  CompilerOptions fft_kernels;
  fft_kernels.fft_kernels = true;
  EXPECT_NE(ProgramCache::Key("text", PHAL_PROGRAM_FORMAT_HLO_TEXT, "m.hlo",
                              decomposed),
            ProgramCache::Key("text", PHAL_PROGRAM_FORMAT_HLO_TEXT, "m.hlo",
                              fft_kernels))
      << "a program with FFT kernels runs only on devices that take them";
}

TEST(ProgramCacheKey, CoversWhetherTheDeviceRunsLinalgKernels) {
  CompilerOptions expanded;
  CompilerOptions linalg_kernels;
  linalg_kernels.linalg_kernels = true;
  EXPECT_NE(ProgramCache::Key("text", PHAL_PROGRAM_FORMAT_HLO_TEXT, "m.hlo",
                              expanded),
            ProgramCache::Key("text", PHAL_PROGRAM_FORMAT_HLO_TEXT, "m.hlo",
                              linalg_kernels))
      << "a program with LINALG kernels runs only on devices that take them";
}

TEST(ProgramCacheLimits, TheEntryUsedLongestAgoIsDroppedFirst) {
  ProgramCache cache;
  for (std::size_t i = 0; i <= ProgramCache::kMaxEntries; ++i) {
    cache.Store("key " + std::to_string(i), std::make_shared<Program>());
    // Key 0 used after every store but the last stays; key 1 goes.
    if (i + 1 < ProgramCache::kMaxEntries) {
      EXPECT_NE(cache.Find("key 0"), nullptr);
    }
  }
  EXPECT_EQ(cache.size(), ProgramCache::kMaxEntries);
  EXPECT_NE(cache.Find("key 0"), nullptr);
  EXPECT_EQ(cache.Find("key 1"), nullptr);
  EXPECT_NE(cache.Find("key 2"), nullptr);
}

TEST(ProgramCacheLimits, ProgramsBeyondTheByteLimitAreNotKept) {
  ProgramCache cache;
  auto large = std::make_shared<Program>();
  large->constants.emplace_back(Shape(
      PHAL_ELEMENT_TYPE_U8, {static_cast<int64_t>(ProgramCache::kMaxBytes)}));
  cache.Store("large", large);
  EXPECT_EQ(cache.Find("large"), nullptr);
  // Two halves fit one at a time: the second pushes the first out.
  auto half = [] {
    auto program = std::make_shared<Program>();
    program->constants.emplace_back(
        Shape(PHAL_ELEMENT_TYPE_U8,
              {static_cast<int64_t>(ProgramCache::kMaxBytes / 2)}));
    return program;
  };
  cache.Store("half 1", half());
  cache.Store("half 2", half());
  EXPECT_EQ(cache.Find("half 1"), nullptr);
  EXPECT_NE(cache.Find("half 2"), nullptr);
}

}  // namespace
}  // namespace phal
