// Drives the built asic-ref plugin through its exported entry point and
// function table, as the core's loader does: the simulated device and its
// architecture from PHAL_ASIC_REF_CONFIG, its DRAM, kernels compiled to the
// ISA and run by the simulator, their serialized form, the compile-only
// targets, and the performance counters of ABI 1.5. The plugin's
// certification against the reference interpreter is the conformance run
// CMakeLists.txt registers.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "asic_ref_counters.h"
#include "asic_ref_device.h"
#include "asic_ref_dram.h"
#include "isa/asic_isa.h"
#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/collective_contract.h"
#include "sdk/plugin_testing/compile_target_test.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"
#include "sdk/plugin_testing/virtual_device_contract.h"

namespace phal::asic_ref {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const auto* const kAsicRefPlugin =
    AddPluginEnvironment(PHAL_ASIC_REF_PLUGIN_PATH);

const phal_plugin_api_t& Api() { return TestedPlugin().api(); }

std::vector<uint8_t> FloatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> Floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// Sets an environment variable for one scope, restoring it after.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The device counters as a map from "kernel/name" ("/cycles" for the
// device's totals) to value, the block freed.
std::map<std::string, double> Counters(phal_plugin_device_t* device) {
  phal_device_counter_t* counters = nullptr;
  size_t count = 0;
  EXPECT_TRUE(IsOk(Api().device_get_counters(device, &counters, &count)));
  std::map<std::string, double> values;
  for (size_t i = 0; i < count; ++i) {
    values[std::string(counters[i].kernel) + "/" + counters[i].name] =
        counters[i].value;
  }
  FakeHost().host_free(counters);
  return values;
}

// kernel_serialize's bytes, or "" after a failure.
std::string SerializeKernel(phal_plugin_kernel_t* kernel) {
  void* data = nullptr;
  uint64_t size = 0;
  EXPECT_TRUE(IsOk(Api().kernel_serialize(kernel, &data, &size)));
  if (data == nullptr) return "";
  std::string bytes(static_cast<const char*>(data), size);
  FakeHost().host_free(data);
  return bytes;
}

// `bytes`, a serialized kernel, with its program replaced by `program`
// and no comments (asic_ref_kernel.h gives the layout: the program, then
// its comments and the graph flag, end it).
std::string WithProgram(const std::string& bytes, const Program& program) {
  auto u64 = [&](size_t at) {
    uint64_t value = 0;
    std::memcpy(&value, bytes.data() + at, sizeof(value));
    return static_cast<size_t>(value);
  };
  size_t at = 8 + 4;      // magic, format
  at += 8 + u64(at);      // build identity
  at += 8 + u64(at);      // architecture
  at += 8 + 8 * u64(at);  // buffer sizes
  const std::string encoded = EncodeProgram(program);
  std::string out = bytes.substr(0, at);
  const uint64_t size = encoded.size();
  out.append(reinterpret_cast<const char*>(&size), sizeof(size));
  const uint64_t no_comments = 0;
  return out + encoded +
         std::string(reinterpret_cast<const char*>(&no_comments),
                     sizeof(no_comments)) +
         std::string(1, '\0');  // a kernel, not a graph program
}

// ---- the entry point ------------------------------------------------------

TEST(AsicRefEntry, NegotiatesTheNewestVersionBothSidesSpeak) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 1), &FakeHost());
  const phal_plugin_api_t* api = TestedPlugin().entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, PHAL_MAKE_VERSION(1, 1));
  EXPECT_STREQ(api->name, "asic-ref");
  EXPECT_EQ(negotiation.plugin_min_version, PHAL_MAKE_VERSION(1, 0));
  EXPECT_EQ(negotiation.plugin_max_version, PHAL_ABI_VERSION);
}

TEST(AsicRefEntry, AnAbi14CoreSeesNoCounterSlots) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 4), &FakeHost());
  const phal_plugin_api_t* api = TestedPlugin().entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_4);
  EXPECT_NE(api->target_device_open, nullptr);
}

