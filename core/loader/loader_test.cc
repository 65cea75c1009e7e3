// The loader, driven through the C API against real broken plugins and
// manifests: every reason a plugin can be skipped is reported exactly, and
// none of them fails the client.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/abi/c_status.h"
#include "core/loader/plugin_stubs.h"
#include "core/loader/testing/manifests.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// Every plugin's manifest here gives the release 9.9.
std::string Manifest(const std::string& name, const std::string& library,
                     const std::string& abi = "1.0") {
  return testing::PluginManifest(name, library, abi, "9.9");
}

struct LoadedClient {
  phal_client_t* client = nullptr;
  std::vector<phal_plugin_info_t> plugins;
  std::vector<std::string> log;
  ~LoadedClient() { phal_client_destroy(client); }

  // The record whose manifest file name is `file_name`.
  const phal_plugin_info_t& ByManifest(const std::string& file_name) const {
    for (const phal_plugin_info_t& info : plugins) {
      if (std::filesystem::path(info.manifest_path).filename() == file_name) {
        return info;
      }
    }
    ADD_FAILURE() << "no plugin record for manifest " << file_name;
    static phal_plugin_info_t none{};
    return none;
  }
};

void CollectLog(void* user_data, phal_log_level_t, const char* message) {
  static_cast<LoadedClient*>(user_data)->log.push_back(message);
}

void Load(const std::string& path, LoadedClient* out,
          const char* filter = nullptr) {
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  options.plugin_path = path.c_str();
  options.plugin_filter = filter;
  options.log_callback = CollectLog;
  options.log_user_data = out;
  phal_status_t* status = phal_client_create(&options, &out->client);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  size_t count = 0;
  ASSERT_EQ(phal_client_get_plugin_count(out->client, &count), nullptr);
  out->plugins.resize(count);
  for (size_t i = 0; i < count; ++i) {
    out->plugins[i].struct_size = sizeof(phal_plugin_info_t);
    ASSERT_EQ(phal_client_get_plugin_info(out->client, i, &out->plugins[i]),
              nullptr);
  }
}

TEST(Loader, LoadsTheCpuPluginFromItsManifest) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  const phal_plugin_info_t& cpu = loaded.ByManifest("cpu.json");
  EXPECT_EQ(cpu.state, PHAL_PLUGIN_STATE_LOADED) << cpu.reason;
  EXPECT_EQ(cpu.abi_version, PHAL_MAKE_VERSION(1, 14))
      << "the cpu plugin speaks ABI 1.0-1.14: a 1.14 core negotiates 1.14";
  EXPECT_EQ(cpu.device_count, 1u);
  EXPECT_STREQ(cpu.version, "9.9");
  EXPECT_STREQ(cpu.reason, "");
}

TEST(Loader, MalformedJsonIsSkippedWithFileLineAndColumn) {
  testing::TempDir dir;
  std::string path = dir.Write("bad.json",
                               "{\n  \"file_format_version\": \"1.0\",\n"
                               "  \"plugin\": {\n    \"name\" \"x\"\n  }\n}\n");
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  const phal_plugin_info_t& bad = loaded.ByManifest("bad.json");
  EXPECT_EQ(bad.state, PHAL_PLUGIN_STATE_SKIPPED);
  EXPECT_THAT(std::string(bad.reason), HasSubstr(path + ":4:14: invalid JSON"));
}

// manifest_fuzzer's finding: a number beyond a double's range made the JSON
// reader throw an exception the loader did not catch.
TEST(Loader, ManifestWithAnOverflowingNumberIsSkipped) {
  testing::TempDir dir;
  dir.Write("huge.json",
            "{\"file_format_version\": \"1.0\", \"plugin\": {\"name\": "
            "\"x\", \"library_path\": \"libx.so\", \"abi_version\": "
            "\"1.0\", \"size\": 1e999}}");
  dir.Write("reproducer.json", "1e999e_n\": \"1.4\"");
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  for (const char* name : {"huge.json", "reproducer.json"}) {
    const phal_plugin_info_t& huge = loaded.ByManifest(name);
    EXPECT_EQ(huge.state, PHAL_PLUGIN_STATE_SKIPPED) << name;
    EXPECT_THAT(std::string(huge.reason),
                HasSubstr("invalid JSON: number overflow parsing '1e999'"))
        << name;
  }
}

