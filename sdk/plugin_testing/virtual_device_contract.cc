#include "sdk/plugin_testing/virtual_device_contract.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::plugin_testing {
namespace {

constexpr const char* kKnob = "PHAL_VIRTUAL_DEVICES";

std::array<uint8_t, 16> UuidOf(const phal_device_properties_t& properties) {
  std::array<uint8_t, 16> uuid;
  std::memcpy(uuid.data(), properties.uuid, uuid.size());
  return uuid;
}

}  // namespace

void VirtualDeviceContractTest::SetUp() {
  if (const char* value = std::getenv(kKnob)) saved_knob_ = value;
  ASSERT_EQ(setenv(kKnob, std::to_string(kDeviceCount).c_str(), 1), 0);
  DeviceContractTest::SetUp();
}

void VirtualDeviceContractTest::TearDown() {
  DeviceContractTest::TearDown();
  if (saved_knob_.has_value()) {
    setenv(kKnob, saved_knob_->c_str(), 1);
  } else {
    unsetenv(kKnob);
  }
}

void VirtualDeviceContractTest::UseDevice(size_t ordinal) {
  api().device_close(device_);
  device_ = nullptr;
  ASSERT_TRUE(IsOk(api().device_open(ordinal, &device_)));
  properties_ = {};
  properties_.struct_size = sizeof(properties_);
  ASSERT_TRUE(IsOk(api().device_get_properties(device_, &properties_)));
}

void VirtualDeviceContractTest::ExpectTheKnobGivesThatManyDistinctDevices() {
  size_t count = 0;
  const char* reason = "unset";
  ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
  EXPECT_EQ(count, kDeviceCount);
  EXPECT_EQ(reason, nullptr);
  std::vector<phal_plugin_device_t*> devices;
  std::set<std::string> names;
  std::set<std::array<uint8_t, 16>> uuids;
  for (size_t ordinal = 0; ordinal < kDeviceCount; ++ordinal) {
    // Device 0 is the fixture's, already open.
    phal_plugin_device_t* device = device_;
    if (ordinal > 0) {
      ASSERT_TRUE(IsOk(api().device_open(ordinal, &device)))
          << "device " << ordinal;
      devices.push_back(device);
    }
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    ASSERT_TRUE(IsOk(api().device_get_properties(device, &properties)));
    EXPECT_EQ(properties.ordinal, ordinal);
    EXPECT_TRUE(names.insert(properties.name).second)
        << "device " << ordinal
        << " has the name of another: " << properties.name;
    EXPECT_TRUE(uuids.insert(UuidOf(properties)).second)
        << "device " << ordinal << " has the UUID of another";
    EXPECT_EQ(properties.kind, properties_.kind);
  }
  EXPECT_NE(devices.front(), device_) << "each device has its own handle";
  phal_plugin_device_t* beyond = nullptr;
  EXPECT_TRUE(
      HasCode(api().device_open(kDeviceCount, &beyond), PHAL_INVALID_ARGUMENT));
  for (phal_plugin_device_t* device : devices) api().device_close(device);
}

void VirtualDeviceContractTest::
    ExpectABufferOfOneDeviceRoundTripsBesideAnother() {
  // Device 1's buffer, written first, must keep its bytes while device 2's
  // is written and read.
  phal_plugin_device_t* other = nullptr;
  ASSERT_TRUE(IsOk(api().device_open(1, &other)));
  phal_plugin_buffer_t* other_buffer = nullptr;
  phal_plugin_stream_t* other_stream = nullptr;
  ASSERT_TRUE(IsOk(api().buffer_allocate(other, 0, 4096, &other_buffer)));
  ASSERT_TRUE(IsOk(api().stream_create(other, &other_stream)));
  const std::vector<uint8_t> others(4096, 0x5A);
  ASSERT_TRUE(IsOk(api().stream_copy_from_host(other_stream, others.data(),
                                               other_buffer, 0, 4096)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(other_stream)));

  UseDevice(2);
  std::vector<uint8_t> values(4096);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<uint8_t>(i * 7 + 3);
  }
  phal_plugin_buffer_t* buffer = Allocate(4096);
  phal_plugin_stream_t* stream = CreateStream();
  ASSERT_TRUE(buffer != nullptr && stream != nullptr);
  std::vector<uint8_t> back(4096, 0);
  ASSERT_TRUE(IsOk(
      api().stream_copy_from_host(stream, values.data(), buffer, 0, 4096)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(stream, buffer, 0, back.data(), 4096)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_EQ(back, values);

  std::vector<uint8_t> others_back(4096, 0);
  ASSERT_TRUE(IsOk(api().stream_copy_to_host(other_stream, other_buffer, 0,
                                             others_back.data(), 4096)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(other_stream)));
  EXPECT_EQ(others_back, others);
  api().stream_destroy(other_stream);
  api().buffer_free(other_buffer);
  api().device_close(other);
}

void VirtualDeviceContractTest::
    ExpectAKernelOnAnotherDeviceMatchesTheInterpreter() {
  UseDevice(3);
  if (!Supports(PHAL_KERNEL_KIND_LOOP, {PHAL_ELEMENT_TYPE_F32})) {
    GTEST_SKIP() << "the device compiles no f32 loop";
  }
  constexpr int64_t n = 1000;
  ExpectSameAsInterpreter(MultiplyAddOne(n).Desc(), MultiplyAddOneInputs(n));
}

void VirtualDeviceContractTest::ExpectABadKnobLeavesNoDeviceAndSaysWhy() {
  for (const char* text : {"0", "-2", "four", "4x", "65"}) {
    ASSERT_EQ(setenv(kKnob, text, 1), 0);
    size_t count = 99;
    const char* reason = nullptr;
    ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
    EXPECT_EQ(count, 0u) << kKnob << "=" << text;
    ASSERT_NE(reason, nullptr) << kKnob << "=" << text;
    const std::string said = reason;
    EXPECT_NE(said.find(std::string(kKnob) + "=\"" + text + "\""),
              std::string::npos)
        << said;
    EXPECT_NE(said.find("from 1 to 64"), std::string::npos) << said;
    phal_plugin_device_t* refused = nullptr;
    EXPECT_TRUE(HasCode(api().device_open(0, &refused), PHAL_INVALID_ARGUMENT))
        << kKnob << "=" << text;
  }
  // The fixture's device closes under the knob it was opened with.
  ASSERT_EQ(setenv(kKnob, std::to_string(kDeviceCount).c_str(), 1), 0);
}

}  // namespace phal::plugin_testing