TEST(AsicRefEntry, AnAbi15CoreSeesTheCounterSlots) {
  EXPECT_GE(Api().struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_5);
  EXPECT_NE(Api().device_get_counters, nullptr);
  EXPECT_NE(Api().device_reset_counters, nullptr);
}

TEST(AsicRefEntry, RefusesACoreOfAnotherMajorVersion) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(2, 0), PHAL_MAKE_VERSION(2, 3), &FakeHost());
  EXPECT_EQ(TestedPlugin().entry()(&negotiation), nullptr);
}

// ---- the device and its architecture --------------------------------------

using AsicRefDevice = PluginTest;

// Buffers, copies, streams, events and kernels as every plugin keeps them.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(AsicRefDeviceContract);
// PHAL_VIRTUAL_DEVICES=4: four simulated chips, each with its own DRAM,
// simulator and counters.
PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(AsicRefVirtualDevices);
PHAL_PLUGIN_COLLECTIVE_TESTS(AsicRefCollectives);

TEST_F(AsicRefDevice, DescribesTheSimulatedChipOfTheDefaultArchitecture) {
  size_t count = 0;
  const char* reason = "unset";
  ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(reason, nullptr);
  EXPECT_STREQ(properties_.name,
               "asic-ref (simulated: 4 MiB SRAM, 32x32 array, 1000 MHz)");
  EXPECT_EQ(properties_.kind, PHAL_DEVICE_KIND_ACCELERATOR);
  EXPECT_EQ(properties_.memory_bytes, ArchConfig().dram_bytes);
  EXPECT_EQ(std::string(properties_.features),
            ArchConfigToString(ArchConfig()));
  EXPECT_EQ(properties_.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 0u)
      << "device DRAM is not host memory";
  EXPECT_EQ(properties_.memory_space_count, 1u);
  phal_plugin_device_t* other = nullptr;
  EXPECT_TRUE(HasCode(api().device_open(1, &other), PHAL_INVALID_ARGUMENT));
}

TEST_F(AsicRefDevice, ClaimsExactlyTheMachinesElementTypes) {
  for (uint32_t type = 1; type < PHAL_ELEMENT_TYPE_COUNT; ++type) {
    const bool claimed =
        (properties_.element_types & PHAL_ELEMENT_TYPE_BIT(type)) != 0;
    EXPECT_EQ(claimed, IsMachineType(static_cast<phal_element_type_t>(type)))
        << "element type " << type;
  }
  for (phal_element_type_t absent :
       {PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128}) {
    EXPECT_EQ(properties_.element_types & PHAL_ELEMENT_TYPE_BIT(absent), 0u)
        << "element type " << absent << " does not exist on the machine";
  }
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
}

TEST(AsicRefConfig, TheEnvironmentChoosesTheArchitecture) {
  ScopedEnvironment config(kConfigVariable, "sram=2M,array=16,dram=64M");
  phal_plugin_device_t* device = nullptr;
  ASSERT_TRUE(IsOk(Api().device_open(0, &device)));
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  EXPECT_TRUE(IsOk(Api().device_get_properties(device, &properties)));
  EXPECT_STREQ(properties.name,
               "asic-ref (simulated: 2 MiB SRAM, 16x16 array, 1000 MHz)");
  EXPECT_EQ(properties.memory_bytes, uint64_t{64} << 20);
  Api().device_close(device);
}

TEST(AsicRefConfig, ABrokenConfigurationMeansNoDeviceAndSaysWhy) {
  ScopedEnvironment config(kConfigVariable, "sram=lots");
  size_t count = 7;
  const char* reason = nullptr;
  ASSERT_TRUE(IsOk(Api().device_count(&count, &reason)));
  EXPECT_EQ(count, 0u);
  ASSERT_NE(reason, nullptr);
  EXPECT_NE(std::string(reason).find("PHAL_ASIC_REF_CONFIG=\"sram=lots\""),
            std::string::npos)
      << reason;
  phal_plugin_device_t* device = nullptr;
  EXPECT_TRUE(HasCode(Api().device_open(0, &device), PHAL_INVALID_ARGUMENT,
                      "PHAL_ASIC_REF_CONFIG"));
}

