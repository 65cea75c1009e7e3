// The entry point PHAL_PLUGIN_DEFINE_ENTRY writes, driven as the core's
// loader drives it, over a tiny plugin that speaks ABI 1.0 to 1.2.
#include "sdk/plugin_support/plugin_entry.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>

#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/plugin_library.h"

namespace phal {
namespace {

constexpr uint32_t kAbi10 = PHAL_MAKE_VERSION(1, 0);
constexpr uint32_t kAbi11 = PHAL_MAKE_VERSION(1, 1);
constexpr uint32_t kAbi12 = PHAL_MAKE_VERSION(1, 2);
constexpr uint32_t kAbi13 = PHAL_MAKE_VERSION(1, 3);

using plugin_testing::ClearRecordedLogLines;
using plugin_testing::LogsContain;
using plugin_testing::Negotiation;

const phal_host_services_t& kHost = plugin_testing::FakeHost();
int g_shutdowns = 0;

void TinyShutdown() {
  ++g_shutdowns;
  Log(PHAL_LOG_LEVEL_DEBUG, "tiny plugin shutting down");
}

phal_status_t* TinyDeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "a test plugin drives nothing";
  return nullptr;
}

phal_status_t* TinyStreamLaunch(phal_plugin_stream_t*, phal_plugin_kernel_t*,
                                phal_plugin_buffer_t* const*, uint32_t) {
  return nullptr;
}

constexpr phal_plugin_api_t TinyApi() {
  phal_plugin_api_t api{};
  api.shutdown = TinyShutdown;
  api.device_count = TinyDeviceCount;
  api.stream_launch = TinyStreamLaunch;
  return api;
}

constexpr PluginDefinition kTinyPlugin = {
    .name = "tiny",
    .version = "0.1.0",
    .min_abi_version = kAbi10,
    .max_abi_version = kAbi12,
    .api = TinyApi(),
};

}  // namespace
}  // namespace phal

PHAL_PLUGIN_DEFINE_ENTRY(phal::kTinyPlugin)

namespace phal {
namespace {

struct RangeCase {
  uint32_t core_min;
  uint32_t core_max;
  uint32_t abi_version;
  size_t struct_size;
};

class PluginEntryRangeTest : public ::testing::TestWithParam<RangeCase> {};

TEST_P(PluginEntryRangeTest, ReturnsTheNewestCommonVersionsTable) {
  const RangeCase& range = GetParam();
  phal_plugin_negotiation_t negotiation =
      Negotiation(range.core_min, range.core_max, &kHost);
  const phal_plugin_api_t* api = phal_plugin_entry(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, range.abi_version);
  EXPECT_EQ(api->struct_size, range.struct_size);
  EXPECT_EQ(api->next, nullptr);
  EXPECT_STREQ(api->name, "tiny");
  EXPECT_STREQ(api->version, "0.1.0");
  EXPECT_EQ(api->device_count, TinyDeviceCount);
  EXPECT_NE(api->shutdown, nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi12);
}

INSTANTIATE_TEST_SUITE_P(
    CoreRanges, PluginEntryRangeTest,
    ::testing::Values(
        RangeCase{kAbi10, kAbi10, kAbi10, PHAL_PLUGIN_API_STRUCT_SIZE_1_0},
        RangeCase{kAbi10, kAbi11, kAbi11, PHAL_PLUGIN_API_STRUCT_SIZE_1_1},
        RangeCase{kAbi11, kAbi11, kAbi11, PHAL_PLUGIN_API_STRUCT_SIZE_1_1},
        RangeCase{kAbi10, kAbi12, kAbi12, PHAL_PLUGIN_API_STRUCT_SIZE_1_2},
        RangeCase{kAbi12, kAbi13, kAbi12, PHAL_PLUGIN_API_STRUCT_SIZE_1_2},
        RangeCase{kAbi10, PHAL_MAKE_VERSION(1, 9), kAbi12,
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_2}));

TEST(PluginEntryTest, Abi10TableEndsBeforeTheKernelSlots) {
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi10, &kHost);
  const phal_plugin_api_t* api = phal_plugin_entry(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->struct_size, offsetof(phal_plugin_api_t, kernel_emit));
  EXPECT_EQ(api->stream_launch, nullptr)
      << "a slot beyond struct_size must not leak into a 1.0 table";
}

TEST(PluginEntryTest, Abi11And12TablesCarryTheKernelSlots) {
  for (uint32_t version : {kAbi11, kAbi12}) {
    phal_plugin_negotiation_t negotiation =
        Negotiation(kAbi10, version, &kHost);
    const phal_plugin_api_t* api = phal_plugin_entry(&negotiation);
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->stream_launch, TinyStreamLaunch) << version;
  }
}