TEST(Loader, ManifestWithoutLibraryPathNamesTheMissingMember) {
  testing::TempDir dir;
  dir.Write("incomplete.json",
            "{\"file_format_version\": \"1.0\", \"plugin\": {\"name\": "
            "\"x\", \"abi_version\": \"1.0\"}}");
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("incomplete.json").reason),
              HasSubstr("missing \"plugin.library_path\""));
}

TEST(Loader, UnsupportedManifestFormatVersionIsReported) {
  testing::TempDir dir;
  dir.Write("future.json",
            "{\"file_format_version\": \"2.0\", \"plugin\": {}}");
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("future.json").reason),
              HasSubstr("unsupported file_format_version \"2.0\""));
}

TEST(Loader, ManifestDeclaringAnotherAbiMajorIsSkipped) {
  testing::TempDir dir;
  dir.Write("abi2.json", Manifest("abi2", PHAL_CPU_PLUGIN_PATH, "2.0"));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("abi2.json").reason),
              HasSubstr("manifest declares ABI 2.0, core speaks ABI 1.0-1.14"));
}

TEST(Loader, MissingLibraryIsReportedWithItsPath) {
  testing::TempDir dir;
  dir.Write("ghost.json", Manifest("ghost", "./libghost.so"));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(
      std::string(loaded.ByManifest("ghost.json").reason),
      HasSubstr("library " + dir.path() + "/libghost.so named by manifest"));
  EXPECT_THAT(std::string(loaded.ByManifest("ghost.json").reason),
              HasSubstr("does not exist"));
}

TEST(Loader, DlopenErrorTextIsReported) {
  testing::TempDir dir;
  dir.Write("libgarbage.so", "this is not an ELF file");
  dir.Write("garbage.json", Manifest("garbage", "libgarbage.so"));
  // A bare name goes to the linker; give a path so the file is found.
  dir.Write("garbage2.json", Manifest("garbage2", "./libgarbage.so"));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  std::string reason = loaded.ByManifest("garbage2.json").reason;
  EXPECT_THAT(reason, HasSubstr("cannot open library"));
  EXPECT_THAT(reason, HasSubstr("libgarbage.so"));
  // glibc's dlerror() text for a file that is not ELF.
  EXPECT_TRUE(reason.find("invalid ELF header") != std::string::npos ||
              reason.find("file too short") != std::string::npos)
      << reason;
}

TEST(Loader, LibraryWithoutEntryPointIsReported) {
  testing::TempDir dir;
  dir.Write("noentry.json",
            Manifest("noentry", testing::TestPluginLibrary("no_entry")));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("noentry.json").reason),
              HasSubstr("does not export phal_plugin_entry"));
}

TEST(Loader, NoCommonAbiVersionPrintsBothRanges) {
  testing::TempDir dir;
  dir.Write("future.json",
            Manifest("future", testing::TestPluginLibrary("future_abi")));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("future.json").reason),
              HasSubstr("no common ABI version: core speaks ABI 1.0-1.14, "
                        "plugin speaks ABI 2.0-2.3"));
}

TEST(Loader, PluginOfANewerMinorNegotiatesTheCoresNewestVersion) {
  testing::TempDir dir;
  dir.Write("newer.json",
            Manifest("newer_minor", testing::TestPluginLibrary("newer_minor")));
  setenv("PHAL_LOG", "debug", 1);
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  unsetenv("PHAL_LOG");
  const phal_plugin_info_t& newer = loaded.ByManifest("newer.json");
  EXPECT_EQ(newer.state, PHAL_PLUGIN_STATE_LOADED) << newer.reason;
  EXPECT_EQ(newer.abi_version, PHAL_MAKE_VERSION(1, 14))
      << "a plugin of ABI 1.0-1.15 answers a 1.0-1.14 core with 1.14";
  bool traced = false;
  for (const std::string& line : loaded.log) {
    traced |=
        line.find("negotiated ABI 1.14") != std::string::npos &&
        line.find("core speaks ABI 1.0-1.14, plugin speaks ABI 1.0-1.15") !=
            std::string::npos;
  }
  EXPECT_TRUE(traced) << "the negotiation was not traced with both ranges";
}