// ---- memory ---------------------------------------------------------------

TEST(AsicRefDram, AllocationsArePageAlignedDeviceAddressesThatNeverRepeat) {
  Dram dram(1 << 20);
  StatusOr<uint64_t> a = dram.Allocate(100);
  StatusOr<uint64_t> empty = dram.Allocate(0);
  StatusOr<uint64_t> b = dram.Allocate(kDramPageBytes);
  ASSERT_TRUE(a.ok() && empty.ok() && b.ok());
  EXPECT_EQ(*a, kDramBaseAddress);
  EXPECT_EQ(*a % kDramPageBytes, 0u);
  EXPECT_EQ(*empty % kDramPageBytes, 0u);
  EXPECT_NE(*a, *empty) << "a zero-byte allocation is distinct";
  EXPECT_GT(*b, *empty);
  dram.Free(*a);
  StatusOr<uint64_t> again = dram.Allocate(100);
  ASSERT_TRUE(again.ok());
  EXPECT_NE(*again, *a) << "a freed address is not handed out again";
}

TEST(AsicRefDram, MapReachesOnlyInsideOneLiveAllocation) {
  Dram dram(1 << 20);
  const uint64_t a = *dram.Allocate(256);
  const uint64_t b = *dram.Allocate(256);
  EXPECT_NE(dram.Map(a, 256), nullptr);
  EXPECT_EQ(dram.Map(a + 16, 8), dram.Map(a, 256) + 16);
  EXPECT_EQ(dram.Map(a + 200, 57), nullptr) << "one byte past the end";
  EXPECT_EQ(dram.Map(a + 256, 1), nullptr) << "the gap between allocations";
  EXPECT_EQ(dram.Map(0, 4), nullptr) << "below the first allocation";
  EXPECT_EQ(dram.Map(a, b - a + 8), nullptr) << "across two allocations";
  EXPECT_EQ(dram.Map(a, UINT64_MAX), nullptr);
  dram.Free(a);
  EXPECT_EQ(dram.Map(a, 8), nullptr) << "a freed allocation";
  EXPECT_NE(dram.Map(b, 8), nullptr);
}

TEST(AsicRefDram, AllocatingBeyondTheCapacityIsRefusedNamingTheSizes) {
  Dram dram(1000);
  const uint64_t a = *dram.Allocate(600);
  EXPECT_TRUE(HasCode(dram.Allocate(600).status(), PHAL_RESOURCE_EXHAUSTED,
                      {"600 bytes", "1000 bytes", "600 in use"}));
  dram.Free(a);
  EXPECT_TRUE(dram.Allocate(1000).ok()) << "freed bytes count no more";
  EXPECT_EQ(dram.allocated_bytes(), 1000u);
}

TEST(AsicRefConfig, BuffersBeyondTheDevicesDramAreRefused) {
  ScopedEnvironment config(kConfigVariable, "dram=1M");
  phal_plugin_device_t* device = nullptr;
  ASSERT_TRUE(IsOk(Api().device_open(0, &device)));
  phal_plugin_buffer_t* first = nullptr;
  ASSERT_TRUE(IsOk(Api().buffer_allocate(device, 0, 600 << 10, &first)));
  phal_plugin_buffer_t* second = nullptr;
  EXPECT_TRUE(HasCode(Api().buffer_allocate(device, 0, 600 << 10, &second),
                      PHAL_RESOURCE_EXHAUSTED, "1048576 bytes"));
  Api().buffer_free(first);
  Api().device_close(device);
}

// ---- kernels --------------------------------------------------------------

