// The tests every plugin that offers virtual devices passes, written once
// (PHAL_VIRTUAL_DEVICES, sdk/plugin_support/virtual_devices.h). A plugin's
// test binary registers them with one line, naming the suite:
//
//   PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(AcmeVirtualDevices);
//
// Each test sets PHAL_VIRTUAL_DEVICES=4 before it counts the devices and
// restores the variable after, so they run in any order beside the
// plugin's other tests. They check that the plugin then has four devices,
// each opening with its own ordinal, name and UUID; that bytes copied into
// a buffer of device 2 come back while device 1 holds others; that a
// kernel emitted and launched on device 3 computes what the KIR
// interpreter computes; and that a value of the knob it does not accept
// leaves the plugin with no device and a reason naming the variable and
// the value.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_VIRTUAL_DEVICE_CONTRACT_H_
#define POLYHAL_SDK_PLUGIN_TESTING_VIRTUAL_DEVICE_CONTRACT_H_

#include <cstddef>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "sdk/plugin_testing/device_contract.h"

namespace phal::plugin_testing {

class VirtualDeviceContractTest : public DeviceContractTest {
 protected:
  // The devices the tests ask for.
  static constexpr size_t kDeviceCount = 4;

  // Sets PHAL_VIRTUAL_DEVICES=4, then opens device 0 as PluginTest does.
  void SetUp() override;
  // Releases what the test made, then restores PHAL_VIRTUAL_DEVICES.
  void TearDown() override;

  // Makes device `ordinal` the one the fixture's helpers (Allocate, Emit,
  // Run, ...) use, in place of device 0; call before making anything.
  void UseDevice(size_t ordinal);

  void ExpectTheKnobGivesThatManyDistinctDevices();
  void ExpectABufferOfOneDeviceRoundTripsBesideAnother();
  void ExpectAKernelOnAnotherDeviceMatchesTheInterpreter();
  void ExpectABadKnobLeavesNoDeviceAndSaysWhy();

 private:
  std::optional<std::string> saved_knob_;
};

}  // namespace phal::plugin_testing

#define PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(suite)                                \
  class suite : public ::phal::plugin_testing::VirtualDeviceContractTest {};   \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, TheKnobGivesThatManyDistinctDevices)       \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ABufferOfOneDeviceRoundTripsBesideAnother) \
  PHAL_PLUGIN_CONTRACT_TEST_(suite,                                            \
                             AKernelOnAnotherDeviceMatchesTheInterpreter)      \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ABadKnobLeavesNoDeviceAndSaysWhy)          \
  static_assert(true, "a semicolon follows the macro")

#endif  // POLYHAL_SDK_PLUGIN_TESTING_VIRTUAL_DEVICE_CONTRACT_H_
