// The amd plugin through its entry point and function table, as the core's
// loader drives it: with no HIP runtime it loads and says why; with
// PHAL_GPU_EMULATION=1 (set for every test by CMake) its first device is a
// GPU where there is one, else the emulated gfx90a, whose properties,
// copies, streams, events and kernels of each kind are checked, kernels
// against the KIR interpreter. Ahead of time (ABI 1.4): the targets, their
// compile-only devices (no runtime), the code objects they serialize and
// where those load, and the dump directory's code objects and assembly,
// whose notes llvm-readobj-16 reads back.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/kir_interpreter/kir_interpreter.h"
#include "sdk/plugin_testing/collective_contract.h"
#include "sdk/plugin_testing/compile_target_test.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"
#include "sdk/plugin_testing/test_files.h"
#include "sdk/plugin_testing/virtual_device_contract.h"

namespace phal::amd {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const PluginEnvironment* const kAmdPlugin =
    AddPluginEnvironment(PHAL_AMD_PLUGIN_PATH);

const phal_plugin_api_t& Api() { return kAmdPlugin->api(); }

// Run in a child process of its own (the runtime is opened once per
// process) with PHAL_AMD_HIP_LIBRARY set to `library`: exits 0 when the
// plugin counted `expected_devices` and, when that is 0, gave a reason
// holding `why` and the hint to set PHAL_GPU_EMULATION=1.
void ExitWithDeviceCountVerdict(const char* library, bool emulation,
                                size_t expected_devices, const char* why) {
  setenv("PHAL_AMD_HIP_LIBRARY", library, 1);
  if (emulation) {
    setenv("PHAL_GPU_EMULATION", "1", 1);
  } else {
    unsetenv("PHAL_GPU_EMULATION");
  }
  size_t devices = 99;
  const char* reason = nullptr;
  const bool counted = IsOk(Api().device_count(&devices, &reason));
  const bool says_why =
      expected_devices > 0 ||
      (reason != nullptr && std::strstr(reason, why) != nullptr &&
       std::strstr(reason, "PHAL_GPU_EMULATION=1") != nullptr);
  std::fprintf(stderr, "devices %zu reason: %s\n", devices,
               reason != nullptr ? reason : "(null)");
  std::filesystem::remove_all(kAmdPlugin->cache_directory());
  std::exit(counted && devices == expected_devices && says_why ? 0 : 1);
}

constexpr char kAbsentRuntime[] = "libamdhip64-absent.so.5";

TEST(AmdPluginAbsence, WithoutTheRuntimeItLoadsWithNoDeviceAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      ExitWithDeviceCountVerdict(kAbsentRuntime, false, 0, kAbsentRuntime),
      ::testing::ExitedWithCode(0), "no HIP runtime");
}

TEST(AmdPluginAbsence, WithoutTheRuntimeEmulationStillGivesOneDevice) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      ExitWithDeviceCountVerdict(kAbsentRuntime, true, 1, kAbsentRuntime),
      ::testing::ExitedWithCode(0), "devices 1");
}

TEST(AmdPluginAbsence, ARuntimeThatFindsNoGpuGivesNoDeviceAndItsError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithDeviceCountVerdict(PHAL_AMD_FAKE_HIP_RUNTIME, false, 0,
                                         "hipInit failed: hipErrorNoDevice"),
              ::testing::ExitedWithCode(0), "devices 0");
}

using AmdDevice = PluginTest;

bool IsEmulated(const phal_device_properties_t& properties) {
  return std::strstr(properties.features, " emulated") != nullptr;
}

TEST_F(AmdDevice, DescribesItselfWithTheRuntimesFigures) {
  EXPECT_STREQ(properties_.vendor, "AMD");
  EXPECT_EQ(properties_.kind, PHAL_DEVICE_KIND_GPU);
  EXPECT_GT(properties_.compute_units, 0u);
  EXPECT_GT(properties_.memory_bytes, 0u);
  EXPECT_EQ(properties_.min_alignment, 256u);
  for (const char* figure : {"hip ", " gfx", "wave_size=", "compute_units=",
                             "max_threads_per_block=", "lds_per_block="}) {
    EXPECT_NE(std::strstr(properties_.features, figure), nullptr)
        << figure << " in " << properties_.features;
  }
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
}