TEST_F(AsicRefDevice, RunsALoopKernelOnTheSimulator) {
  KirKernel kernel = MultiplyAddOne(5);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  std::vector<std::vector<uint8_t>> contents = {FloatBytes({1, 2, 3, 4, 5}),
                                                FloatBytes({2, 2, 2, 0.5f, -1}),
                                                FloatBytes({0, 0, 0, 0, 0})};
  Run(emitted, contents);
  EXPECT_EQ(Floats(contents[2]), (std::vector<float>{3, 5, 7, 3, -4}));
}

TEST_F(AsicRefDevice, KernelsOfTypesTheMachineLacksAreUnimplemented) {
  KirKernel dot("test_kernel", PHAL_KERNEL_KIND_DOT);
  ::phal::plugin_testing::BuildMatmul(dot, PHAL_ELEMENT_TYPE_F64,
                                      PHAL_ELEMENT_TYPE_F64, 2, 2, 2);
  phal_plugin_kernel_t* emitted = nullptr;
  EXPECT_TRUE(
      HasCode(api().kernel_emit(device_, &dot.Desc(), nullptr, &emitted),
              PHAL_UNIMPLEMENTED, "f64"));
}

TEST_F(AsicRefDevice, MalformedKernelsAreRefusedWithAMessage) {
  KirKernel kernel = MultiplyAddOne(2);
  kernel.outputs = {7};  // no such buffer
  phal_plugin_kernel_t* emitted = nullptr;
  EXPECT_TRUE(
      HasCode(api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted),
              PHAL_INVALID_ARGUMENT));
}

TEST_F(AsicRefDevice, ALaunchWithBuffersTooSmallIsRefused) {
  KirKernel kernel = MultiplyAddOne(4);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  phal_plugin_stream_t* stream = CreateStream();
  phal_plugin_buffer_t* small = Allocate(4);
  phal_plugin_buffer_t* const too_small[] = {small, small, small};
  EXPECT_TRUE(HasCode(api().stream_launch(stream, emitted, too_small, 3),
                      PHAL_OUT_OF_RANGE));
}

TEST_F(AsicRefDevice, ASimulatorFaultIsTheStreamsErrorNotACrash) {
  KirKernel kernel = MultiplyAddOne(4);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  // A DMA load from device address 0 (x1 is 0 at launch): outside DRAM.
  Program faulting;
  faulting.name = "faulting";
  Instruction load;
  load.op = Opcode::kDmaLoad;
  load.type = PHAL_ELEMENT_TYPE_F32;
  load.rm = 1;
  faulting.instructions = {load, Instruction{.op = Opcode::kHalt}};
  faulting.descriptors = {DmaDescriptor{}};
  const std::string bytes = WithProgram(SerializeKernel(emitted), faulting);
  phal_plugin_kernel_t* restored = nullptr;
  ASSERT_TRUE(IsOk(api().kernel_deserialize(device_, bytes.data(), bytes.size(),
                                            &restored)));
  phal_plugin_stream_t* stream = CreateStream();
  phal_plugin_buffer_t* buffer = Allocate(16);
  phal_plugin_buffer_t* const buffers[] = {buffer, buffer, buffer};
  EXPECT_TRUE(IsOk(api().stream_launch(stream, restored, buffers, 3)));
  EXPECT_TRUE(HasCode(api().stream_synchronize(stream), PHAL_OUT_OF_RANGE,
                      "asic-ref program 'faulting': instruction 0 (dma.ld"));
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)))
      << "the error is reported once";
  api().kernel_destroy(restored);
  EXPECT_EQ(Counters(device_)["/launches"], 0) << "a fault is not counted";
}

