// Collectives on the plugins' own slots (ABI 1.8): a program for several
// devices of one plugin that has them runs each collective on the plugin's
// communicators, not through host memory -- asic-ref counts them on its
// interconnect -- and gives the reference's results, under the validation
// layer too; a process that finishes without arriving fails its peers at
// once, naming it.
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/reference/spmd_interpreter.h"
#include "core/testing/compiler_test_util.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// Every collective the slots describe, on four processes (2 replicas x 2
// partitions), with groups of two and of four.
constexpr char kEveryCollective[] = R"(
HloModule every, replica_count=2, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
ENTRY main {
  x = f32[4,6] parameter(0)
  i = s32[8] parameter(1)
  e = f32[4,6] exponential(x)
  s = f32[4,6] all-reduce(e), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
  m = s32[8] all-reduce(i), channel_id=2, replica_groups={{0,2},{1,3}}, use_global_device_ids=true, to_apply=max
  g = f32[4,12] all-gather(x), channel_id=3, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, dimensions={1}
  r = f32[4,3] reduce-scatter(s), channel_id=4, replica_groups={{1,0},{3,2}}, use_global_device_ids=true, dimensions={1}, to_apply=add
  a2a = f32[4,6] all-to-all(x), channel_id=5, replica_groups={{0,1}}, dimensions={1}
  p = f32[4,6] collective-permute(s), channel_id=6, source_target_pairs={{0,1},{1,0}}
  b = s32[8] collective-broadcast(m), channel_id=7, replica_groups={{1,0}}
  t = f32[4,6] tanh(p)
  ROOT out = (f32[4,6], s32[8], f32[4,12], f32[4,3], f32[4,6], f32[4,6], s32[8]) tuple(s, m, g, r, a2a, t, b)
}
)";

class DeviceCollectivesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setenv("PHAL_VIRTUAL_DEVICES", "4", 1);
    setenv("PHAL_COLLECTIVE_TIMEOUT", "60", 1);
  }
  static void TearDownTestSuite() {
    unsetenv("PHAL_VIRTUAL_DEVICES");
    unsetenv("PHAL_COLLECTIVE_TIMEOUT");
  }

  // A client of `plugin` alone, and its first `count` devices.
  std::vector<Device> Devices(Client& client, const std::string& plugin,
                              size_t count) {
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_filter = plugin.c_str();
    Result<Client> made = Client::Create(&options);
    EXPECT_TRUE(made.ok()) << made.error().ToString();
    if (!made.ok()) return {};
    client = std::move(made.value());
    std::vector<Device> devices = client.Devices();
    if (devices.size() > count) devices.resize(count);
    return devices;
  }

  // Runs `text` on `devices` `runs` times (one executable), process k on
  // TestData seeded by k, and compares every result with the reference's
  // EvaluateSpmd.
  void ExpectMatchesReference(const std::vector<Device>& devices,
                              const std::string& text, int runs = 1) {
    Result<Executable> executable =
        Executable::CompileForDevices(devices, text);
    ASSERT_TRUE(executable.ok()) << executable.error().ToString();
    std::unique_ptr<HloModule> module = testing::ParseVerified(text);
    ASSERT_NE(module, nullptr);
    const HloComputation& entry = *module->entry_computation();
    std::vector<std::vector<Literal>> arguments;
    std::vector<std::vector<Buffer>> buffers;
    for (size_t k = 0; k < devices.size(); ++k) {
      std::vector<Literal>& mine = arguments.emplace_back();
      std::vector<Buffer>& uploaded = buffers.emplace_back();
      for (int64_t p = 0; p < entry.num_parameters(); ++p) {
        const Shape& shape = entry.parameter_instruction(p)->shape();
        mine.push_back(testing::TestData(shape.element_type(), shape.dims(),
                                         static_cast<int64_t>(k) * 7 + p));
        Result<Buffer> buffer =
            Buffer::Allocate(devices[k], shape.element_type(), shape.dims());
        ASSERT_TRUE(buffer.ok()) << buffer.error().ToString();
        ASSERT_TRUE(
            buffer->CopyFromHost(mine.back().data(), mine.back().byte_size())
                .ok());
        uploaded.push_back(std::move(buffer.value()));
      }
    }
    StatusOr<std::vector<Literal>> expected = EvaluateSpmd(*module, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    for (int run = 0; run < runs; ++run) {
      SCOPED_TRACE("run " + std::to_string(run));
      ExpectResults(*executable, buffers, *expected);
    }
  }

  void ExpectResults(Executable& executable,
                     const std::vector<std::vector<Buffer>>& buffers,
                     const std::vector<Literal>& expected) {
    Result<std::vector<std::vector<Buffer>>> results =
        executable.ExecuteOnDevices(buffers);
    ASSERT_TRUE(results.ok()) << results.error().ToString();
    for (size_t k = 0; k < buffers.size(); ++k) {
      std::vector<Literal> leaves;
      testing::FlattenLiteral(expected[k], &leaves);
      ASSERT_EQ((*results)[k].size(), leaves.size());
      for (size_t i = 0; i < leaves.size(); ++i) {
        Literal actual(leaves[i].shape());
        ASSERT_TRUE((*results)[k][i]
                        .CopyToHost(actual.data(), actual.byte_size())
                        .ok());
        EXPECT_TRUE(testing::Matches(actual, leaves[i], 1e-5))
            << "device " << k << " result " << i;
      }
    }
  }

  // `device`'s counters of kernel `kernel`, by name.
  static std::map<std::string, double> Counters(const Device& device,
                                                const std::string& kernel) {
    phal_device_counter_t* counters = nullptr;
    size_t count = 0;
    std::map<std::string, double> out;
    EXPECT_EQ(phal_device_get_counters(device.get(), &counters, &count),
              nullptr);
    for (size_t i = 0; i < count; ++i) {
      if (kernel == counters[i].kernel)
        out[counters[i].name] = counters[i].value;
    }
    phal_free(counters);
    return out;
  }
};

