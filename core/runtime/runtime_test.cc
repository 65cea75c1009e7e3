// The application C API over the cpu plugin: buffers of every element
// type, zero-size and large buffers, copies, streams, events, error paths,
// concurrency and leak reclamation.
#include <atomic>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/loader/testing/manifests.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// Takes a status, returning its code (PHAL_OK for NULL) and freeing it.
phal_status_code_t CodeOf(phal_status_t* status) {
  phal_status_code_t code = phal_status_get_code(status);
  phal_status_free(status);
  return code;
}

Result<Client> ClientFor(const std::string& plugin_path) {
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  options.plugin_path = plugin_path.c_str();
  return Client::Create(&options);
}

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("cpu.json",
               testing::PluginManifest("cpu", PHAL_CPU_PLUGIN_PATH));
    auto client = ClientFor(dir_.path());
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    client_ = std::move(client.value());
    std::vector<Device> devices = client_.Devices();
    ASSERT_EQ(devices.size(), 1u);
    device_ = devices[0];
  }

  Buffer Allocate(phal_element_type_t type, std::vector<int64_t> dims) {
    auto buffer = Buffer::Allocate(device_, type, dims);
    EXPECT_TRUE(buffer.ok()) << buffer.error().ToString();
    return std::move(buffer.value());
  }

  testing::TempDir dir_;
  Client client_;
  Device device_;
};

TEST_F(RuntimeTest, DevicePropertiesDescribeTheHostCpu) {
  auto properties = device_.Properties();
  ASSERT_TRUE(properties.ok());
  EXPECT_EQ(properties->kind, PHAL_DEVICE_KIND_CPU);
  EXPECT_GT(std::strlen(properties->name), 0u);
  EXPECT_GE(properties->compute_units, 1u);
  EXPECT_GT(properties->memory_bytes, 0u);
  EXPECT_EQ(properties->min_alignment & (properties->min_alignment - 1), 0u);
  EXPECT_GE(properties->memory_space_count, 1u);
  for (int type = PHAL_ELEMENT_TYPE_PRED; type < PHAL_ELEMENT_TYPE_COUNT;
       ++type) {
    EXPECT_NE(properties->element_types & PHAL_ELEMENT_TYPE_BIT(type), 0u)
        << phal_element_type_name(static_cast<phal_element_type_t>(type));
  }
}

TEST_F(RuntimeTest, OlderCallersGetOnlyTheMembersTheyKnow) {
  // A caller built against a struct that ended after `features`.
  phal_device_properties_t properties;
  std::memset(&properties, 0xAB, sizeof(properties));
  properties.struct_size = offsetof(phal_device_properties_t, kind);
  ASSERT_EQ(phal_device_get_properties(device_.get(), &properties), nullptr);
  EXPECT_NE(properties.name, nullptr);
  EXPECT_EQ(properties.ordinal, 0xABABABABu) << "wrote past struct_size";
}

TEST_F(RuntimeTest, EveryElementTypeRoundTrips) {
  for (int value = PHAL_ELEMENT_TYPE_PRED; value < PHAL_ELEMENT_TYPE_COUNT;
       ++value) {
    auto type = static_cast<phal_element_type_t>(value);
    SCOPED_TRACE(phal_element_type_name(type));
    Buffer buffer = Allocate(type, {3, 5});
    size_t bytes = 15 * phal_element_type_byte_size(type);
    ASSERT_EQ(buffer.ByteSize(), bytes);
    std::vector<uint8_t> in(bytes);
    for (size_t i = 0; i < bytes; ++i) in[i] = static_cast<uint8_t>(i * 7 + 1);
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      for (auto& byte : in) byte &= 1;
    }
    std::vector<uint8_t> out(bytes, 0);
    ASSERT_TRUE(buffer.CopyFromHost(in.data(), bytes).ok());
    ASSERT_TRUE(buffer.CopyToHost(out.data(), bytes).ok());
    EXPECT_EQ(in, out);
  }
}

