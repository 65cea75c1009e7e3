// The nvidia plugin through its entry point and function table, as the
// core's loader drives it: with no CUDA driver it loads and says why; with
// PHAL_GPU_EMULATION=1 (set for every test by CMake) its first device is a
// GPU where there is one, else the emulated sm_90, whose properties,
// copies, streams, events and kernels of each kind are checked, kernels
// against the KIR interpreter. Ahead of time (ABI 1.4): the targets, their
// compile-only devices (no driver), the PTX each serializes and where it
// loads, and the dump directory. The PTX of a set of kernels goes through
// ptxas for sm_80 and sm_90 where the CUDA toolkit is installed.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/emitters/llvm/nvptx_target.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/kir/facts.h"
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

namespace phal::nvidia {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const PluginEnvironment* const kNvidiaPlugin =
    AddPluginEnvironment(PHAL_NVIDIA_PLUGIN_PATH);

// Run in a child process of its own (the driver is opened once per
// process): exits 0 when the plugin counted `expected_devices` and, when
// that is 0, said why naming the library it could not open.
void ExitWithDeviceCountVerdict(bool emulation, size_t expected_devices) {
  setenv("PHAL_NVIDIA_CUDA_LIBRARY", "libcuda-absent.so.1", 1);
  if (emulation) {
    setenv("PHAL_GPU_EMULATION", "1", 1);
  } else {
    unsetenv("PHAL_GPU_EMULATION");
  }
  size_t devices = 99;
  const char* reason = nullptr;
  const bool counted =
      IsOk(kNvidiaPlugin->api().device_count(&devices, &reason));
  const bool says_why = expected_devices > 0 ||
                        (reason != nullptr &&
                         std::strstr(reason, "libcuda-absent.so.1") != nullptr);
  std::fprintf(stderr, "devices %zu reason: %s\n", devices,
               reason != nullptr ? reason : "(null)");
  std::filesystem::remove_all(kNvidiaPlugin->cache_directory());
  std::exit(counted && devices == expected_devices && says_why ? 0 : 1);
}

TEST(NvidiaPluginAbsence, WithoutTheDriverItLoadsWithNoDeviceAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithDeviceCountVerdict(false, 0),
              ::testing::ExitedWithCode(0), "cannot be opened");
}

TEST(NvidiaPluginAbsence, WithoutTheDriverEmulationStillGivesOneDevice) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithDeviceCountVerdict(true, 1), ::testing::ExitedWithCode(0),
              "devices 1");
}

using NvidiaDevice = PluginTest;

bool IsEmulated(const phal_device_properties_t& properties) {
  return std::strstr(properties.features, " emulated") != nullptr;
}

TEST_F(NvidiaDevice, DescribesItselfWithTheDriversFigures) {
  EXPECT_STREQ(properties_.vendor, "NVIDIA");
  EXPECT_EQ(properties_.kind, PHAL_DEVICE_KIND_GPU);
  EXPECT_GT(properties_.compute_units, 0u);
  EXPECT_GT(properties_.memory_bytes, 0u);
  EXPECT_EQ(properties_.min_alignment, 256u);
  for (const char* figure :
       {"cuda ", " sm_", "warp_size=32",
        "max_threads_per_block=", "shared_memory_per_block="}) {
    EXPECT_NE(std::strstr(properties_.features, figure), nullptr)
        << figure << " in " << properties_.features;
  }
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
}

TEST_F(NvidiaDevice, TheEmulatedDeviceIsAnSm90WithAnH100sLimits) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  EXPECT_STREQ(properties_.name, "nvidia (emulated sm_90)");
  EXPECT_EQ(properties_.compute_units, 132u);
  EXPECT_NE(std::strstr(properties_.features, "cuda 12.0 sm_90"), nullptr)
      << properties_.features;
  EXPECT_NE(std::strstr(properties_.features, "shared_memory_per_block=49152"),
            nullptr);
  EXPECT_NE(std::strstr(properties_.driver_version, "grid emulator"), nullptr);
  EXPECT_EQ(properties_.flags & PHAL_DEVICE_FLAG_ASYNC_STREAMS, 0u)
      << "the emulator finishes work before its calls return";
}

// Buffers, copies, streams, events and kernels as every plugin keeps them;
// the kernels also check the device against the KIR interpreter.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(NvidiaDeviceContract);
// PHAL_GPU_EMULATION=1 with PHAL_VIRTUAL_DEVICES=4: four emulated GPUs.
PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(NvidiaVirtualDevices);
PHAL_PLUGIN_COLLECTIVE_TESTS(NvidiaCollectives);

