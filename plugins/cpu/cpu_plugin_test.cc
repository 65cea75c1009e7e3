// Drives the built cpu plugin's device, memory, stream and event slots
// through its exported entry point and function table, as the core's loader
// does (kernels: cpu_kernel_test.cc and cpu_kernel_ops_test.cc). The plugin
// is loaded here once for every test of phal_plugin_cpu_tests.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "plugins/cpu/cpu_memory.h"
#include "polyhal/plugin.h"
#include "sdk/plugin_testing/collective_contract.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"
#include "sdk/plugin_testing/virtual_device_contract.h"

namespace phal::cpu {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const PluginEnvironment* const kCpuPlugin =
    AddPluginEnvironment(PHAL_CPU_PLUGIN_PATH);

constexpr uint32_t kAbi10 = PHAL_MAKE_VERSION(1, 0);
constexpr uint32_t kAbi11 = PHAL_MAKE_VERSION(1, 1);
constexpr uint32_t kAbi12 = PHAL_MAKE_VERSION(1, 2);
constexpr uint32_t kAbi15 = PHAL_MAKE_VERSION(1, 5);
constexpr uint32_t kAbi17 = PHAL_MAKE_VERSION(1, 7);
constexpr uint32_t kAbi18 = PHAL_MAKE_VERSION(1, 8);
constexpr uint32_t kAbi113 = PHAL_MAKE_VERSION(1, 13);
constexpr uint32_t kAbi114 = PHAL_MAKE_VERSION(1, 14);
constexpr uint64_t kMiB = uint64_t{1} << 20;

std::vector<uint8_t> Pattern(size_t byte_size, uint8_t seed) {
  std::vector<uint8_t> bytes(byte_size);
  for (size_t i = 0; i < byte_size; ++i) {
    bytes[i] = static_cast<uint8_t>(i * 131 + seed);
  }
  return bytes;
}

// ABI 1.0 has no slot mapping a buffer into host memory, so the tests that
// pin where buffers live read the block through the plugin's own header.
const std::byte* BufferAddress(phal_plugin_buffer_t* buffer) {
  return static_cast<const phal::cpu::Buffer*>(buffer)->data();
}

// Buffers, copies, streams, events and kernels as every plugin keeps them.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(CpuDeviceContract);
// PHAL_VIRTUAL_DEVICES=4: four devices sharing the host's cores.
PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(CpuVirtualDevices);
PHAL_PLUGIN_COLLECTIVE_TESTS(CpuCollectives);

class CpuPluginTest : public PluginTest {
 protected:
  // Queues copies that keep `stream` busy for tens of milliseconds, so that
  // work queued after them is still pending when the test looks at it.
  void QueueBusyWork(phal_plugin_stream_t* stream) {
    constexpr uint64_t kBusyBytes = 128 * kMiB;
    if (busy_source_ == nullptr) {
      busy_source_ = Allocate(kBusyBytes);
      busy_destination_ = Allocate(kBusyBytes);
    }
    for (int i = 0; i < 8; ++i) {
      ASSERT_TRUE(IsOk(api().stream_copy_buffer(
          stream, busy_source_, 0, busy_destination_, 0, kBusyBytes)));
    }
  }

 private:
  phal_plugin_buffer_t* busy_source_ = nullptr;
  phal_plugin_buffer_t* busy_destination_ = nullptr;
};

// ---- negotiation ---------------------------------------------------------

TEST(CpuPluginNegotiationTest, ReturnsAbi114TableToACoreThatSpeaksIt) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi114, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi114);
  EXPECT_EQ(api->abi_version, kAbi114);
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_14)
      << "the table should end where ABI 1.14's does";
  EXPECT_NE(api->target_device_open, nullptr);
  EXPECT_EQ(api->device_get_counters, nullptr)
      << "the plugin counts nothing: the core answers the counter slots";
  EXPECT_NE(api->communicator_create, nullptr);
  EXPECT_NE(api->stream_collective, nullptr);
  EXPECT_EQ(api->communicator_join, nullptr)
      << "the plugin joins no communicator over processes (ABI 1.12)";
  EXPECT_EQ(api->program_compile, nullptr)
      << "the plugin takes no whole program (ABI 1.13)";
  EXPECT_STREQ(api->name, "cpu");
  EXPECT_STRNE(api->version, "");
}