TEST_F(RuntimeTest, BufferDescriptionReportsTypeAndDims) {
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_BF16, {2, 0, 7});
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  ASSERT_EQ(phal_buffer_get_desc(buffer.get(), &desc), nullptr);
  EXPECT_EQ(desc.element_type, PHAL_ELEMENT_TYPE_BF16);
  ASSERT_EQ(desc.rank, 3u);
  EXPECT_EQ(std::vector<int64_t>(desc.dims, desc.dims + 3),
            (std::vector<int64_t>{2, 0, 7}));
  phal_device_t* device = nullptr;
  ASSERT_EQ(phal_buffer_get_device(buffer.get(), &device), nullptr);
  EXPECT_EQ(device, device_.get());
}

TEST_F(RuntimeTest, ZeroSizeBuffersCopyNothingAndRefuseOneByte) {
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_F32, {0, 4});
  EXPECT_EQ(buffer.ByteSize(), 0u);
  EXPECT_TRUE(buffer.CopyFromHost(nullptr, 0).ok());
  EXPECT_TRUE(buffer.CopyToHost(nullptr, 0).ok());
  char byte = 0;
  Error error = buffer.CopyFromHost(&byte, 1);
  EXPECT_EQ(error.code(), PHAL_OUT_OF_RANGE);
  EXPECT_THAT(error.message(), HasSubstr("exceeds the buffer's 0 bytes"));
}

TEST_F(RuntimeTest, ScalarBuffersHoldOneElement) {
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_C128, {});
  EXPECT_EQ(buffer.ByteSize(), 16u);
}

TEST_F(RuntimeTest, QuarterGibibyteBufferRoundTrips) {
  constexpr int64_t kElements = int64_t{64} << 20;  // 256 MiB of f32
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_F32, {kElements});
  ASSERT_EQ(buffer.ByteSize(), uint64_t{256} << 20);
  std::vector<float> in(kElements);
  std::iota(in.begin(), in.end(), 0.0f);
  ASSERT_TRUE(buffer.CopyFromHost(in.data(), buffer.ByteSize()).ok());
  std::vector<float> out(kElements, -1.0f);
  ASSERT_TRUE(buffer.CopyToHost(out.data(), buffer.ByteSize()).ok());
  EXPECT_TRUE(in == out);
  float tail[4] = {};
  ASSERT_TRUE(buffer.CopyToHost(tail, sizeof(tail), (kElements - 4) * 4).ok());
  EXPECT_EQ(tail[3], in[kElements - 1]);
}

TEST_F(RuntimeTest, CopiesBetweenBuffersHonourOffsets) {
  Buffer a = Allocate(PHAL_ELEMENT_TYPE_U8, {16});
  Buffer b = Allocate(PHAL_ELEMENT_TYPE_U8, {16});
  std::vector<uint8_t> data(16);
  std::iota(data.begin(), data.end(), 100);
  std::vector<uint8_t> zeros(16, 0);
  ASSERT_TRUE(a.CopyFromHost(data.data(), 16).ok());
  ASSERT_TRUE(b.CopyFromHost(zeros.data(), 16).ok());
  ASSERT_EQ(phal_buffer_copy(a.get(), 4, b.get(), 8, 6), nullptr);
  std::vector<uint8_t> out(16);
  ASSERT_TRUE(b.CopyToHost(out.data(), 16).ok());
  std::vector<uint8_t> expected(16, 0);
  for (int i = 0; i < 6; ++i) expected[8 + i] = static_cast<uint8_t>(104 + i);
  EXPECT_EQ(out, expected);
  // Disjoint ranges of one buffer are fine; overlapping ones are refused.
  EXPECT_EQ(phal_buffer_copy(a.get(), 0, a.get(), 8, 8), nullptr);
  EXPECT_EQ(CodeOf(phal_buffer_copy(a.get(), 0, a.get(), 4, 8)),
            PHAL_INVALID_ARGUMENT);
}