// The collectives above ran on the device's collective library: the
// emulator's NCCL on the emulated devices, NCCL on a GPU where
// libnccl.so.2 is found.
TEST_F(NvidiaCollectives, TheDevicesNameTheirCollectiveLibrary) {
  if (!HasCollectives()) GTEST_SKIP() << "no collective slots";
  const char* library = std::strstr(properties_.features, "collectives=");
  if (!IsEmulated(properties_) && library == nullptr) {
    GTEST_SKIP() << "no NCCL (libnccl.so.2) beside the GPU: its collectives "
                    "are staged through host memory";
  }
  ASSERT_NE(library, nullptr) << properties_.features;
  if (IsEmulated(properties_)) {
    EXPECT_EQ(std::string(library).substr(0, 25), "collectives=nccl-emulated");
  }
}

// Integers reduce on the library in any order with the rank order's bits,
// wrapping: the sum of four ranks' values around INT32_MAX.
TEST_F(NvidiaCollectives, IntegerReductionsWrapOnTheLibrary) {
  if (!HasCollectives()) GTEST_SKIP() << "no collective slots";
  const std::vector<size_t> ranks = {0, 1, 2, 3};
  const std::vector<int32_t> values = {2147483647, 1, -5, -2147483647 - 1};
  std::vector<std::vector<float>> send(4);
  int32_t expected = 0;
  for (size_t r = 0; r < 4; ++r) {
    send[r] = {std::bit_cast<float>(values[r]),
               std::bit_cast<float>(static_cast<int32_t>(r))};
    expected = static_cast<int32_t>(static_cast<uint32_t>(expected) +
                                    static_cast<uint32_t>(values[r]));
  }
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.kind = PHAL_COLLECTIVE_ALL_REDUCE;
  desc.element_type = PHAL_ELEMENT_TYPE_S32;
  desc.reduction = PHAL_REDUCTION_SUM;
  desc.outer_count = 1;
  desc.block_count = 2;
  desc.timeout_ms = 30000;
  const std::vector<std::vector<float>> received =
      Run(ranks, Communicator(ranks), desc, send, 2);
  for (size_t r = 0; r < 4; ++r) {
    ASSERT_EQ(received[r].size(), 2u);
    EXPECT_EQ(std::bit_cast<int32_t>(received[r][0]), expected) << "rank " << r;
    EXPECT_EQ(std::bit_cast<int32_t>(received[r][1]), 6) << "rank " << r;
  }
}

// PHAL_NVIDIA_NCCL=off: no library; every collective is staged through
// host memory and still follows the layouts and the timeout.
class NvidiaStagedCollectives : public CollectiveContractTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(setenv("PHAL_NVIDIA_NCCL", "off", 1), 0);
    CollectiveContractTest::SetUp();
  }
  void TearDown() override {
    CollectiveContractTest::TearDown();
    unsetenv("PHAL_NVIDIA_NCCL");
  }
};

TEST_F(NvidiaStagedCollectives, EveryKindFollowsTheLayouts) {
  EXPECT_EQ(std::strstr(properties_.features, "collectives="), nullptr)
      << properties_.features;
  ExpectEveryKindFollowsTheLayouts();
}

TEST_F(NvidiaStagedCollectives, AMissingRankTimesOut) {
  ExpectAMissingRankTimesOut();
}

using NvidiaKernels = ::phal::plugin_testing::DeviceContractTest;

