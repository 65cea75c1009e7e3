// PHAL_VIRTUAL_DEVICES as every plugin reads it: the counts it accepts,
// the reasons it gives for the texts it refuses, and the names and UUIDs
// of the devices it makes.
#include "sdk/plugin_support/virtual_devices.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "sdk/plugin_testing/status_assertions.h"

namespace phal {
namespace {

using plugin_testing::HasCode;
using ::testing::HasSubstr;

// Sets PHAL_VIRTUAL_DEVICES (NULL: unsets it) for one test.
class ScopedVirtualDevices {
 public:
  explicit ScopedVirtualDevices(const char* value) {
    if (value == nullptr) {
      unsetenv(kVirtualDevicesVariable);
    } else {
      setenv(kVirtualDevicesVariable, value, 1);
    }
  }
  ~ScopedVirtualDevices() { unsetenv(kVirtualDevicesVariable); }
};

TEST(VirtualDeviceCount, UnsetIsThePluginsDefault) {
  EXPECT_EQ(*ParseVirtualDeviceCount(nullptr, 1), 1u);
  EXPECT_EQ(*ParseVirtualDeviceCount(nullptr, 3), 3u);
}

TEST(VirtualDeviceCount, AcceptsWholeNumbersFromOneToTheMaximum) {
  EXPECT_EQ(*ParseVirtualDeviceCount("1", 1), 1u);
  EXPECT_EQ(*ParseVirtualDeviceCount("4", 1), 4u);
  EXPECT_EQ(*ParseVirtualDeviceCount("64", 1), kMaxVirtualDevices);
}

TEST(VirtualDeviceCount, RefusesEveryOtherTextNamingTheVariableAndTheValue) {
  for (const char* text : {"0", "-1", "65", "1000000000000000000000", "", "x",
                           "4x", " 4", "4 ", "+4", "2.0", "0x4"}) {
    StatusOr<size_t> count = ParseVirtualDeviceCount(text, 1);
    ASSERT_FALSE(count.ok()) << "\"" << text << "\" was accepted";
    EXPECT_EQ(count.status().code(), PHAL_INVALID_ARGUMENT);
    EXPECT_EQ(count.status().message(),
              std::string("PHAL_VIRTUAL_DEVICES=\"") + text +
                  "\" is not a device count: it takes a whole number from 1 "
                  "to 64, or leave it unset for the plugin's default");
  }
}

TEST(VirtualDeviceCount, ReadsTheEnvironmentAtEveryCall) {
  {
    ScopedVirtualDevices knob("3");
    EXPECT_EQ(*VirtualDeviceCount(1), 3u);
  }
  EXPECT_EQ(*VirtualDeviceCount(1), 1u);
}

TEST(CountVirtualDevices, GivesTheCountAndNoReason) {
  ScopedVirtualDevices knob("5");
  size_t count = 99;
  const char* reason = "unset";
  CountVirtualDevices(1, &count, &reason);
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(reason, nullptr);
}

TEST(CountVirtualDevices, ABadKnobGivesNoDeviceAndTheReason) {
  ScopedVirtualDevices knob("0");
  size_t count = 99;
  const char* reason = nullptr;
  CountVirtualDevices(1, &count, &reason);
  EXPECT_EQ(count, 0u);
  ASSERT_NE(reason, nullptr);
  EXPECT_THAT(reason, HasSubstr("PHAL_VIRTUAL_DEVICES=\"0\""));
  EXPECT_THAT(reason, HasSubstr("from 1 to 64"));
  // The reason outlives the call and is shared by equal texts.
  const char* again = nullptr;
  CountVirtualDevices(1, &count, &again);
  EXPECT_EQ(again, reason);
}

TEST(CheckVirtualDeviceOrdinal, AcceptsTheOrdinalsTheKnobGives) {
  ScopedVirtualDevices knob("4");
  EXPECT_TRUE(CheckVirtualDeviceOrdinal("acme plugin", 3, 1).ok());
  EXPECT_TRUE(HasCode(CheckVirtualDeviceOrdinal("acme plugin", 4, 1),
                      PHAL_INVALID_ARGUMENT,
                      {"acme plugin: device ordinal 4 does not exist; the "
                       "plugin has 4 devices"}));
}

TEST(CheckVirtualDeviceOrdinal, ABadKnobRefusesEveryOrdinalNamingIt) {
  ScopedVirtualDevices knob("many");
  EXPECT_TRUE(HasCode(
      CheckVirtualDeviceOrdinal("acme plugin", 0, 1), PHAL_INVALID_ARGUMENT,
      {"acme plugin: device ordinal 0", "PHAL_VIRTUAL_DEVICES=\"many\""}));
}

TEST(VirtualDeviceUuid, DeviceZeroKeepsItsOwnAndTheOthersAreDistinctAndStable) {
  const std::array<uint8_t, 16> base = NameBasedUuid("acme chip 1234");
  EXPECT_EQ(VirtualDeviceUuid(base, 0), base);
  std::set<std::array<uint8_t, 16>> seen;
  for (size_t ordinal = 0; ordinal < kMaxVirtualDevices; ++ordinal) {
    const std::array<uint8_t, 16> uuid = VirtualDeviceUuid(base, ordinal);
    EXPECT_TRUE(seen.insert(uuid).second) << "ordinal " << ordinal;
    EXPECT_EQ(uuid, VirtualDeviceUuid(base, ordinal));
    if (ordinal > 0) {
      EXPECT_EQ(uuid[6] >> 4, 8) << "a version 8 UUID";
      EXPECT_EQ(uuid[8] >> 6, 2) << "of the RFC variant";
    }
  }
}

TEST(NameBasedUuid, IsTheSameForTheSameNameOnly) {
  EXPECT_EQ(NameBasedUuid("a"), NameBasedUuid("a"));
  EXPECT_NE(NameBasedUuid("a"), NameBasedUuid("b"));
}

TEST(VirtualDeviceName, KeepsTheNameOfAPluginsOneDevice) {
  EXPECT_EQ(VirtualDeviceName("Acme X1", 0, 1), "Acme X1");
  EXPECT_EQ(VirtualDeviceName("Acme X1", 2, 4),
            "Acme X1 (virtual device 2 of 4)");
}

}  // namespace
}  // namespace phal