TEST_F(DeviceCollectivesTest, EveryKindMatchesTheReferenceOnEachPlugin) {
  for (const char* plugin : {"cpu", "template", "asic-ref"}) {
    SCOPED_TRACE(plugin);
    Client client;
    const std::vector<Device> devices = Devices(client, plugin, 4);
    if (devices.size() < 4) {
      GTEST_SKIP() << plugin << " offers " << devices.size()
                   << " devices with PHAL_VIRTUAL_DEVICES=4";
    }
    ExpectMatchesReference(devices, kEveryCollective);
  }
}

TEST_F(DeviceCollectivesTest, AsicRefCountsItsCollectivesOnTheInterconnect) {
  Client client;
  const std::vector<Device> devices = Devices(client, "asic-ref", 4);
  ASSERT_EQ(devices.size(), 4u);
  for (const Device& device : devices) {
    ASSERT_EQ(phal_device_reset_counters(device.get()), nullptr);
  }
  // Twice: the second execution reuses the first's communicators.
  ExpectMatchesReference(devices, kEveryCollective, 2);
  for (size_t k = 0; k < devices.size(); ++k) {
    SCOPED_TRACE("device " + std::to_string(k));
    // Two all-reduces a run; the 4 x 6 f32 one over four chips reads and
    // sends a quarter of its 96 bytes to each of three peers.
    std::map<std::string, double> all_reduce =
        Counters(devices[k], "all-reduce");
    EXPECT_EQ(all_reduce["launches"], 4);
    EXPECT_GT(all_reduce["cycles"], 0);
    EXPECT_EQ(all_reduce["link.bytes_sent"], 2 * (2 * 3 * 24 + 2 * 1 * 16));
    EXPECT_EQ(Counters(devices[k], "all-gather")["launches"], 2);
    EXPECT_EQ(Counters(devices[k], "permute")["launches"], 2);
    EXPECT_GT(Counters(devices[k], "")["link.bytes_sent"], 0);
  }
}

TEST_F(DeviceCollectivesTest, TheValidationLayerFindsNoBreach) {
  setenv("PHAL_VALIDATION", "1", 1);
  Client client;
  const std::vector<Device> devices = Devices(client, "cpu", 4);
  unsetenv("PHAL_VALIDATION");
  ASSERT_EQ(devices.size(), 4u);
  // A breach would fail the execution with the layer's status.
  ExpectMatchesReference(devices, kEveryCollective);
}

TEST_F(DeviceCollectivesTest, APeerThatFinishesWithoutArrivingFailsAtOnce) {
  // Partition 1 takes the branch without the all-reduce and finishes.
  const std::string text = R"(
HloModule skip, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
reduce {
  x = f32[4] parameter(0)
  ROOT s = f32[4] all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
keep {
  ROOT x = f32[4] parameter(0)
}
ENTRY main {
  x = f32[4] parameter(0)
  id = u32[] partition-id()
  zero = u32[] constant(0)
  first = pred[] compare(id, zero), direction=EQ
  ROOT r = f32[4] conditional(first, x, x), true_computation=reduce, false_computation=keep
}
)";
  Client client;
  const std::vector<Device> devices = Devices(client, "template", 2);
  ASSERT_EQ(devices.size(), 2u);
  Result<Executable> executable = Executable::CompileForDevices(devices, text);
  ASSERT_TRUE(executable.ok()) << executable.error().ToString();
  std::vector<std::vector<Buffer>> buffers(2);
  for (size_t k = 0; k < 2; ++k) {
    Result<Buffer> buffer =
        Buffer::Allocate(devices[k], PHAL_ELEMENT_TYPE_F32, {4});
    ASSERT_TRUE(buffer.ok());
    const float values[4] = {1, 2, 3, 4};
    ASSERT_TRUE(buffer->CopyFromHost(values, sizeof(values)).ok());
    buffers[k].push_back(std::move(buffer.value()));
  }
  const auto start = std::chrono::steady_clock::now();
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(buffers);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.error().code(), PHAL_DEADLINE_EXCEEDED);
  EXPECT_THAT(results.error().message(), HasSubstr("missing processes {1}"));
  EXPECT_THAT(results.error().message(), HasSubstr("over processes {0, 1}"));
  EXPECT_LT(waited, std::chrono::seconds(30))
      << "the peer is known gone: no need to wait out the 60 s timeout";
}

}  // namespace
}  // namespace phal