TEST_F(NvidiaKernels, TheEmulatedDeviceDumpsThePtxAnSm90WouldRun) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  const ScratchDirectory dump("emulated_dump");
  KirKernel loop = MultiplyAddOne(64);
  loop.set_name("dumped_loop");
  const phal_kernel_options_t options = DumpOptions(dump.path());
  phal_plugin_kernel_t* kernel = nullptr;
  ASSERT_TRUE(
      IsOk(api().kernel_emit(device_, &loop.Desc(), &options, &kernel)));
  api().kernel_destroy(kernel);
  const std::string ptx = ReadFile(dump.path() / "dumped_loop.ptx");
  EXPECT_NE(ptx.find(".entry"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
}

TEST_F(NvidiaKernels, KernelsCompiledForTheEmulatedSm90TargetRunOnTheDevice) {
  if (!IsEmulated(properties_)) GTEST_SKIP() << "device 0 is a GPU";
  constexpr int64_t n = 300;
  KirKernel loop = MultiplyAddOne(n);
  std::string bytes;
  {
    phal_plugin_device_t* compiler = nullptr;
    ASSERT_TRUE(IsOk(api().target_device_open("emulated-sm_90", &compiler)));
    phal_plugin_kernel_t* compiled = nullptr;
    EXPECT_TRUE(
        IsOk(api().kernel_emit(compiler, &loop.Desc(), nullptr, &compiled)));
    if (compiled != nullptr) bytes = SerializeKernel(api(), compiled);
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

const phal_plugin_api_t& Api() { return kNvidiaPlugin->api(); }

// Compile-only devices and the kernels emitted on them, released after
// each test.
class NvidiaTargets : public CompileTargetTest {
 protected:
  NvidiaTargets() : CompileTargetTest(Api()) {}
};

TEST_F(NvidiaTargets, NamesAreSm80FirstThenEveryComputeCapabilityFrom75To90) {
  EXPECT_EQ(TargetNames(),
            (std::vector<std::string>{"sm_80", "sm_75", "sm_86", "sm_89",
                                      "sm_90", "emulated-sm_90"}));
}

TEST_F(NvidiaTargets, NoTargetNameOpensTheDefaultSm80) {
  for (const char* target : {static_cast<const char*>(nullptr), ""}) {
    phal_plugin_device_t* device = Open(target);
    ASSERT_NE(device, nullptr);
    EXPECT_STREQ(Properties(device).name, "nvidia target sm_80 (compile only)");
  }
}

TEST_F(NvidiaTargets, AnUnknownTargetIsNotFoundAndTheMessageListsTheTargets) {
  phal_plugin_device_t* device = nullptr;
  EXPECT_TRUE(HasCode(Api().target_device_open("sm_70", &device),
                      PHAL_NOT_FOUND, "sm_80, sm_75, sm_86"));
  EXPECT_EQ(device, nullptr);
}

TEST_F(NvidiaTargets, ACompileOnlyDeviceSaysSoAndTakesEveryKernelKind) {
  phal_plugin_device_t* device = Open("sm_86");
  ASSERT_NE(device, nullptr);
  const phal_device_properties_t properties = Properties(device);
  EXPECT_NE(properties.flags & PHAL_DEVICE_FLAG_COMPILE_ONLY, 0u);
  EXPECT_EQ(properties.kind, PHAL_DEVICE_KIND_GPU);
  EXPECT_STREQ(properties.vendor, "NVIDIA");
  EXPECT_EQ(properties.kernel_kinds, llvm_emitter::SpmdSupportedKernelKinds());
  EXPECT_NE(std::strstr(properties.features, "sm_86 "), nullptr)
      << properties.features;
  EXPECT_EQ(properties.memory_space_count, 1u);
  phal_memory_space_info_t space{};
  space.struct_size = sizeof(space);
  EXPECT_TRUE(IsOk(Api().device_get_memory_space(device, 0, &space)));
}

TEST_F(NvidiaTargets, ACompileOnlyDeviceRefusesBuffersStreamsAndEvents) {
  phal_plugin_device_t* device = Open("sm_80");
  ASSERT_NE(device, nullptr);
  ExpectRefusesBuffersStreamsAndEvents(device);
}

TEST_F(NvidiaTargets, EachComputeCapabilityGetsPtxForItself) {
  KirKernel loop = MultiplyAddOne(1000);
  for (const char* target : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}) {
    phal_plugin_device_t* device = Open(target);
    ASSERT_NE(device, nullptr);
    phal_plugin_kernel_t* kernel = EmitOn(device, loop.Desc());
    ASSERT_NE(kernel, nullptr);
    const std::string bytes = SerializeKernel(Api(), kernel);
    EXPECT_NE(bytes.find(std::string(".target ") + target + "\n"),
              std::string::npos)
        << "the bytes of target " << target << " hold its PTX";
  }
}

TEST_F(NvidiaTargets, Sm80KernelBytesLoadOnSm80AndAreRefusedByOtherTargets) {
  KirKernel loop = MultiplyAddOne(1000);
  phal_plugin_kernel_t* kernel = EmitOn(Open("sm_80"), loop.Desc());
  ASSERT_NE(kernel, nullptr);
  const std::string bytes = SerializeKernel(Api(), kernel);
  EXPECT_EQ(bytes.substr(0, 8), "PHALNVK1");
  EXPECT_NE(bytes.find("ptx sm_80"), std::string::npos)
      << "the header names the target";
  EXPECT_NE(bytes.find(".target sm_80"), std::string::npos)
      << "the image is PTX for sm_80, what cuModuleLoadData takes";
  EXPECT_TRUE(IsOk(Deserialize(Open("sm_80"), bytes)));
  for (const char* other : {"sm_75", "sm_90", "emulated-sm_90"}) {
    EXPECT_TRUE(HasCode(Deserialize(Open(other), bytes),
                        PHAL_FAILED_PRECONDITION, "compiled for ptx sm_80"))
        << other;
  }
}

TEST_F(NvidiaTargets, TheDumpDirectoryGetsOnePtxFilePerKernel) {
  const ScratchDirectory dump("target_dump");
  phal_plugin_device_t* device = Open("sm_90");
  ASSERT_NE(device, nullptr);
  KirKernel loop = MultiplyAddOne(64);
  loop.set_name("fusion.1");
  KirKernel reduce("reduce.2", PHAL_KERNEL_KIND_REDUCE);
  plugin_testing::BuildSum(reduce, PHAL_ELEMENT_TYPE_F32, {3, 100}, {1});
  const phal_kernel_options_t options = DumpOptions(dump.path());
  EmitOn(device, loop.Desc(), &options);
  EmitOn(device, reduce.Desc(), &options);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dump.path())) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"fusion.1.ptx", "reduce.2.ptx"}));
  for (const std::string& file : files) {
    const std::string ptx = ReadFile(dump.path() / file);
    EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << file;
    EXPECT_NE(ptx.find(".entry"), std::string::npos) << file;
  }
}