TEST(Loader, PluginsOfEveryMinorVersionLoadSideBySide) {
  testing::TempDir dir;
  dir.Write("minimal.json",
            Manifest("minimal", testing::TestPluginLibrary("minimal")));
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH, "1.14"));
  dir.Write("newer.json",
            Manifest("newer_minor", testing::TestPluginLibrary("newer_minor")));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_EQ(loaded.ByManifest("minimal.json").abi_version,
            PHAL_MAKE_VERSION(1, 0));
  EXPECT_EQ(loaded.ByManifest("cpu.json").abi_version,
            PHAL_MAKE_VERSION(1, 14));
  EXPECT_EQ(loaded.ByManifest("newer.json").abi_version,
            PHAL_MAKE_VERSION(1, 14));
  for (const phal_plugin_info_t& info : loaded.plugins) {
    EXPECT_EQ(info.state, PHAL_PLUGIN_STATE_LOADED)
        << info.name << ": " << info.reason;
  }
  size_t devices = 0;
  ASSERT_EQ(phal_client_get_device_count(loaded.client, &devices), nullptr);
  EXPECT_EQ(devices, 1u) << "the cpu device; the test plugins have none";
}

TEST(Loader, APluginLeavingTheCounterSlotsNullReportsNoCounters) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH, "1.14"));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  ASSERT_EQ(loaded.ByManifest("cpu.json").abi_version, PHAL_MAKE_VERSION(1, 14))
      << "the cpu plugin's table of ABI 1.14 leaves the counter slots of ABI "
         "1.5 NULL";
  phal_device_t* device = nullptr;
  ASSERT_EQ(phal_client_get_device(loaded.client, 0, &device), nullptr);
  phal_device_counter_t placeholder{};
  phal_device_counter_t* counters = &placeholder;
  size_t count = 7;
  ASSERT_EQ(phal_device_get_counters(device, &counters, &count), nullptr);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(counters, nullptr);
  EXPECT_EQ(phal_device_reset_counters(device), nullptr);
}

// The plugins of every generation side by side: the cpu plugin, built with
// the SDK's entry macro (PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME), and plugins
// written in plain C with no SDK helper against the tables of ABI 1.0 and
// ABI 1.5, as vendors built theirs before the slot list. Each loads at its
// version and moves bytes through its slots; the 1.5 plugin's counter
// slots, the last of its table, are reached, and the others' are answered
// by the core.
void ExpectPluginsOfEveryGenerationMoveBytes() {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH, "1.14"));
  dir.Write("host_1_0.json",
            Manifest("host_1_0", testing::TestPluginLibrary("host_1_0")));
  dir.Write(
      "host_1_5.json",
      Manifest("host_1_5", testing::TestPluginLibrary("host_1_5"), "1.5"));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_EQ(loaded.ByManifest("cpu.json").abi_version,
            PHAL_MAKE_VERSION(1, 14));
  EXPECT_EQ(loaded.ByManifest("host_1_0.json").abi_version,
            PHAL_MAKE_VERSION(1, 0));
  EXPECT_EQ(loaded.ByManifest("host_1_5.json").abi_version,
            PHAL_MAKE_VERSION(1, 5));
  size_t devices = 0;
  ASSERT_EQ(phal_client_get_device_count(loaded.client, &devices), nullptr);
  ASSERT_EQ(devices, 3u) << "one device of each plugin";
  for (size_t i = 0; i < devices; ++i) {
    phal_device_t* device = nullptr;
    ASSERT_EQ(phal_client_get_device(loaded.client, i, &device), nullptr);
    size_t plugin = 0;
    ASSERT_EQ(phal_device_get_plugin_index(device, &plugin), nullptr);
    const std::string manifest =
        std::filesystem::path(loaded.plugins[plugin].manifest_path)
            .filename()
            .string();
    SCOPED_TRACE(manifest);
    const std::vector<int64_t> dims = {4};
    const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
    phal_buffer_t* buffer = nullptr;
    ASSERT_EQ(phal_buffer_allocate(device, &desc, &buffer), nullptr);
    const float written[4] = {1.5f, -2.0f, 3.25f, 0.0f};
    float read[4] = {};
    ASSERT_EQ(phal_buffer_copy_from_host(buffer, 0, written, sizeof(written)),
              nullptr);
    ASSERT_EQ(phal_buffer_copy_to_host(buffer, 0, read, sizeof(read)), nullptr);
    phal_buffer_free(buffer);
    EXPECT_EQ(std::vector<float>(read, read + 4),
              std::vector<float>(written, written + 4));
    phal_device_counter_t* counters = nullptr;
    size_t count = 0;
    ASSERT_EQ(phal_device_get_counters(device, &counters, &count), nullptr);
    if (manifest != "host_1_5.json") {
      EXPECT_EQ(count, 0u) << "a table without the counter slots";
      phal_free(counters);
      continue;
    }
    ASSERT_EQ(count, 1u);
    EXPECT_STREQ(counters[0].name, "copy.bytes");
    EXPECT_GE(counters[0].value, 2.0 * sizeof(written))
        << "the bytes copied in and out";
    phal_free(counters);
    ASSERT_EQ(phal_device_reset_counters(device), nullptr);
    ASSERT_EQ(phal_device_get_counters(device, &counters, &count), nullptr);
    ASSERT_EQ(count, 1u);
    EXPECT_EQ(counters[0].value, 0.0) << "after device_reset_counters";
    phal_free(counters);
  }
  for (const std::string& line : loaded.log) {
    EXPECT_EQ(line.find("validation layer"), std::string::npos) << line;
  }
}