TEST_F(AsicRefDevice, ForeignAndTruncatedBytesAreNotAKernel) {
  const std::string garbage = "not a kernel of this plugin";
  phal_plugin_kernel_t* restored = nullptr;
  EXPECT_TRUE(HasCode(api().kernel_deserialize(device_, garbage.data(),
                                               garbage.size(), &restored),
                      PHAL_FAILED_PRECONDITION));
  KirKernel kernel = MultiplyAddOne(3);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  const std::string bytes = SerializeKernel(emitted);
  for (size_t size : {size_t{12}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_TRUE(HasCode(
        api().kernel_deserialize(device_, bytes.data(), size, &restored),
        PHAL_DATA_LOSS))
        << size << " of " << bytes.size() << " bytes";
  }
}

// ---- counters (ABI 1.5) ---------------------------------------------------

TEST(AsicRefCounters, SumRunsPerKernelAndInTotal) {
  ArchConfig config;
  config.array_size = 4;
  DeviceCounters counters(config);
  KernelCounters run;
  run.cycles = 100;
  run.busy[static_cast<int>(Unit::kMatrix)] = 50;
  run.macs = 800;
  run.dram_bytes_read = 64;
  counters.Add("dot", run);
  counters.Add("dot", run);
  run.busy[static_cast<int>(Unit::kMatrix)] = 0;
  run.macs = 0;
  counters.Add("add", run);
  std::map<std::string, NamedCounter> by_name;
  for (NamedCounter& counter : counters.Snapshot()) {
    by_name.emplace(counter.kernel + "/" + counter.name, counter);
  }
  EXPECT_EQ(by_name.at("/launches").value, 3);
  EXPECT_EQ(by_name.at("/cycles").value, 300);
  EXPECT_STREQ(by_name.at("/cycles").unit, "cycles");
  EXPECT_EQ(by_name.at("dot/launches").value, 2);
  EXPECT_EQ(by_name.at("dot/cycles").value, 200);
  EXPECT_DOUBLE_EQ(by_name.at("dot/utilization.matrix").value, 0.5);
  EXPECT_STREQ(by_name.at("dot/utilization.matrix").unit, "ratio");
  EXPECT_DOUBLE_EQ(by_name.at("/utilization.matrix").value, 100.0 / 300);
  // 1600 MACs over 200 cycles of a 4x4 array: half its peak.
  EXPECT_DOUBLE_EQ(by_name.at("dot/efficiency.matrix").value, 0.5);
  EXPECT_EQ(by_name.at("/dram.bytes_read").value, 192);
  EXPECT_STREQ(by_name.at("/dram.bytes_read").unit, "bytes");
  counters.Reset();
  const std::vector<NamedCounter> reset = counters.Snapshot();
  for (const NamedCounter& counter : reset) {
    EXPECT_EQ(counter.kernel, "") << "no kernel is counted after a reset";
    EXPECT_EQ(counter.value, 0) << counter.name;
  }
}

TEST_F(AsicRefDevice, CountsEachLaunchUntilReset) {
  std::map<std::string, double> before = Counters(device_);
  EXPECT_EQ(before["/launches"], 0);
  EXPECT_EQ(before["/cycles"], 0);
  KirKernel kernel = MultiplyAddOne(64);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  std::vector<std::vector<uint8_t>> contents = {
      FloatBytes(std::vector<float>(64, 1)),
      FloatBytes(std::vector<float>(64, 2)),
      FloatBytes(std::vector<float>(64, 0))};
  Run(emitted, contents);
  Run(emitted, contents);
  std::map<std::string, double> after = Counters(device_);
  EXPECT_EQ(after["/launches"], 2);
  EXPECT_GT(after["/cycles"], 0);
  EXPECT_EQ(after["multiply_add_one/cycles"], after["/cycles"]);
  EXPECT_GE(after["/dram.bytes_read"], 2 * 2 * 64 * 4)
      << "each run reads both inputs";
  EXPECT_GE(after["/dram.bytes_written"], 2 * 64 * 4);
  EXPECT_GT(after["/busy.vector"], 0);
  EXPECT_GT(after["/utilization.vector"], 0);
  EXPECT_LE(after["/utilization.vector"], 1);

  ASSERT_TRUE(IsOk(api().device_reset_counters(device_)));
  std::map<std::string, double> reset = Counters(device_);
  EXPECT_EQ(reset["/launches"], 0);
  EXPECT_EQ(reset.count("multiply_add_one/launches"), 0u);
}

// ---- graph mode (ABI 1.13) -------------------------------------------------

// A part of two kernels: t = a * b + 1, then out = t * b + 1, t a
// temporary the graph program keeps on chip.
struct TwoKernelGraph {
  explicit TwoKernelGraph(int64_t n)
      : first(MultiplyAddOne(n)), second(MultiplyAddOne(n)) {
    first.set_name("first");
    second.set_name("second");
    const uint64_t bytes = static_cast<uint64_t>(n) * 4;
    values = {{PHAL_PROGRAM_VALUE_PARAMETER, 0, bytes, nullptr},
              {PHAL_PROGRAM_VALUE_PARAMETER, 1, bytes, nullptr},
              {PHAL_PROGRAM_VALUE_TEMPORARY, 0, bytes, nullptr},
              {PHAL_PROGRAM_VALUE_TEMPORARY, 0, bytes, nullptr}};
    steps = {{&first.Desc(), first_values}, {&second.Desc(), second_values}};
    graph.struct_size = sizeof(graph);
    graph.value_count = 4;
    graph.values = values.data();
    graph.step_count = 2;
    graph.steps = steps.data();
    graph.results = results;
    dims = {n};
    for (int i = 0; i < 3; ++i) {
      buffers[i] = {PHAL_ELEMENT_TYPE_F32,
                    i < 2 ? PHAL_KIR_ACCESS_READ : PHAL_KIR_ACCESS_WRITE, 1, 0,
                    dims.data()};
    }
    desc.struct_size = sizeof(desc);
    desc.name = "main.offload.0";
    desc.format = PHAL_PLUGIN_PROGRAM_KIR_GRAPH;
    desc.graph = &graph;
    desc.parameter_count = 2;
    desc.result_count = 1;
    desc.buffers = buffers;
    desc.replica_count = 1;
    desc.partition_count = 1;
  }
  KirKernel first;
  KirKernel second;
  const uint32_t first_values[3] = {0, 1, 2};
  const uint32_t second_values[3] = {2, 1, 3};
  const uint32_t results[1] = {3};
  std::vector<phal_program_value_t> values;
  std::vector<phal_program_step_t> steps;
  phal_kir_graph_t graph{};
  std::vector<int64_t> dims;
  phal_kir_buffer_t buffers[3]{};
  phal_program_desc_t desc{};
};

TEST_F(AsicRefDevice, GraphModeKeepsTheIntermediateOnChip) {
  uint32_t formats = 0;
  ASSERT_TRUE(IsOk(api().program_get_formats(device_, &formats)));
  EXPECT_EQ(formats,
            PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_KIR_GRAPH));
  constexpr int64_t kN = 256;
  TwoKernelGraph part(kN);
  phal_plugin_kernel_t* program = nullptr;
  ASSERT_TRUE(
      IsOk(api().program_compile(device_, &part.desc, nullptr, &program)));
  std::vector<float> a(kN), b(kN), expected(kN);
  for (int64_t i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i % 7) - 3;
    b[i] = 0.5f * static_cast<float>(i % 5);
    expected[i] = (a[i] * b[i] + 1) * b[i] + 1;
  }
  std::vector<std::vector<uint8_t>> contents = {
      FloatBytes(a), FloatBytes(b), FloatBytes(std::vector<float>(kN, 0))};
  Run(program, contents);
  EXPECT_EQ(Floats(contents[2]), expected);
  std::map<std::string, double> graph = Counters(device_);
  EXPECT_EQ(graph["main.offload.0/launches"], 1);
  // a and b, b again, and the result: t never leaves the chip.
  EXPECT_EQ(graph["/dram.bytes_read"], 3 * kN * 4);
  EXPECT_EQ(graph["/dram.bytes_written"], kN * 4);

  // Kernel by kernel, t goes through DRAM, and the two take longer.
  ASSERT_TRUE(IsOk(api().device_reset_counters(device_)));
  phal_plugin_kernel_t* first = Emit(part.first.Desc());
  phal_plugin_kernel_t* second = Emit(part.second.Desc());
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  std::vector<std::vector<uint8_t>> one = {
      FloatBytes(a), FloatBytes(b), FloatBytes(std::vector<float>(kN, 0))};
  Run(first, one);
  std::vector<std::vector<uint8_t>> two = {
      one[2], FloatBytes(b), FloatBytes(std::vector<float>(kN, 0))};
  Run(second, two);
  EXPECT_EQ(Floats(two[2]), expected);
  std::map<std::string, double> kernels = Counters(device_);
  EXPECT_EQ(kernels["/dram.bytes_read"], 4 * kN * 4);
  EXPECT_EQ(kernels["/dram.bytes_written"], 2 * kN * 4);
  EXPECT_LT(graph["/cycles"], kernels["/cycles"]);

  // The graph program serializes and loads back.
  const std::string bytes = SerializeKernel(program);
  phal_plugin_kernel_t* loaded = nullptr;
  ASSERT_TRUE(IsOk(
      api().kernel_deserialize(device_, bytes.data(), bytes.size(), &loaded)));
  std::vector<std::vector<uint8_t>> again = {
      FloatBytes(a), FloatBytes(b), FloatBytes(std::vector<float>(kN, 0))};
  Run(loaded, again);
  EXPECT_EQ(Floats(again[2]), expected);
  api().kernel_destroy(loaded);
  api().kernel_destroy(program);
  // Cut short anywhere, the bytes are refused, never a crash.
  for (size_t cut = 0; cut < bytes.size(); cut += 97) {
    phal_plugin_kernel_t* broken = nullptr;
    phal_status_t* status =
        api().kernel_deserialize(device_, bytes.data(), cut, &broken);
    EXPECT_NE(status, nullptr) << cut;
    FakeHost().status_free(status);
  }
}