TEST_F(AmdDevice, TheEmulatedDeviceIsAGfx90aWithWave64AndAnMi210sLimits) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  EXPECT_STREQ(properties_.name, "amd (emulated gfx90a)");
  EXPECT_EQ(properties_.compute_units, 104u);
  for (const char* figure :
       {"hip 6.0.32830 gfx90a:sramecc+:xnack- ", "wave_size=64",
        "max_threads_per_block=1024", "lds_per_block=65536"}) {
    EXPECT_NE(std::strstr(properties_.features, figure), nullptr)
        << figure << " in " << properties_.features;
  }
  EXPECT_NE(std::strstr(properties_.driver_version, "grid emulator"), nullptr);
  EXPECT_EQ(properties_.flags & PHAL_DEVICE_FLAG_ASYNC_STREAMS, 0u)
      << "the emulator finishes work before its calls return";
}

// Buffers, copies, streams, events and kernels as every plugin keeps them;
// the kernels also check the device against the KIR interpreter.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(AmdDeviceContract);
// PHAL_GPU_EMULATION=1 with PHAL_VIRTUAL_DEVICES=4: four emulated GPUs.
PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(AmdVirtualDevices);
PHAL_PLUGIN_COLLECTIVE_TESTS(AmdCollectives);

using AmdKernels = ::phal::plugin_testing::DeviceContractTest;

TEST_F(AmdKernels, KernelsCompiledForTheEmulatedGfx90aTargetRunOnTheDevice) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  constexpr int64_t n = 300;
  KirKernel loop = MultiplyAddOne(n);
  std::string bytes;
  {
    phal_plugin_device_t* compiler = nullptr;
    ASSERT_TRUE(IsOk(api().target_device_open("emulated-gfx90a", &compiler)));
    phal_plugin_kernel_t* compiled = nullptr;
    EXPECT_TRUE(
        IsOk(api().kernel_emit(compiler, &loop.Desc(), nullptr, &compiled)));
    if (compiled != nullptr) bytes = SerializeKernel(Api(), compiled);
    api().kernel_destroy(compiled);
    api().device_close(compiler);
  }
  phal_plugin_kernel_t* kernel = nullptr;
  ASSERT_TRUE(IsOk(
      api().kernel_deserialize(device_, bytes.data(), bytes.size(), &kernel)));
  ExpectRunMatchesInterpreter(kernel, loop.Desc(), MultiplyAddOneInputs(n));
  api().kernel_destroy(kernel);
}

// ---- ahead of time: targets and their compile-only devices ----------------

// Compile-only devices and the kernels emitted on them, released after
// each test.
class AmdTargets : public CompileTargetTest {
 protected:
  AmdTargets() : CompileTargetTest(Api()) {}
};

TEST_F(AmdTargets, NamesAreGfx90aFirstThenCdnaAndRdnaThenTheEmulatedDevice) {
  EXPECT_EQ(TargetNames(),
            (std::vector<std::string>{"gfx90a", "gfx908", "gfx940", "gfx1030",
                                      "gfx1100", "emulated-gfx90a"}));
}

TEST_F(AmdTargets, NoTargetNameOpensTheDefaultGfx90a) {
  for (const char* target : {static_cast<const char*>(nullptr), ""}) {
    phal_plugin_device_t* device = Open(target);
    ASSERT_NE(device, nullptr);
    EXPECT_STREQ(Properties(device).name, "amd target gfx90a (compile only)");
  }
}

TEST_F(AmdTargets, AnUnknownTargetIsNotFoundAndTheMessageListsTheTargets) {
  phal_plugin_device_t* device = nullptr;
  EXPECT_TRUE(HasCode(Api().target_device_open("gfx942", &device),
                      PHAL_NOT_FOUND, "gfx90a, gfx908, gfx940"));
  EXPECT_EQ(device, nullptr);
}

TEST_F(AmdTargets, ACompileOnlyDeviceHasItsArchitecturesWavefront) {
  const phal_device_properties_t cdna = Properties(Open("gfx940"));
  EXPECT_NE(cdna.flags & PHAL_DEVICE_FLAG_COMPILE_ONLY, 0u);
  EXPECT_STREQ(cdna.vendor, "AMD");
  EXPECT_NE(std::strstr(cdna.features, "gfx940 "), nullptr) << cdna.features;
  EXPECT_NE(std::strstr(cdna.features, "wave_size=64"), nullptr);
  const phal_device_properties_t rdna = Properties(Open("gfx1100"));
  EXPECT_NE(std::strstr(rdna.features, "wave_size=32"), nullptr)
      << rdna.features;
}