TEST_F(RuntimeTest, InvalidBufferDescriptionsReturnStatuses) {
  phal_buffer_t* buffer = nullptr;
  const std::vector<int64_t> dims = {4, -1};
  phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
  phal_status_t* status = phal_buffer_allocate(device_.get(), &desc, &buffer);
  EXPECT_EQ(phal_status_get_code(status), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(phal_status_get_message(status), HasSubstr("dimension 1 is -1"));
  phal_status_free(status);

  desc.dims = nullptr;
  EXPECT_EQ(CodeOf(phal_buffer_allocate(device_.get(), &desc, &buffer)),
            PHAL_INVALID_ARGUMENT);
  desc.rank = 0;
  desc.element_type = static_cast<phal_element_type_t>(99);
  EXPECT_EQ(CodeOf(phal_buffer_allocate(device_.get(), &desc, &buffer)),
            PHAL_INVALID_ARGUMENT);
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  desc.memory_space = 42;
  EXPECT_EQ(CodeOf(phal_buffer_allocate(device_.get(), &desc, &buffer)),
            PHAL_OUT_OF_RANGE);
  desc.memory_space = 0;
  desc.struct_size = 4;
  EXPECT_EQ(CodeOf(phal_buffer_allocate(device_.get(), &desc, &buffer)),
            PHAL_INVALID_ARGUMENT);
  int64_t huge[] = {int64_t{1} << 40, int64_t{1} << 40};
  desc.struct_size = sizeof(desc);
  desc.rank = 2;
  desc.dims = huge;
  EXPECT_EQ(CodeOf(phal_buffer_allocate(device_.get(), &desc, &buffer)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(buffer, nullptr) << "out_buffer written on failure";
  EXPECT_EQ(CodeOf(phal_buffer_allocate(nullptr, &desc, &buffer)),
            PHAL_INVALID_ARGUMENT);
}

TEST_F(RuntimeTest, InvalidHandlesAndRangesReturnStatuses) {
  EXPECT_EQ(CodeOf(phal_client_create(nullptr, nullptr)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_client_get_device(client_.get(), 99, nullptr)),
            PHAL_INVALID_ARGUMENT);
  phal_device_t* device = nullptr;
  EXPECT_EQ(CodeOf(phal_client_get_device(client_.get(), 99, &device)),
            PHAL_OUT_OF_RANGE);
  EXPECT_EQ(CodeOf(phal_client_get_device(nullptr, 0, &device)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_buffer_copy_to_host(nullptr, 0, nullptr, 0)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_stream_synchronize(nullptr)), PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_event_synchronize(nullptr)), PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_device_get_properties(device_.get(), nullptr)),
            PHAL_INVALID_ARGUMENT);
  phal_device_properties_t small{};
  small.struct_size = 4;
  EXPECT_EQ(CodeOf(phal_device_get_properties(device_.get(), &small)),
            PHAL_INVALID_ARGUMENT);

  Buffer real = Allocate(PHAL_ELEMENT_TYPE_S32, {4});
  int32_t values[8] = {};
  EXPECT_EQ(CodeOf(phal_buffer_copy_from_host(real.get(), 0, values, 32)),
            PHAL_OUT_OF_RANGE);
  EXPECT_EQ(CodeOf(phal_buffer_copy_from_host(real.get(), 17, values, 0)),
            PHAL_OUT_OF_RANGE);
  EXPECT_EQ(
      CodeOf(phal_buffer_copy_from_host(real.get(), UINT64_MAX, values, 2)),
      PHAL_OUT_OF_RANGE);
  EXPECT_EQ(CodeOf(phal_buffer_copy_from_host(real.get(), 0, nullptr, 4)),
            PHAL_INVALID_ARGUMENT);
  phal_buffer_free(nullptr);
  phal_stream_destroy(nullptr);
  phal_event_free(nullptr);
  phal_client_destroy(nullptr);
}

TEST_F(RuntimeTest, OutOfMemoryIsResourceExhausted) {
  auto properties = device_.Properties();
  ASSERT_TRUE(properties.ok());
  int64_t too_many = static_cast<int64_t>(properties->max_allocation_bytes) + 1;
  auto buffer = Buffer::Allocate(device_, PHAL_ELEMENT_TYPE_U8, {too_many});
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.error().code(), PHAL_RESOURCE_EXHAUSTED);
  EXPECT_THAT(buffer.error().message(), HasSubstr("plugin 'cpu'"));
}