TEST(CpuPluginNegotiationTest, TellsACoreOfAbi113ItsOwnVersion) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi113, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi113)
      << "a 1.13 core must not be told the plugin takes 1.14's LINALG kernels";
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_13);
}

TEST(CpuPluginNegotiationTest, ReturnsAbi18TableToACoreThatSpeaksIt) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi18, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi18);
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_8)
      << "the table should end where ABI 1.8's does";
  EXPECT_NE(api->stream_collective, nullptr);
}

TEST(CpuPluginNegotiationTest, ReturnsAbi17TableWithoutCollectivesToA17Core) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi17, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi17);
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_7)
      << "a 1.7 core must not be handed the collective slots of 1.8";
}

TEST(CpuPluginNegotiationTest, TellsACoreOfAbi15ItsOwnVersion) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi15, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi15)
      << "a 1.5 core must not be told the plugin takes 1.6's FFT kernels";
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_5);
}

TEST(CpuPluginNegotiationTest, ReturnsAbi12TableWithoutTargetSlotsToA12Core) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi12, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi12);
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_2)
      << "a 1.2 core must not be handed the slots 1.4 appended";
}

TEST(CpuPluginNegotiationTest, ReturnsAbi11TableToACoreThatSpeaksOnlyUpTo11) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi11, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi114);
  EXPECT_EQ(api->abi_version, kAbi11)
      << "a 1.1 core must not be told the plugin takes 1.2's KIR ops";
  EXPECT_EQ(api->struct_size, PHAL_PLUGIN_API_STRUCT_SIZE_1_2)
      << "ABI 1.2 appended no slot, so the 1.1 table is just as long";
  EXPECT_NE(api->stream_launch, nullptr);
}

TEST(CpuPluginNegotiationTest, ReturnsAbi10TableToACoreThatSpeaksOnly10) {
  phal_plugin_negotiation_t negotiation =
      Negotiation(kAbi10, kAbi10, &FakeHost());
  const phal_plugin_api_t* api = kCpuPlugin->entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi114);
  EXPECT_EQ(api->abi_version, kAbi10);
  EXPECT_EQ(api->struct_size, offsetof(phal_plugin_api_t, kernel_emit))
      << "the table should end where ABI 1.0's does";
  EXPECT_NE(api->event_query, nullptr);
}

TEST(CpuPluginNegotiationTest, Abi12TableFillsEveryKernelSlot) {
  const phal_plugin_api_t& api = kCpuPlugin->api();
  EXPECT_NE(api.kernel_emit, nullptr);
  EXPECT_NE(api.kernel_destroy, nullptr);
  EXPECT_NE(api.kernel_serialize, nullptr);
  EXPECT_NE(api.kernel_deserialize, nullptr);
  EXPECT_NE(api.stream_launch, nullptr);
}

TEST(CpuPluginNegotiationTest, FillsEveryDeviceMemoryStreamAndEventSlot) {
  const phal_plugin_api_t& api = kCpuPlugin->api();
  const void* slots[] = {
      reinterpret_cast<const void*>(api.shutdown),
      reinterpret_cast<const void*>(api.device_count),
      reinterpret_cast<const void*>(api.device_open),
      reinterpret_cast<const void*>(api.device_close),
      reinterpret_cast<const void*>(api.device_get_properties),
      reinterpret_cast<const void*>(api.device_get_memory_space),
      reinterpret_cast<const void*>(api.buffer_allocate),
      reinterpret_cast<const void*>(api.buffer_free),
      reinterpret_cast<const void*>(api.stream_create),
      reinterpret_cast<const void*>(api.stream_destroy),
      reinterpret_cast<const void*>(api.stream_synchronize),
      reinterpret_cast<const void*>(api.stream_copy_from_host),
      reinterpret_cast<const void*>(api.stream_copy_to_host),
      reinterpret_cast<const void*>(api.stream_copy_buffer),
      reinterpret_cast<const void*>(api.event_create),
      reinterpret_cast<const void*>(api.event_destroy),
      reinterpret_cast<const void*>(api.stream_record_event),
      reinterpret_cast<const void*>(api.stream_wait_event),
      reinterpret_cast<const void*>(api.event_synchronize),
      reinterpret_cast<const void*>(api.event_query),
  };
  for (size_t i = 0; i < std::size(slots); ++i) {
    EXPECT_NE(slots[i], nullptr) << "slot " << i << " of the table is NULL";
  }
}