TEST(Loader, PluginsOfTheEntryMacroAndOfPlainCAbi10And15LoadAndMoveBytes) {
  ExpectPluginsOfEveryGenerationMoveBytes();
}

TEST(Loader, PluginsOfEveryGenerationPassTheValidationLayer) {
  setenv("PHAL_VALIDATION", "1", 1);
  ExpectPluginsOfEveryGenerationMoveBytes();
  unsetenv("PHAL_VALIDATION");
}

TEST(Loader, TooSmallFunctionTableIsReported) {
  testing::TempDir dir;
  dir.Write("tiny.json",
            Manifest("tiny", testing::TestPluginLibrary("tiny_table")));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  EXPECT_THAT(std::string(loaded.ByManifest("tiny.json").reason),
              HasSubstr("function table too small: struct_size is 8 bytes, "
                        "at least 40 are required"));
}

TEST(Loader, PluginWithoutDevicesLoadsAndSaysWhy) {
  testing::TempDir dir;
  dir.Write("minimal.json",
            Manifest("minimal", testing::TestPluginLibrary("minimal")));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  const phal_plugin_info_t& minimal = loaded.ByManifest("minimal.json");
  EXPECT_EQ(minimal.state, PHAL_PLUGIN_STATE_LOADED);
  EXPECT_EQ(minimal.device_count, 0u);
  EXPECT_STREQ(minimal.reason, "no test hardware attached");
}

