// The disk cache of executables: a later client (standing for a later
// process) compiling the same text loads the executable its predecessor
// stored, without emitting a kernel; a damaged or refused entry is compiled
// again and stored over; PHAL_CACHE_DIR=off stores nothing.
#include "core/runtime/executable_cache.h"
#include "core/loader/testing/manifests.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/runtime/device.h"
#include "core/runtime/program_cache.h"
#include "core/testing/scoped_env.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"

namespace phal {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;
using testing::ScopedEnv;

const char kModule[] =
    "HloModule twice\n"
    "ENTRY main {\n"
    "  x = f32[8] parameter(0)\n"
    "  ROOT y = f32[8] add(x, x)\n"
    "}\n";

void Capture(void* user_data, phal_log_level_t, const char* message) {
  static_cast<std::vector<std::string>*>(user_data)->push_back(message);
}

class ExecutableCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    plugins_.Write("cpu.json", testing::CpuManifest());
    ProgramCache::Global().Clear();
  }
  void TearDown() override { ProgramCache::Global().Clear(); }

  // Compiles kModule with a new client (the program cache emptied first,
  // as in a new process), runs it and returns what the client logged.
  std::vector<std::string> CompileInANewClient() {
    ProgramCache::Global().Clear();
    std::vector<std::string> log;
    const std::string path = plugins_.path();
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    options.log_callback = Capture;
    options.log_user_data = &log;
    Result<Client> client = Client::Create(&options);
    EXPECT_TRUE(client.ok()) << client.error().ToString();
    if (!client.ok()) return log;
    Device device = client->Devices().at(0);
    Result<Executable> executable = Executable::Compile(device, kModule);
    EXPECT_TRUE(executable.ok()) << executable.error().ToString();
    if (!executable.ok()) return log;
    Result<Buffer> x = Buffer::Allocate(device, PHAL_ELEMENT_TYPE_F32, {8});
    EXPECT_TRUE(x.ok());
    std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, -8};
    EXPECT_TRUE(x->CopyFromHost(values.data(), 32).ok());
    std::vector<Buffer> arguments;
    arguments.push_back(std::move(*x));
    Result<std::vector<Buffer>> results = executable->Execute(arguments);
    EXPECT_TRUE(results.ok()) << results.error().ToString();
    if (results.ok()) {
      std::vector<float> out(8);
      EXPECT_TRUE((*results)[0].CopyToHost(out.data(), 32).ok());
      EXPECT_EQ(out, (std::vector<float>{2, 4, 6, 8, 10, 12, 14, -16}));
    }
    return log;
  }

  std::vector<fs::path> Entries() const {
    std::vector<fs::path> entries;
    std::error_code error;
    for (const auto& entry :
         fs::directory_iterator(cache_.path() + "/executables", error)) {
      if (entry.is_regular_file()) entries.push_back(entry.path());
    }
    return entries;
  }

  // Whether the cpu plugin emitted a kernel (from any of its caches or
  // compiled) while `log` was written.
  static bool EmittedAKernel(const std::vector<std::string>& log) {
    for (const std::string& line : log) {
      if (line.find("cpu plugin: kernel '") != std::string::npos) return true;
    }
    return false;
  }

  testing::TempDir plugins_;
  testing::TempDir cache_;
  ScopedEnv log_level_{"PHAL_LOG", "debug"};
  ScopedEnv cache_dir_{"PHAL_CACHE_DIR", cache_.path()};
};

TEST_F(ExecutableCacheTest, ALaterClientLoadsTheStoredExecutable) {
  EXPECT_TRUE(EmittedAKernel(CompileInANewClient()));
  ASSERT_EQ(Entries().size(), 1u);
  EXPECT_FALSE(EmittedAKernel(CompileInANewClient()))
      << "the second client loads the executable from disk";
  EXPECT_EQ(Entries().size(), 1u);
}

TEST_F(ExecutableCacheTest, ADamagedEntryIsAWarningAndCompiledAgain) {
  CompileInANewClient();
  ASSERT_EQ(Entries().size(), 1u);
  const fs::path entry = Entries()[0];
  {
    std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(fs::file_size(entry) / 2));
    file.put('\x5a');
  }
  std::vector<std::string> log = CompileInANewClient();
  EXPECT_TRUE(EmittedAKernel(log));
  EXPECT_THAT(log, Contains(HasSubstr("disk cache:")));
  // Stored over: the next client loads it again.
  EXPECT_FALSE(EmittedAKernel(CompileInANewClient()));
}

TEST_F(ExecutableCacheTest, AnEntryThePluginRefusesIsCompiledAgain) {
  // A sound entry (both hashes hold) whose bytes are no executable.
  {
    const std::string path = plugins_.path();
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    Result<Client> client = Client::Create(&options);
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    const phal_device& device = *client->Devices().at(0).get();
    const std::string key = ProgramCache::Key(
        kModule, PHAL_PROGRAM_FORMAT_HLO_TEXT, "<program>",
        CompilerOptionsForDevice(device.properties, device.api->abi_version));
    ExecutableCache().Store(key, 3, device, "not an executable");
  }
  ASSERT_EQ(Entries().size(), 1u);
  std::vector<std::string> log = CompileInANewClient();
  EXPECT_TRUE(EmittedAKernel(log));
  EXPECT_THAT(log, Contains(HasSubstr("executable cache: compiling again")));
  // Stored over: the next client loads it.
  EXPECT_FALSE(EmittedAKernel(CompileInANewClient()));
  EXPECT_EQ(Entries().size(), 1u);
}

TEST_F(ExecutableCacheTest, CacheDirOffStoresNothing) {
  ScopedEnv off("PHAL_CACHE_DIR", "off");
  EXPECT_TRUE(EmittedAKernel(CompileInANewClient()));
  EXPECT_TRUE(EmittedAKernel(CompileInANewClient()));
  EXPECT_TRUE(Entries().empty());
}

}  // namespace
}  // namespace phal