TEST(CpuPluginNegotiationTest, ReturnsNullButReportsItsRangeToANewerCore) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(2, 0), PHAL_MAKE_VERSION(2, 3), &FakeHost());
  EXPECT_EQ(kCpuPlugin->entry()(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi114);
}

TEST(CpuPluginNegotiationTest, ReturnsNullButReportsItsRangeToAnOlderCore) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(0, 1), PHAL_MAKE_VERSION(0, 9), &FakeHost());
  EXPECT_EQ(kCpuPlugin->entry()(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi114);
}

TEST(CpuPluginNegotiationTest, ReturnsNullWhenHostCannotCreateStatuses) {
  phal_host_services_t host = FakeHost();
  host.status_create = nullptr;
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi10, &host);
  EXPECT_EQ(kCpuPlugin->entry()(&negotiation), nullptr);
  negotiation = Negotiation(kAbi10, kAbi10, nullptr);
  EXPECT_EQ(kCpuPlugin->entry()(&negotiation), nullptr);
}

// ---- device ----------------------------------------------------------------

TEST_F(CpuPluginTest, ReportsExactlyOneDeviceAndRejectsOtherOrdinals) {
  size_t count = 0;
  const char* reason = "unset";
  ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(reason, nullptr);
  phal_plugin_device_t* other = nullptr;
  EXPECT_TRUE(HasCode(api().device_open(1, &other), PHAL_INVALID_ARGUMENT));
  EXPECT_EQ(other, nullptr);
}

TEST_F(CpuPluginTest, PropertiesDescribeTheHostCpu) {
  EXPECT_STRNE(properties_.name, "");
  ASSERT_NE(properties_.vendor, nullptr);
  EXPECT_NE(std::string(properties_.driver_version).find("Linux "),
            std::string::npos)
      << properties_.driver_version;
  EXPECT_EQ(properties_.kind, PHAL_DEVICE_KIND_CPU);
  EXPECT_EQ(properties_.ordinal, 0u);
  EXPECT_GE(properties_.compute_units, 1u);
  EXPECT_LE(properties_.compute_units,
            std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(properties_.memory_space_count, 1u);
  EXPECT_GT(properties_.memory_bytes, 0u);
  EXPECT_GT(properties_.max_allocation_bytes, 0u);
  EXPECT_LE(properties_.max_allocation_bytes, properties_.memory_bytes);
  EXPECT_GE(properties_.min_alignment, 64u);
  EXPECT_TRUE(std::has_single_bit(properties_.min_alignment))
      << properties_.min_alignment;
  EXPECT_EQ(properties_.flags,
            PHAL_DEVICE_FLAG_ASYNC_STREAMS | PHAL_DEVICE_FLAG_HOST_ADDRESSABLE);
  for (uint32_t type = PHAL_ELEMENT_TYPE_PRED; type < PHAL_ELEMENT_TYPE_COUNT;
       ++type) {
    EXPECT_NE(properties_.element_types & PHAL_ELEMENT_TYPE_BIT(type), 0u)
        << "element type " << type << " missing";
  }
  EXPECT_EQ(properties_.element_types &
                PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_INVALID),
            0u);
}