TEST(Loader, DuplicateNamesKeepTheFirstInSearchOrder) {
  testing::TempDir dir;
  std::string first =
      dir.Write("a-cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  dir.Write("b-cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  ASSERT_EQ(loaded.plugins.size(), 2u);
  EXPECT_EQ(loaded.ByManifest("a-cpu.json").state, PHAL_PLUGIN_STATE_LOADED);
  const phal_plugin_info_t& second = loaded.ByManifest("b-cpu.json");
  EXPECT_EQ(second.state, PHAL_PLUGIN_STATE_SKIPPED);
  EXPECT_THAT(std::string(second.reason),
              HasSubstr("duplicate plugin name 'cpu': the manifest " + first +
                        " comes first in the search order"));
}

TEST(Loader, SearchPathEntriesAreReadInTheOrderGiven) {
  testing::TempDir one;
  testing::TempDir two;
  std::string winner =
      two.Write("z.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  one.Write("a.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  LoadedClient loaded;
  Load(two.path() + ":" + one.path(), &loaded);
  ASSERT_EQ(loaded.plugins.size(), 2u);
  EXPECT_EQ(std::string(loaded.plugins[0].manifest_path), winner);
  EXPECT_EQ(loaded.plugins[0].state, PHAL_PLUGIN_STATE_LOADED);
  EXPECT_EQ(loaded.plugins[1].state, PHAL_PLUGIN_STATE_SKIPPED);
}

TEST(Loader, ManifestFilesCanBeNamedDirectly) {
  testing::TempDir dir;
  std::string file =
      dir.Write("only.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  dir.Write("other.json",
            Manifest("other", testing::TestPluginLibrary("minimal")));
  LoadedClient loaded;
  Load(file, &loaded);
  ASSERT_EQ(loaded.plugins.size(), 1u);
  EXPECT_EQ(std::string(loaded.plugins[0].manifest_path), file);
}

TEST(Loader, MissingSearchPathEntryIsListedWithItsReason) {
  testing::TempDir dir;
  std::string missing = dir.path() + "/does-not-exist";
  LoadedClient loaded;
  Load(missing, &loaded);
  ASSERT_EQ(loaded.plugins.size(), 1u);
  EXPECT_EQ(loaded.plugins[0].state, PHAL_PLUGIN_STATE_SKIPPED);
  EXPECT_THAT(std::string(loaded.plugins[0].reason),
              HasSubstr(missing + ": no such file or directory"));
}

TEST(Loader, FilterKeepsOnlyTheNamedPlugins) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  dir.Write("minimal.json",
            Manifest("minimal", testing::TestPluginLibrary("minimal")));
  LoadedClient loaded;
  Load(dir.path(), &loaded, " minimal ");
  EXPECT_EQ(loaded.ByManifest("minimal.json").state, PHAL_PLUGIN_STATE_LOADED);
  const phal_plugin_info_t& cpu = loaded.ByManifest("cpu.json");
  EXPECT_EQ(cpu.state, PHAL_PLUGIN_STATE_SKIPPED);
  EXPECT_THAT(std::string(cpu.reason),
              HasSubstr("not selected by PHAL_PLUGINS"));
  size_t devices = 0;
  ASSERT_EQ(phal_client_get_device_count(loaded.client, &devices), nullptr);
  EXPECT_EQ(devices, 0u);
}

TEST(Loader, DebugLogTracesTheSearch) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  setenv("PHAL_LOG", "debug", 1);
  LoadedClient loaded;
  Load(dir.path(), &loaded);
  unsetenv("PHAL_LOG");
  bool found = false;
  bool negotiated = false;
  for (const std::string& line : loaded.log) {
    found |= line.find("found manifest " + dir.path() + "/cpu.json") !=
             std::string::npos;
    negotiated |= line.find("negotiated ABI 1.14") != std::string::npos;
  }
  EXPECT_TRUE(found) << "the search was not traced";
  EXPECT_TRUE(negotiated) << "the negotiation was not traced";
}

TEST(Loader, EnvironmentPluginPathIsUsedWithoutOptions) {
  testing::TempDir dir;
  dir.Write("minimal.json",
            Manifest("minimal", testing::TestPluginLibrary("minimal")));
  const char* saved = std::getenv("PHAL_PLUGIN_PATH");
  std::string restore = saved ? saved : "";
  setenv("PHAL_PLUGIN_PATH", dir.path().c_str(), 1);
  phal_client_t* client = nullptr;
  ASSERT_EQ(phal_client_create(nullptr, &client), nullptr);
  size_t count = 0;
  EXPECT_EQ(phal_client_get_plugin_count(client, &count), nullptr);
  EXPECT_EQ(count, 1u);
  phal_client_destroy(client);
  if (saved) {
    setenv("PHAL_PLUGIN_PATH", restore.c_str(), 1);
  } else {
    unsetenv("PHAL_PLUGIN_PATH");
  }
}

TEST(Loader, TwoClientsShareOneLoadedLibrary) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  LoadedClient first;
  LoadedClient second;
  Load(dir.path(), &first);
  Load(dir.path(), &second);
  EXPECT_EQ(first.plugins[0].device_count, 1u);
  EXPECT_EQ(second.plugins[0].device_count, 1u);
}