TEST_F(RuntimeTest, StreamCopiesRunInOrder) {
  auto stream = Stream::Create(device_);
  ASSERT_TRUE(stream.ok()) << stream.error().ToString();
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_S32, {1024});
  std::vector<std::vector<int32_t>> versions(50, std::vector<int32_t>(1024));
  for (int v = 0; v < 50; ++v) {
    std::fill(versions[v].begin(), versions[v].end(), v);
    ASSERT_TRUE(stream->CopyFromHost(versions[v].data(), buffer, 4096).ok());
  }
  std::vector<int32_t> out(1024, -1);
  ASSERT_TRUE(stream->CopyToHost(buffer, out.data(), 4096).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  EXPECT_EQ(out, versions[49]);
}

TEST_F(RuntimeTest, EventsOrderWorkAcrossStreams) {
  auto producer = Stream::Create(device_);
  auto consumer = Stream::Create(device_);
  auto ready = Event::Create(device_);
  ASSERT_TRUE(producer.ok() && consumer.ok() && ready.ok());
  auto signalled = ready->IsSignalled();
  ASSERT_TRUE(signalled.ok());
  EXPECT_TRUE(*signalled) << "a new event starts signalled";

  constexpr int64_t kCount = 4 << 20;
  Buffer buffer = Allocate(PHAL_ELEMENT_TYPE_F32, {kCount});
  std::vector<float> in(kCount, 3.5f);
  std::vector<float> out(kCount, 0.0f);
  ASSERT_TRUE(producer->CopyFromHost(in.data(), buffer, kCount * 4).ok());
  ASSERT_TRUE(producer->Record(*ready).ok());
  ASSERT_TRUE(consumer->Wait(*ready).ok());
  ASSERT_TRUE(consumer->CopyToHost(buffer, out.data(), kCount * 4).ok());
  ASSERT_TRUE(consumer->Synchronize().ok());
  EXPECT_TRUE(in == out);
  EXPECT_TRUE(ready->Synchronize().ok());
  auto done = ready->IsSignalled();
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE(*done);
}