TEST_F(CpuPluginTest, FeaturesNameTheBaselineIsaOfTheHost) {
  const std::string features = std::string(" ") + properties_.features + " ";
#if defined(__x86_64__)
  EXPECT_NE(features.find(" sse2 "), std::string::npos) << features;
  EXPECT_STRNE(properties_.vendor, "");
#elif defined(__aarch64__)
  EXPECT_NE(features.find(" neon "), std::string::npos) << features;
#endif
  EXPECT_EQ(features.find("  "), std::string::npos)
      << "features must be single-space separated: '" << features << "'";
}

TEST_F(CpuPluginTest, UuidIsAStableVersion8Uuid) {
  uint8_t first[16];
  std::memcpy(first, properties_.uuid, sizeof(first));
  EXPECT_EQ(first[6] >> 4, 8) << "UUID version";
  EXPECT_EQ(first[8] >> 6, 2) << "UUID variant";

  api().device_close(device_);
  device_ = nullptr;
  ASSERT_TRUE(IsOk(api().device_open(0, &device_)));
  phal_device_properties_t again{};
  again.struct_size = sizeof(again);
  ASSERT_TRUE(IsOk(api().device_get_properties(device_, &again)));
  EXPECT_EQ(std::memcmp(first, again.uuid, sizeof(first)), 0);
}

TEST_F(CpuPluginTest, MemorySpaceZeroIsUnifiedHostMemory) {
  phal_memory_space_info_t space{};
  space.struct_size = sizeof(space);
  ASSERT_TRUE(IsOk(api().device_get_memory_space(device_, 0, &space)));
  EXPECT_STREQ(space.name, "host");
  EXPECT_EQ(space.kind, PHAL_MEMORY_KIND_UNIFIED);
  EXPECT_EQ(space.capacity_bytes, properties_.memory_bytes);
  EXPECT_TRUE(HasCode(api().device_get_memory_space(device_, 1, &space),
                      PHAL_OUT_OF_RANGE));
}

// ---- memory ----------------------------------------------------------------

TEST_F(CpuPluginTest, EveryBufferIsAlignedToMinAlignment) {
  for (uint64_t size : {1u, 3u, 63u, 64u, 65u, 1000u, 4097u, 1u << 20}) {
    phal_plugin_buffer_t* buffer = Allocate(size);
    ASSERT_NE(buffer, nullptr);
    const auto address = reinterpret_cast<uintptr_t>(BufferAddress(buffer));
    EXPECT_EQ(address % properties_.min_alignment, 0u)
        << "buffer of " << size << " bytes at " << address;
  }
}

TEST_F(CpuPluginTest, ZeroSizeBuffersAreDistinctAndUsable) {
  phal_plugin_buffer_t* first = Allocate(0);
  phal_plugin_buffer_t* second = Allocate(0);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first, second);
  EXPECT_NE(BufferAddress(first), BufferAddress(second));
  phal_plugin_stream_t* stream = CreateStream();
  EXPECT_TRUE(IsOk(api().stream_copy_from_host(stream, nullptr, first, 0, 0)));
  EXPECT_TRUE(IsOk(api().stream_copy_buffer(stream, first, 0, second, 0, 0)));
  EXPECT_TRUE(IsOk(api().stream_copy_to_host(stream, second, 0, nullptr, 0)));
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)));
}