TEST(PluginStubs, MissingSlotsAnswerUnimplemented) {
  phal_plugin_api_t provided{};
  provided.struct_size = PHAL_PLUGIN_API_MIN_STRUCT_SIZE;
  std::vector<std::string> missing;
  phal_plugin_api_t table = CompletePluginTable(provided, &missing);
  EXPECT_EQ(missing.size(), 40u) << "every slot after the header";
  phal_plugin_buffer_t* buffer = nullptr;
  Status status = TakeCStatus(table.buffer_allocate(nullptr, 0, 16, &buffer));
  EXPECT_EQ(status.code(), PHAL_UNIMPLEMENTED);
  EXPECT_EQ(status.message(), "the plugin does not implement buffer_allocate");
  size_t count = 7;
  const char* reason = nullptr;
  EXPECT_TRUE(TakeCStatus(table.device_count(&count, &reason)).ok());
  EXPECT_EQ(count, 0u);
  // A plugin without the ahead-of-time slots (ABI 1.4) compiles for no
  // target.
  const char* const* targets = &reason;
  count = 7;
  EXPECT_TRUE(TakeCStatus(table.target_get_names(&targets, &count)).ok());
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(targets, nullptr);
  phal_plugin_device_t* device = nullptr;
  EXPECT_EQ(TakeCStatus(table.target_device_open(nullptr, &device)).code(),
            PHAL_UNIMPLEMENTED);
  // A plugin without the counter slots (ABI 1.5) reports no counters, and
  // resetting them succeeds.
  phal_device_counter_t placeholder{};
  phal_device_counter_t* counters = &placeholder;
  count = 7;
  EXPECT_TRUE(
      TakeCStatus(table.device_get_counters(nullptr, &counters, &count)).ok());
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(counters, nullptr);
  EXPECT_TRUE(TakeCStatus(table.device_reset_counters(nullptr)).ok());
  // A plugin without the collective slots (ABI 1.8) supports no
  // collective: the core stages them through host memory.
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  int supported = 7;
  EXPECT_TRUE(
      TakeCStatus(table.device_supports_collective(nullptr, &desc, &supported))
          .ok());
  EXPECT_EQ(supported, 0);
  EXPECT_EQ(TakeCStatus(table.communicator_create(nullptr, 0, nullptr)).code(),
            PHAL_UNIMPLEMENTED);
  // Nor does it join communicators over processes (ABI 1.12): the core
  // moves those collectives between processes itself.
  supported = 7;
  EXPECT_TRUE(TakeCStatus(table.device_supports_joined_collective(
                              nullptr, &desc, 2, &supported))
                  .ok());
  EXPECT_EQ(supported, 0);
  EXPECT_EQ(TakeCStatus(table.communicator_join(nullptr, 2, nullptr, nullptr, 0,
                                                0, nullptr))
                .code(),
            PHAL_UNIMPLEMENTED);
  table.shutdown();
}

TEST(PluginStubs, SlotsBeyondStructSizeAreIgnoredEvenIfSet) {
  phal_plugin_api_t provided{};
  provided.struct_size = offsetof(phal_plugin_api_t, device_open);
  provided.device_open = [](size_t, phal_plugin_device_t**) -> phal_status_t* {
    ADD_FAILURE() << "a slot beyond struct_size was called";
    return nullptr;
  };
  phal_plugin_api_t table = CompletePluginTable(provided, nullptr);
  EXPECT_EQ(TakeCStatus(table.device_open(0, nullptr)).code(),
            PHAL_UNIMPLEMENTED);
}

// `polyhal plugins` over a directory of broken plugins lists every one with
// its reason and still exits 0.
TEST(LoaderCli, PluginsCommandListsBrokenPluginsAndSucceeds) {
  testing::TempDir dir;
  dir.Write("cpu.json", Manifest("cpu", PHAL_CPU_PLUGIN_PATH));
  dir.Write("future.json",
            Manifest("future", testing::TestPluginLibrary("future_abi")));
  dir.Write("ghost.json", Manifest("ghost", "./libghost.so"));
  dir.Write("bad.json", "{");
  std::string command = "PHAL_PLUGIN_PATH=" + dir.path() + " " +
                        PHAL_TEST_BUILD_DIR + "/bin/polyhal plugins 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof(chunk), pipe))
    output.append(chunk, n);
  int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_THAT(output, HasSubstr("loaded   ABI 1.14, 1 device(s)"));
  EXPECT_THAT(output, HasSubstr("no common ABI version"));
  EXPECT_THAT(output, HasSubstr("does not exist"));
  EXPECT_THAT(output, HasSubstr("invalid JSON"));
}

}  // namespace
}  // namespace phal