TEST(AsicRefGraphMode, KernelModeReadsNoProgramFormat) {
  ScopedEnvironment mode("PHAL_ASIC_REF_MODE", "kernels");
  uint32_t formats = 1;
  ASSERT_TRUE(IsOk(Api().program_get_formats(nullptr, &formats)));
  EXPECT_EQ(formats, 0u);
  phal_program_op_t op{};
  op.struct_size = sizeof(op);
  op.opcode = "add";
  op.text = "%a = f32[] add(f32[] %x, f32[] %y)";
  int accepted = 1;
  ASSERT_TRUE(IsOk(Api().program_accepts_op(nullptr, &op, &accepted)));
  EXPECT_EQ(accepted, 0);
}

using AsicRefVirtualChips = VirtualDeviceContractTest;

TEST_F(AsicRefVirtualChips, EachChipCountsOnlyItsOwnWork) {
  UseDevice(1);
  KirKernel kernel = MultiplyAddOne(64);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  std::vector<std::vector<uint8_t>> contents = MultiplyAddOneInputs(64);
  Run(emitted, contents);
  EXPECT_EQ(Counters(device_)["/launches"], 1);
  phal_plugin_device_t* other = nullptr;
  ASSERT_TRUE(IsOk(api().device_open(2, &other)));
  std::map<std::string, double> others = Counters(other);
  EXPECT_EQ(others["/launches"], 0);
  EXPECT_EQ(others["/cycles"], 0);
  api().device_close(other);
}