TEST_F(CpuPluginTest, A256MiBBufferRoundTripsItsContents) {
  constexpr uint64_t kSize = 256 * kMiB;
  std::vector<uint64_t> source(kSize / sizeof(uint64_t));
  std::iota(source.begin(), source.end(), uint64_t{0x1234});
  std::vector<uint64_t> result(source.size());
  phal_plugin_buffer_t* buffer = Allocate(kSize);
  ASSERT_NE(buffer, nullptr);
  phal_plugin_stream_t* stream = CreateStream();
  ASSERT_TRUE(IsOk(
      api().stream_copy_from_host(stream, source.data(), buffer, 0, kSize)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(stream, buffer, 0, result.data(), kSize)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_TRUE(source == result) << "256 MiB came back different";
}

TEST_F(CpuPluginTest, AllocationsBeyondMaxAllocationFailWithResourceExhausted) {
  for (uint64_t size : {properties_.max_allocation_bytes + 1,
                        properties_.memory_bytes * 4, UINT64_MAX}) {
    phal_plugin_buffer_t* buffer = nullptr;
    EXPECT_TRUE(HasCode(api().buffer_allocate(device_, 0, size, &buffer),
                        PHAL_RESOURCE_EXHAUSTED))
        << size << " bytes";
    EXPECT_EQ(buffer, nullptr);
  }
}

TEST_F(CpuPluginTest, AllocationInAMissingMemorySpaceIsInvalid) {
  phal_plugin_buffer_t* buffer = nullptr;
  EXPECT_TRUE(HasCode(api().buffer_allocate(device_, 1, 64, &buffer),
                      PHAL_INVALID_ARGUMENT));
  EXPECT_EQ(buffer, nullptr);
}

// ---- copies ----------------------------------------------------------------

TEST_F(CpuPluginTest, CopiesHostToBufferAndBackHonourOffsets) {
  const std::vector<uint8_t> source = Pattern(1000, 7);
  std::vector<uint8_t> result(1000, 0xEE);
  phal_plugin_buffer_t* buffer = Allocate(4096);
  phal_plugin_stream_t* stream = CreateStream();
  // Host bytes [100, 400) land at buffer offset 3001, come back to host
  // offset 17.
  ASSERT_TRUE(IsOk(api().stream_copy_from_host(stream, source.data() + 100,
                                               buffer, 3001, 300)));
  ASSERT_TRUE(IsOk(api().stream_copy_to_host(stream, buffer, 3001,
                                             result.data() + 17, 300)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  for (size_t i = 0; i < result.size(); ++i) {
    const uint8_t expected = i >= 17 && i < 317 ? source[i - 17 + 100] : 0xEE;
    ASSERT_EQ(result[i], expected) << "host byte " << i;
  }
}

TEST_F(CpuPluginTest, CopiesBufferToBufferHonourOffsets) {
  const std::vector<uint8_t> source = Pattern(512, 3);
  std::vector<uint8_t> result(512, 0);
  phal_plugin_buffer_t* from = Allocate(512);
  phal_plugin_buffer_t* to = Allocate(512);
  phal_plugin_stream_t* stream = CreateStream();
  ASSERT_TRUE(
      IsOk(api().stream_copy_from_host(stream, source.data(), from, 0, 512)));
  ASSERT_TRUE(IsOk(api().stream_copy_from_host(stream, result.data(), to, 0,
                                               512)));  // zeroes
  ASSERT_TRUE(IsOk(api().stream_copy_buffer(stream, from, 5, to, 200, 77)));
  // Non-overlapping ranges of one buffer.
  ASSERT_TRUE(IsOk(api().stream_copy_buffer(stream, to, 200, to, 400, 77)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(stream, to, 0, result.data(), 512)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  for (size_t i = 0; i < result.size(); ++i) {
    uint8_t expected = 0;
    if (i >= 200 && i < 277) expected = source[i - 200 + 5];
    if (i >= 400 && i < 477) expected = source[i - 400 + 5];
    ASSERT_EQ(result[i], expected) << "destination byte " << i;
  }
}

TEST_F(CpuPluginTest, CopiesOutsideTheBufferAreRejectedWithOutOfRange) {
  std::vector<uint8_t> host(128);
  phal_plugin_buffer_t* buffer = Allocate(64);
  phal_plugin_stream_t* stream = CreateStream();
  EXPECT_TRUE(
      HasCode(api().stream_copy_from_host(stream, host.data(), buffer, 1, 64),
              PHAL_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(
      api().stream_copy_to_host(stream, buffer, UINT64_MAX, host.data(), 2),
      PHAL_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(
      api().stream_copy_buffer(stream, buffer, 0, buffer, 65, UINT64_MAX),
      PHAL_OUT_OF_RANGE));
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)));
}

// ---- streams ---------------------------------------------------------------

TEST_F(CpuPluginTest, StreamRunsALongChainOfDependentCopiesInOrder) {
  // Each step writes a new value into `slot`, then copies `slot` into the
  // next cell of `log`: the log shows every value only if no step overtook
  // another.
  constexpr size_t kSteps = 2000;
  std::vector<uint64_t> values(kSteps);
  std::iota(values.begin(), values.end(), uint64_t{1});
  phal_plugin_buffer_t* slot = Allocate(sizeof(uint64_t));
  phal_plugin_buffer_t* log = Allocate(kSteps * sizeof(uint64_t));
  phal_plugin_stream_t* stream = CreateStream();
  for (size_t i = 0; i < kSteps; ++i) {
    ASSERT_TRUE(IsOk(api().stream_copy_from_host(stream, &values[i], slot, 0,
                                                 sizeof(uint64_t))));
    ASSERT_TRUE(IsOk(api().stream_copy_buffer(
        stream, slot, 0, log, i * sizeof(uint64_t), sizeof(uint64_t))));
  }
  std::vector<uint64_t> result(kSteps);
  ASSERT_TRUE(IsOk(api().stream_copy_to_host(stream, log, 0, result.data(),
                                             kSteps * sizeof(uint64_t))));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_TRUE(result == values) << "a copy ran out of order";
}

TEST_F(CpuPluginTest, SynchronizeOnAnIdleStreamSucceedsAtOnce) {
  phal_plugin_stream_t* stream = CreateStream();
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)));
}

TEST_F(CpuPluginTest, StreamDestroyRunsQueuedWorkBeforeReturning) {
  const std::vector<uint8_t> source = Pattern(4096, 9);
  std::vector<uint8_t> result(4096, 0);
  phal_plugin_buffer_t* buffer = Allocate(4096);
  phal_plugin_stream_t* stream = nullptr;
  ASSERT_TRUE(IsOk(api().stream_create(device_, &stream)));
  QueueBusyWork(stream);
  ASSERT_TRUE(IsOk(
      api().stream_copy_from_host(stream, source.data(), buffer, 0, 4096)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(stream, buffer, 0, result.data(), 4096)));
  api().stream_destroy(stream);
  EXPECT_TRUE(result == source);
}

// ---- events ----------------------------------------------------------------

TEST_F(CpuPluginTest, NewEventHasFiredAndSynchronizesAtOnce) {
  phal_plugin_event_t* event = CreateEvent();
  EXPECT_EQ(Query(event), 1);
  EXPECT_TRUE(IsOk(api().event_synchronize(event)));
}

TEST_F(CpuPluginTest, EventQueryReportsAPendingRecordWithoutBlocking) {
  phal_plugin_stream_t* stream = CreateStream();
  phal_plugin_event_t* event = CreateEvent();
  QueueBusyWork(stream);
  ASSERT_TRUE(IsOk(api().stream_record_event(stream, event)));
  EXPECT_EQ(Query(event), 0) << "the record follows a gigabyte of copies";
  EXPECT_TRUE(IsOk(api().event_synchronize(event)));
  EXPECT_EQ(Query(event), 1);
}

TEST_F(CpuPluginTest, StreamWaitsForAnEventRecordedOnAnotherStream) {
  const std::vector<uint8_t> source = Pattern(4096, 1);
  std::vector<uint8_t> result(4096, 0);
  phal_plugin_buffer_t* buffer = Allocate(4096);
  phal_plugin_stream_t* producer = CreateStream();
  phal_plugin_stream_t* consumer = CreateStream();
  phal_plugin_event_t* produced = CreateEvent();
  // The producer writes the buffer only after busy work; without the wait
  // the consumer would read it long before.
  QueueBusyWork(producer);
  ASSERT_TRUE(IsOk(
      api().stream_copy_from_host(producer, source.data(), buffer, 0, 4096)));
  ASSERT_TRUE(IsOk(api().stream_record_event(producer, produced)));
  ASSERT_TRUE(IsOk(api().stream_wait_event(consumer, produced)));
  ASSERT_TRUE(IsOk(
      api().stream_copy_to_host(consumer, buffer, 0, result.data(), 4096)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(consumer)));
  EXPECT_EQ(Query(produced), 1);
  EXPECT_TRUE(result == source) << "the consumer read before the producer";
}

TEST_F(CpuPluginTest, ReRecordedEventWaitsForTheLatestRecord) {
  const std::vector<uint8_t> source = Pattern(256, 5);
  std::vector<uint8_t> result(256, 0);
  phal_plugin_buffer_t* buffer = Allocate(256);
  phal_plugin_stream_t* idle = CreateStream();
  phal_plugin_stream_t* busy = CreateStream();
  phal_plugin_event_t* event = CreateEvent();
  ASSERT_TRUE(IsOk(api().stream_record_event(idle, event)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(idle)));
  QueueBusyWork(busy);
  ASSERT_TRUE(
      IsOk(api().stream_copy_from_host(busy, source.data(), buffer, 0, 256)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(busy, buffer, 0, result.data(), 256)));
  ASSERT_TRUE(IsOk(api().stream_record_event(busy, event)));
  EXPECT_TRUE(IsOk(api().event_synchronize(event)));
  EXPECT_TRUE(result == source)
      << "event_synchronize returned before the latest record fired";
}

TEST_F(CpuPluginTest, DestroyingAnEventWithAPendingRecordIsSafe) {
  phal_plugin_stream_t* stream = CreateStream();
  phal_plugin_stream_t* waiter = CreateStream();
  phal_plugin_event_t* event = nullptr;
  ASSERT_TRUE(IsOk(api().event_create(device_, &event)));
  QueueBusyWork(stream);
  ASSERT_TRUE(IsOk(api().stream_record_event(stream, event)));
  ASSERT_TRUE(IsOk(api().stream_wait_event(waiter, event)));
  api().event_destroy(event);
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_TRUE(IsOk(api().stream_synchronize(waiter)));
}

// ---- threads ---------------------------------------------------------------

TEST_F(CpuPluginTest, EightThreadsAllocateCopyAndFreeAtOnce) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 40;
  // One stream every thread queues on, besides each thread's own.
  phal_plugin_stream_t* shared = CreateStream();
  std::atomic<int> failures{0};
  auto worker = [&](int thread) {
    phal_plugin_stream_t* own = nullptr;
    if (!IsOk(api().stream_create(device_, &own))) {
      ++failures;
      return;
    }
    for (int round = 0; round < kRounds; ++round) {
      const size_t size = 1 + static_cast<size_t>(thread * 997 + round * 131);
      phal_plugin_stream_t* stream = round % 2 == 0 ? own : shared;
      const std::vector<uint8_t> source =
          Pattern(size, static_cast<uint8_t>(thread * 16 + round));
      std::vector<uint8_t> result(size, 0);
      phal_plugin_buffer_t* first = nullptr;
      phal_plugin_buffer_t* second = nullptr;
      phal_plugin_event_t* done = nullptr;
      const bool ok =
          IsOk(api().buffer_allocate(device_, 0, size, &first)) &&
          IsOk(api().buffer_allocate(device_, 0, size, &second)) &&
          IsOk(api().event_create(device_, &done)) &&
          IsOk(api().stream_copy_from_host(stream, source.data(), first, 0,
                                           size)) &&
          IsOk(api().stream_copy_buffer(stream, first, 0, second, 0, size)) &&
          IsOk(api().stream_copy_to_host(stream, second, 0, result.data(),
                                         size)) &&
          IsOk(api().stream_record_event(stream, done)) &&
          IsOk(api().event_synchronize(done));
      if (!ok || result != source) ++failures;
      if (done != nullptr) api().event_destroy(done);
      if (second != nullptr) api().buffer_free(second);
      if (first != nullptr) api().buffer_free(first);
    }
    if (!IsOk(api().stream_synchronize(own))) ++failures;
    api().stream_destroy(own);
  };
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back(worker, thread);
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0) << "rounds that failed or lost data";
  EXPECT_TRUE(IsOk(api().stream_synchronize(shared)));
}

}  // namespace
}  // namespace phal::cpu