// ptxas from the CUDA toolkit, or "" when it is not installed.
std::string FindPtxas() {
  if (std::filesystem::exists("/usr/local/cuda/bin/ptxas")) {
    return "/usr/local/cuda/bin/ptxas";
  }
  if (std::system("ptxas --version > /dev/null 2>&1") == 0) return "ptxas";
  return "";
}

// ptxas's complaint about `ptx` for `arch`, or "" when it assembles it.
std::string PtxasVerdict(const std::string& ptxas, const std::string& ptx,
                         const std::string& arch, const std::string& name) {
  const std::filesystem::path base =
      std::filesystem::temp_directory_path() /
      ("phal_nvidia_" + std::to_string(getpid()) + "_" + name + "_" + arch);
  {
    std::ofstream file(base.string() + ".ptx");
    file << ptx;
  }
  const std::string command = ptxas + " -arch=" + arch + " " + base.string() +
                              ".ptx -o " + base.string() + ".cubin 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "cannot run ptxas";
  char line[512];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) output += line;
  const int status = pclose(pipe);
  std::filesystem::remove(base.string() + ".ptx");
  std::filesystem::remove(base.string() + ".cubin");
  return status == 0 ? "" : output.empty() ? "ptxas failed" : output;
}

TEST(NvidiaPtx, KernelsOfEveryShapeAssembleWithPtxasForSm80AndSm90) {
  const std::string ptxas = FindPtxas();
  if (ptxas.empty())
    GTEST_SKIP() << "ptxas (the CUDA toolkit) is not installed";
  KirKernel loop = MultiplyAddOne(5000);
  KirKernel rows("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  KirKernel columns("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  plugin_testing::BuildSum(rows, PHAL_ELEMENT_TYPE_F32, {3, 1000}, {1});
  plugin_testing::BuildSum(columns, PHAL_ELEMENT_TYPE_S64, {1000, 3}, {0});
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  plugin_testing::BuildMatmul(dot, PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_F32,
                              37, 21, 45);
  KirKernel sort("test_kernel", PHAL_KERNEL_KIND_SORT);
  plugin_testing::BuildSort(
      sort, {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32}, {4, 50}, 1);
  const std::vector<std::pair<std::string, const phal_kernel_desc_t*>> kernels =
      {{"loop", &loop.Desc()},
       {"reduce_rows", &rows.Desc()},
       {"reduce_columns", &columns.Desc()},
       {"dot", &dot.Desc()},
       {"sort", &sort.Desc()}};
  for (unsigned capability : {80u, 90u}) {
    StatusOr<std::unique_ptr<llvm_emitter::NvptxTarget>> target =
        llvm_emitter::NvptxTarget::Create(capability);
    ASSERT_TRUE(target.ok()) << target.status().ToString();
    for (const auto& [name, desc] : kernels) {
      llvm::LLVMContext context;
      StatusOr<llvm_emitter::SpmdKernel> emitted =
          llvm_emitter::EmitSpmdKernel(*desc, **target, context);
      ASSERT_TRUE(emitted.ok()) << name << ": " << emitted.status().ToString();
      StatusOr<std::string> ptx = (*target)->CompileToPtx(*emitted->module);
      ASSERT_TRUE(ptx.ok()) << name << ": " << ptx.status().ToString();
      EXPECT_EQ(PtxasVerdict(ptxas, *ptx, (*target)->arch(), name), "")
          << name << " for " << (*target)->arch();
    }
  }
}

}  // namespace
}  // namespace phal::nvidia