TEST_F(AsicRefDevice, CounterStringsLiveInTheOneBlockTheCoreFrees) {
  phal_device_counter_t* counters = nullptr;
  size_t count = 0;
  ASSERT_TRUE(IsOk(api().device_get_counters(device_, &counters, &count)));
  ASSERT_GT(count, 0u);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_NE(counters[i].name, nullptr);
    EXPECT_STREQ(counters[i].kernel, "");
    EXPECT_GT(reinterpret_cast<const void*>(counters[i].unit),
              static_cast<const void*>(counters + count));
  }
  FakeHost().host_free(counters);
}

// ---- compile-only targets (ABI 1.4) ---------------------------------------

class AsicRefTargets : public CompileTargetTest {
 protected:
  AsicRefTargets() : CompileTargetTest(Api()) {}
};

TEST_F(AsicRefTargets, ListsTheDefaultArchitectureFirst) {
  const char* const* names = nullptr;
  size_t count = 0;
  ASSERT_TRUE(IsOk(Api().target_get_names(&names, &count)));
  ASSERT_EQ(count, std::size(kTargets));
  EXPECT_STREQ(names[0], "asic-ref");
  phal_plugin_device_t* device = Open(nullptr);
  ASSERT_NE(device, nullptr);
  EXPECT_STREQ(Properties(device).name,
               "asic-ref target asic-ref (compile only: 4 MiB SRAM, 32x32 "
               "array, 1000 MHz)");
}