// Cores of another major version, and a malformed range.
TEST(PluginEntryTest, ReturnsNullButItsRangeWhenTheRangesDoNotMeet) {
  const uint32_t ranges[][2] = {
      {PHAL_MAKE_VERSION(2, 0), PHAL_MAKE_VERSION(2, 3)},
      {PHAL_MAKE_VERSION(0, 1), PHAL_MAKE_VERSION(0, 9)},
      {kAbi12, kAbi10},
  };
  for (const auto& [core_min, core_max] : ranges) {
    phal_plugin_negotiation_t negotiation =
        Negotiation(core_min, core_max, &kHost);
    EXPECT_EQ(phal_plugin_entry(&negotiation), nullptr) << core_min;
    EXPECT_EQ(negotiation.plugin_min_version, kAbi10);
    EXPECT_EQ(negotiation.plugin_max_version, kAbi12);
  }
}

TEST(PluginEntryTest, ReturnsNullForARecordTooShortToAnswer) {
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi12, &kHost);
  negotiation.struct_size =
      offsetof(phal_plugin_negotiation_t, plugin_max_version);
  EXPECT_EQ(phal_plugin_entry(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_max_version, 0u)
      << "a member beyond struct_size must not be written";
  EXPECT_EQ(phal_plugin_entry(nullptr), nullptr);
}

TEST(PluginEntryTest, ReturnsNullWhenTheHostCannotCreateStatuses) {
  phal_host_services_t host = kHost;
  host.status_create = nullptr;
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi12, &host);
  EXPECT_EQ(phal_plugin_entry(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_max_version, kAbi12);
  host.struct_size = offsetof(phal_host_services_t, status_create);
  host.status_create = kHost.status_create;
  negotiation = Negotiation(kAbi10, kAbi12, &host);
  EXPECT_EQ(phal_plugin_entry(&negotiation), nullptr)
      << "a slot beyond the host table's struct_size counts as NULL";
  negotiation = Negotiation(kAbi10, kAbi12, nullptr);
  EXPECT_EQ(phal_plugin_entry(&negotiation), nullptr);
}

TEST(PluginEntryTest, ShutdownRunsThePluginsOwnThenForgetsTheHost) {
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi12, &kHost);
  const phal_plugin_api_t* api = phal_plugin_entry(&negotiation);
  ASSERT_NE(api, nullptr);
  const int shutdowns = g_shutdowns;
  ClearRecordedLogLines();
  api->shutdown();
  EXPECT_EQ(g_shutdowns, shutdowns + 1);
  EXPECT_TRUE(LogsContain("tiny plugin shutting down"))
      << "the plugin's own shutdown may still use the host services";
  Log(PHAL_LOG_LEVEL_DEBUG, "after shutdown");
  EXPECT_FALSE(LogsContain("after shutdown"))
      << "after shutdown the plugin must not call the host";
  EXPECT_NE(phal_plugin_entry(&negotiation), nullptr);
}

// A plugin whose range starts after 1.0 never answers a 1.0-only core.
TEST(PluginEntryTest, PluginRangeBoundsTheChoiceFromBelow) {
  constexpr PluginDefinition kKernelsOnly = {
      .name = "kernels-only",
      .version = "2.0.0",
      .min_abi_version = kAbi11,
      .max_abi_version = kAbi12,
      .api = TinyApi(),
  };
  const PluginEntry entry(kKernelsOnly, TinyShutdown);
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi10, &kHost);
  EXPECT_EQ(entry.Negotiate(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_min_version, kAbi11);
  negotiation = Negotiation(kAbi10, kAbi11, &kHost);
  const phal_plugin_api_t* api = entry.Negotiate(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, kAbi11);
  EXPECT_STREQ(api->name, "kernels-only");
}