TEST_F(RuntimeTest, CopiesAcrossPluginsAreStagedThroughTheHost) {
  // A second copy of the cpu plugin's library is a second plugin.
  testing::TempDir other_dir;
  std::filesystem::copy_file(PHAL_CPU_PLUGIN_PATH,
                             other_dir.path() + "/libcpu_copy.so");
  other_dir.Write("cpu2.json",
                  testing::PluginManifest("cpu2", "./libcpu_copy.so"));
  auto client = ClientFor(dir_.path() + ":" + other_dir.path());
  ASSERT_TRUE(client.ok());
  std::vector<Device> devices = client->Devices();
  ASSERT_EQ(devices.size(), 2u) << "two copies of the cpu plugin";
  auto a = Buffer::Allocate(devices[0], PHAL_ELEMENT_TYPE_S64, {1000});
  auto b = Buffer::Allocate(devices[1], PHAL_ELEMENT_TYPE_S64, {1000});
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<int64_t> in(1000);
  std::iota(in.begin(), in.end(), -500);
  ASSERT_TRUE(a->CopyFromHost(in.data(), 8000).ok());
  ASSERT_EQ(phal_buffer_copy(a->get(), 0, b->get(), 0, 8000), nullptr);
  std::vector<int64_t> out(1000, 0);
  ASSERT_TRUE(b->CopyToHost(out.data(), 8000).ok());
  EXPECT_EQ(in, out);

  auto stream = Stream::Create(devices[0]);
  ASSERT_TRUE(stream.ok());
  Error error = stream->CopyFromHost(in.data(), *b, 8000);
  EXPECT_EQ(error.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(error.message(), HasSubstr("another device"));
  EXPECT_EQ(CodeOf(phal_stream_copy_buffer(stream->get(), a->get(), 0, b->get(),
                                           0, 8)),
            PHAL_INVALID_ARGUMENT);
}

TEST_F(RuntimeTest, FreeingABufferWaitsForItsQueuedCopies) {
  auto stream = Stream::Create(device_);
  ASSERT_TRUE(stream.ok());
  constexpr int64_t kBytes = 64 << 20;
  std::vector<uint8_t> in(kBytes, 7);
  for (int i = 0; i < 4; ++i) {
    phal_buffer_t* buffer = nullptr;
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    desc.element_type = PHAL_ELEMENT_TYPE_U8;
    desc.rank = 1;
    desc.dims = &kBytes;
    ASSERT_EQ(phal_buffer_allocate(device_.get(), &desc, &buffer), nullptr);
    ASSERT_EQ(
        phal_stream_copy_from_host(stream->get(), in.data(), buffer, 0, kBytes),
        nullptr);
    phal_buffer_free(buffer);  // must not free under the running copy
  }
  EXPECT_TRUE(stream->Synchronize().ok());
}

TEST_F(RuntimeTest, EightThreadsShareOneClient) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      auto stream = Stream::Create(device_);
      if (!stream.ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < 40; ++i) {
        int64_t count = 257 + t * 13 + i;
        auto buffer = Buffer::Allocate(device_, PHAL_ELEMENT_TYPE_S32, {count});
        if (!buffer.ok()) {
          ++failures;
          continue;
        }
        std::vector<int32_t> in(count, t * 1000 + i);
        std::vector<int32_t> out(count, -1);
        uint64_t bytes = count * 4;
        bool ok =
            (i % 2 == 0)
                ? buffer->CopyFromHost(in.data(), bytes).ok() &&
                      buffer->CopyToHost(out.data(), bytes).ok()
                : stream->CopyFromHost(in.data(), *buffer, bytes).ok() &&
                      stream->CopyToHost(*buffer, out.data(), bytes).ok() &&
                      stream->Synchronize().ok();
        if (!ok || in != out) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

void Capture(void* user_data, phal_log_level_t, const char* message) {
  static_cast<std::vector<std::string>*>(user_data)->push_back(message);
}

// A client of the cpu plugin whose log is kept, and its device.
TEST_F(RuntimeTest, ADeviceWithoutCountersReportsNoneAndRefusesNullArguments) {
  Result<std::vector<Counter>> counters = device_.Counters();
  ASSERT_TRUE(counters.ok()) << counters.error().ToString();
  EXPECT_TRUE(counters->empty()) << "the cpu plugin keeps no counters";
  EXPECT_TRUE(device_.ResetCounters().ok());
  phal_device_counter_t* array = nullptr;
  size_t count = 0;
  EXPECT_EQ(CodeOf(phal_device_get_counters(nullptr, &array, &count)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_device_get_counters(device_.get(), nullptr, &count)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_device_get_counters(device_.get(), &array, nullptr)),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(phal_device_reset_counters(nullptr)), PHAL_INVALID_ARGUMENT);
}

// The simulated accelerator of the asic-ref plugin counts what its kernels
// do (ABI 1.5); its device in a client of the default search path.
TEST(RuntimeCounters, ACountingDeviceReportsItsRunsInOneBlockUntilReset) {
  Result<Client> client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.error().ToString();
  Device asic;
  for (const Device& device : client->Devices()) {
    Result<size_t> index = device.PluginIndex();
    if (index.ok() &&
        std::string(client->Plugins()[*index].name) == "asic-ref") {
      asic = device;
    }
  }
  if (asic.get() == nullptr) GTEST_SKIP() << "no asic-ref device";
  Result<Executable> twice =
      Executable::Compile(asic,
                          "HloModule twice\n"
                          "ENTRY main {\n"
                          "  x = f32[64] parameter(0)\n"
                          "  ROOT y = f32[64] add(x, x)\n"
                          "}\n");
  ASSERT_TRUE(twice.ok()) << twice.error().ToString();
  Result<Buffer> x = Buffer::Allocate(asic, PHAL_ELEMENT_TYPE_F32, {64});
  ASSERT_TRUE(x.ok()) << x.error().ToString();
  std::vector<float> values(64, 1.5f);
  ASSERT_TRUE(x->CopyFromHost(values.data(), 256).ok());
  std::vector<Buffer> arguments;
  arguments.push_back(std::move(*x));
  ASSERT_TRUE(asic.ResetCounters().ok());
  ASSERT_TRUE(twice->Execute(arguments).ok());
  ASSERT_TRUE(twice->Execute(arguments).ok());

  phal_device_counter_t* counters = nullptr;
  size_t count = 0;
  ASSERT_EQ(phal_device_get_counters(asic.get(), &counters, &count), nullptr);
  ASSERT_GT(count, 0u);
  double launches = -1, cycles = -1;
  bool per_kernel = false;
  for (size_t i = 0; i < count; ++i) {
    const std::string name = counters[i].name;
    if (counters[i].kernel[0] != '\0') {
      per_kernel = true;
    } else if (name == "launches") {
      launches = counters[i].value;
    } else if (name == "cycles") {
      cycles = counters[i].value;
      EXPECT_STREQ(counters[i].unit, "cycles");
    }
  }
  phal_free(counters);
  EXPECT_EQ(launches, 2);
  EXPECT_GT(cycles, 0);
  EXPECT_TRUE(per_kernel) << "each kernel's counters too";

  ASSERT_TRUE(asic.ResetCounters().ok());
  Result<std::vector<Counter>> reset = asic.Counters();
  ASSERT_TRUE(reset.ok());
  for (const Counter& counter : *reset) {
    EXPECT_EQ(counter.kernel, "") << "no kernel is counted after a reset";
    EXPECT_EQ(counter.value, 0) << counter.name;
  }
}

class RuntimeLifetime : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("cpu.json",
               testing::PluginManifest("cpu", PHAL_CPU_PLUGIN_PATH));
    const std::string path = dir_.path();
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    options.log_callback = Capture;
    options.log_user_data = &log_;
    ASSERT_EQ(phal_client_create(&options, &client_), nullptr);
    ASSERT_EQ(phal_client_get_device(client_, 0, &device_), nullptr);
  }
  void TearDown() override { phal_client_destroy(client_); }

  // Destroys the client; returns every line it logged.
  std::string DestroyClient() {
    phal_client_destroy(client_);
    client_ = nullptr;
    std::string all;
    for (const std::string& line : log_) all += line + "\n";
    return all;
  }

  testing::TempDir dir_;
  std::vector<std::string> log_;
  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

TEST_F(RuntimeLifetime, DestroyingAClientReclaimsLeakedObjects) {
  const std::vector<int64_t> dims = {1024};
  const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F64, dims);
  phal_buffer_t* buffer = nullptr;
  phal_stream_t* stream = nullptr;
  phal_event_t* event = nullptr;
  ASSERT_EQ(phal_buffer_allocate(device_, &desc, &buffer), nullptr);
  ASSERT_EQ(phal_stream_create(device_, &stream), nullptr);
  ASSERT_EQ(phal_event_create(device_, &event), nullptr);
  ASSERT_EQ(phal_stream_record_event(stream, event), nullptr);
  const std::string all = DestroyClient();
  EXPECT_THAT(all, HasSubstr("1 buffer(s) not freed"));
  EXPECT_THAT(all, HasSubstr("1 stream(s) not freed"));
  EXPECT_THAT(all, HasSubstr("1 event(s) not freed"));
}