TEST_F(AmdTargets, ACompileOnlyDeviceRefusesBuffersStreamsAndEvents) {
  phal_plugin_device_t* device = Open("gfx90a");
  ASSERT_NE(device, nullptr);
  ExpectRefusesBuffersStreamsAndEvents(device);
}

TEST_F(AmdTargets, CodeObjectsLoadOnlyOnADeviceOfTheirTarget) {
  KirKernel loop = MultiplyAddOne(300);
  phal_plugin_kernel_t* kernel = EmitOn(Open("gfx90a"), loop.Desc());
  ASSERT_NE(kernel, nullptr);
  const std::string bytes = SerializeKernel(Api(), kernel);
  EXPECT_TRUE(IsOk(Deserialize(Open("gfx90a"), bytes)));
  EXPECT_TRUE(HasCode(Deserialize(Open("gfx1100"), bytes),
                      PHAL_FAILED_PRECONDITION, "compiled for hsaco gfx90a"));
}

// llvm-readobj-16 --notes of `path`: the code object's metadata.
std::string ReadNotes(const std::filesystem::path& path) {
  const std::string command =
      std::string(PHAL_LLVM_READOBJ) + " --notes " + path.string() + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "cannot run llvm-readobj";
  char line[512];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) output += line;
  pclose(pipe);
  return output;
}

TEST_F(AmdTargets, TheDumpHoldsACodeObjectAndAssemblyPerKernel) {
  const ScratchDirectory dump("dump");
  const phal_kernel_options_t options = DumpOptions(dump.path());
  KirKernel loop = MultiplyAddOne(300);
  loop.set_name("dumped_loop");
  KirKernel rows("dumped_rows", PHAL_KERNEL_KIND_REDUCE);
  plugin_testing::BuildSum(rows, PHAL_ELEMENT_TYPE_F32, {3, 1000}, {1});
  for (const char* target : {"gfx90a", "gfx940", "gfx1100"}) {
    phal_plugin_device_t* device = Open(target);
    ASSERT_NE(EmitOn(device, loop.Desc(), &options), nullptr) << target;
    ASSERT_NE(EmitOn(device, rows.Desc(), &options), nullptr) << target;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dump.path())) {
      files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    EXPECT_EQ(files,
              (std::vector<std::string>{"dumped_loop.hsaco", "dumped_loop.s",
                                        "dumped_rows.hsaco", "dumped_rows.s"}))
        << target;
    const std::string assembly = ReadFile(dump.path() / "dumped_loop.s");
    EXPECT_NE(assembly.find(
                  std::string(".amdgcn_target \"amdgcn-amd-amdhsa--") + target),
              std::string::npos)
        << assembly.substr(0, 400);
    if (std::string(PHAL_LLVM_READOBJ).empty()) continue;
    for (const char* kernel : {"dumped_loop", "dumped_rows"}) {
      const std::string notes =
          ReadNotes(dump.path() / (std::string(kernel) + ".hsaco"));
      EXPECT_NE(notes.find(".name:           phal_kernel"), std::string::npos)
          << target << " " << kernel << ": " << notes.substr(0, 2000);
      EXPECT_NE(notes.find(std::string("amdgcn-amd-amdhsa--") + target),
                std::string::npos)
          << notes.substr(0, 2000);
    }
  }
  if (std::string(PHAL_LLVM_READOBJ).empty()) {
    GTEST_SKIP() << "llvm-readobj-16 is not installed: the code objects' "
                    "notes were not read";
  }
}

TEST_F(AmdKernels, TheEmulatedDeviceDumpsTheCodeObjectAGfx90aWouldRun) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  const ScratchDirectory dump("emulated_dump");
  const phal_kernel_options_t options = DumpOptions(dump.path());
  KirKernel loop = MultiplyAddOne(64);
  loop.set_name("dumped_loop");
  phal_plugin_kernel_t* kernel = nullptr;
  ASSERT_TRUE(
      IsOk(api().kernel_emit(device_, &loop.Desc(), &options, &kernel)));
  api().kernel_destroy(kernel);
  EXPECT_EQ(ReadFile(dump.path() / "dumped_loop.hsaco").substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_NE(ReadFile(dump.path() / "dumped_loop.s").find("gfx90a"),
            std::string::npos);
}

}  // namespace
}  // namespace phal::amd