TEST(PluginSlotListTest, NamesEverySlotAfterTheHeaderInTableOrder) {
  EXPECT_EQ(kPluginSlotCount, 40u);
  const PluginSlotInfo& first = GetPluginSlotInfo(PluginSlot::kShutdown);
  EXPECT_STREQ(first.name, "shutdown");
  EXPECT_EQ(first.offset, PHAL_PLUGIN_API_MIN_STRUCT_SIZE);
  const PluginSlotInfo& launch = GetPluginSlotInfo(PluginSlot::kStreamLaunch);
  EXPECT_STREQ(launch.name, "stream_launch");
  EXPECT_EQ(launch.abi_version, kAbi11);
  EXPECT_EQ(launch.offset, offsetof(phal_plugin_api_t, stream_launch));
  const PluginSlotInfo& counters =
      GetPluginSlotInfo(PluginSlot::kDeviceResetCounters);
  EXPECT_EQ(counters.group, kPluginCounterSlots);
  const PluginSlotInfo& collective =
      GetPluginSlotInfo(PluginSlot::kStreamCollective);
  EXPECT_EQ(collective.group, kPluginCollectiveSlots);
  EXPECT_EQ(collective.abi_version, PHAL_MAKE_VERSION(1, 8));
  const PluginSlotInfo& join = GetPluginSlotInfo(PluginSlot::kCommunicatorJoin);
  EXPECT_EQ(join.group, kPluginJoinedCollectiveSlots);
  EXPECT_EQ(join.abi_version, PHAL_MAKE_VERSION(1, 12));
  const PluginSlotInfo& last = GetPluginSlotInfo(PluginSlot::kProgramCompile);
  EXPECT_EQ(last.group, kPluginProgramSlots);
  EXPECT_EQ(last.abi_version, PHAL_MAKE_VERSION(1, 13));
  EXPECT_EQ(last.offset + last.size, sizeof(phal_plugin_api_t));
}

TEST(PluginSlotListTest, EachVersionsTableEndsWithItsNewestSlot) {
  const size_t expected[] = {
      PHAL_PLUGIN_API_STRUCT_SIZE_1_0,  PHAL_PLUGIN_API_STRUCT_SIZE_1_1,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_2,  PHAL_PLUGIN_API_STRUCT_SIZE_1_3,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_4,  PHAL_PLUGIN_API_STRUCT_SIZE_1_5,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_6,  PHAL_PLUGIN_API_STRUCT_SIZE_1_7,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_8,  PHAL_PLUGIN_API_STRUCT_SIZE_1_9,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_10, PHAL_PLUGIN_API_STRUCT_SIZE_1_11,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_12, PHAL_PLUGIN_API_STRUCT_SIZE_1_13,
      PHAL_PLUGIN_API_STRUCT_SIZE_1_14};
  ASSERT_EQ(kPluginAbiVersionCount, std::size(expected));
  for (size_t minor = 0; minor < kPluginAbiVersionCount; ++minor) {
    EXPECT_EQ(kPluginAbiVersions[minor].version,
              PHAL_MAKE_VERSION(1, static_cast<uint32_t>(minor)));
    EXPECT_EQ(kPluginAbiVersions[minor].table_size, expected[minor])
        << "ABI 1." << minor;
  }
}

TEST(PluginSlotListTest, OptionalGroupsFitOnlyAMaxAbiThatHasTheirSlots) {
  EXPECT_TRUE(PluginSlotGroupsWithin(kPluginCoreSlots, kAbi10));
  EXPECT_TRUE(
      PluginSlotGroupsWithin(kPluginTargetSlots, PHAL_MAKE_VERSION(1, 4)));
  EXPECT_FALSE(PluginSlotGroupsWithin(kPluginTargetSlots, kAbi13));
  EXPECT_FALSE(PluginSlotGroupsWithin(kPluginTargetSlots | kPluginCounterSlots,
                                      PHAL_MAKE_VERSION(1, 4)));
  EXPECT_TRUE(PluginSlotGroupsWithin(kPluginTargetSlots | kPluginCounterSlots,
                                     PHAL_MAKE_VERSION(1, 5)));
  EXPECT_FALSE(
      PluginSlotGroupsWithin(kPluginCollectiveSlots, PHAL_MAKE_VERSION(1, 7)));
  EXPECT_TRUE(
      PluginSlotGroupsWithin(kPluginCollectiveSlots, PHAL_MAKE_VERSION(1, 8)));
}

}  // namespace
}  // namespace phal