TEST_F(AsicRefTargets, AnUnknownTargetIsNotFoundAndTheMessageListsTheTargets) {
  phal_plugin_device_t* device = nullptr;
  EXPECT_TRUE(HasCode(Api().target_device_open("asic-ref-9000", &device),
                      PHAL_NOT_FOUND, "asic-ref-sram2m-a16"));
}

TEST_F(AsicRefTargets, ACompileOnlyDeviceRefusesBuffersStreamsAndEvents) {
  phal_plugin_device_t* device = Open("asic-ref-sram2m-a16");
  ASSERT_NE(device, nullptr);
  const phal_device_properties_t properties = Properties(device);
  EXPECT_NE(properties.flags & PHAL_DEVICE_FLAG_COMPILE_ONLY, 0u);
  EXPECT_NE(std::string(properties.name).find("2 MiB SRAM, 16x16 array"),
            std::string::npos)
      << properties.name;
  ExpectRefusesBuffersStreamsAndEvents(device);
}

TEST_F(AsicRefTargets, KernelBytesLoadOnlyOnTheirOwnArchitecture) {
  phal_plugin_device_t* small = Open("asic-ref-sram2m-a16");
  phal_plugin_device_t* standard = Open("asic-ref");
  ASSERT_NE(small, nullptr);
  ASSERT_NE(standard, nullptr);
  KirKernel kernel = MultiplyAddOne(8);
  phal_plugin_kernel_t* emitted = EmitOn(small, kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  const std::string bytes = SerializeKernel(emitted);
  EXPECT_TRUE(IsOk(Deserialize(small, bytes)));
  EXPECT_TRUE(HasCode(Deserialize(standard, bytes), PHAL_FAILED_PRECONDITION,
                      "architecture"));
}

TEST_F(AsicRefTargets, TheDefaultTargetsKernelsLoadOnTheDefaultDevice) {
  phal_plugin_device_t* target = Open(nullptr);
  ASSERT_NE(target, nullptr);
  KirKernel kernel = MultiplyAddOne(3);
  phal_plugin_kernel_t* emitted = EmitOn(target, kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  const std::string bytes = SerializeKernel(emitted);
  phal_plugin_device_t* device = nullptr;
  ASSERT_TRUE(IsOk(Api().device_open(0, &device)));
  phal_plugin_kernel_t* restored = nullptr;
  EXPECT_TRUE(IsOk(
      Api().kernel_deserialize(device, bytes.data(), bytes.size(), &restored)));
  Api().kernel_destroy(restored);
  Api().device_close(device);
}

TEST_F(AsicRefTargets, TheDumpDirectoryGetsEachKernelsAssembly) {
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("asic_ref_dump_" + std::to_string(getpid()));
  std::filesystem::create_directories(directory);
  phal_kernel_options_t options{};
  options.struct_size = sizeof(options);
  const std::string directory_text = directory.string();
  options.dump_directory = directory_text.c_str();
  phal_plugin_device_t* target = Open(nullptr);
  ASSERT_NE(target, nullptr);
  KirKernel kernel = MultiplyAddOne(3);
  ASSERT_NE(EmitOn(target, kernel.Desc(), &options), nullptr);
  std::ifstream file(directory / "multiply_add_one.s");
  const std::string text((std::istreambuf_iterator<char>(file)),
                         std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("halt"), std::string::npos) << text;
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace phal::asic_ref