// phal_event_destroy (ABI 1.3) and its 1.0 name phal_event_free release an
// event alike: neither leaves anything for the client to reclaim, both
// drop a pending record, and both accept NULL.
TEST_F(RuntimeLifetime, EventDestroyAndItsAbi10NameFreeFreeAnEventAlike) {
  phal_stream_t* stream = nullptr;
  ASSERT_EQ(phal_stream_create(device_, &stream), nullptr);
  phal_event_t* destroyed = nullptr;
  phal_event_t* freed = nullptr;
  ASSERT_EQ(phal_event_create(device_, &destroyed), nullptr);
  ASSERT_EQ(phal_event_create(device_, &freed), nullptr);
  ASSERT_EQ(phal_stream_record_event(stream, destroyed), nullptr);
  ASSERT_EQ(phal_stream_record_event(stream, freed), nullptr);
  phal_event_destroy(destroyed);
  phal_event_free(freed);
  phal_event_destroy(nullptr);
  phal_event_free(nullptr);
  phal_stream_destroy(stream);
  EXPECT_THAT(DestroyClient(), ::testing::Not(HasSubstr("event(s) not freed")));
}

// extension.h's walker: the first element of a type, past elements of
// types it does not know; NULL for an empty chain, an absent type and the
// reserved type 0.
TEST(ExtensionChain, FindReturnsTheFirstElementOfATypeAndSkipsTheRest) {
  phal_extension_base_t last{sizeof(phal_extension_base_t), 7, nullptr};
  phal_extension_base_t repeated{sizeof(phal_extension_base_t), 7, &last};
  phal_extension_base_t unknown{sizeof(phal_extension_base_t), 0x7fff0001u,
                                &repeated};
  phal_extension_base_t reserved{sizeof(phal_extension_base_t),
                                 PHAL_EXTENSION_TYPE_NONE, &unknown};
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  properties.next = &reserved;
  EXPECT_EQ(phal_extension_find(properties.next, 7), &repeated);
  EXPECT_EQ(phal_extension_find(properties.next, 0x7fff0001u), &unknown);
  EXPECT_EQ(phal_extension_find(properties.next, 8), nullptr);
  EXPECT_EQ(phal_extension_find(properties.next, PHAL_EXTENSION_TYPE_NONE),
            nullptr);
  EXPECT_EQ(phal_extension_find(nullptr, 7), nullptr);
}

TEST(RuntimeLibrary, VersionAndElementTypeFacts) {
  EXPECT_EQ(phal_get_abi_version(), PHAL_MAKE_VERSION(1, 14));
  EXPECT_STRNE(phal_get_version_string(), "");
  EXPECT_STREQ(phal_element_type_name(PHAL_ELEMENT_TYPE_BF16), "bf16");
  EXPECT_STREQ(phal_element_type_name(static_cast<phal_element_type_t>(77)),
               "invalid");
  EXPECT_EQ(phal_element_type_byte_size(PHAL_ELEMENT_TYPE_PRED), 1u);
  EXPECT_EQ(phal_element_type_byte_size(PHAL_ELEMENT_TYPE_C128), 16u);
  EXPECT_EQ(phal_element_type_byte_size(PHAL_ELEMENT_TYPE_INVALID), 0u);
  EXPECT_STREQ(phal_status_code_name(PHAL_UNIMPLEMENTED), "UNIMPLEMENTED");
  EXPECT_EQ(phal_status_get_code(nullptr), PHAL_OK);
  EXPECT_STREQ(phal_status_get_message(nullptr), "");
}

}  // namespace
}  // namespace phal
