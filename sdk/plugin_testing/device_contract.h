// The tests every plugin's device must pass, written once: buffers, copies,
// streams and events as plugin.h specifies them, and kernels that compute
// what the KIR interpreter computes and survive serialization. A plugin's
// test binary registers them all with one line, naming the suite:
//
//   PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(AcmeDeviceContract);
//
// They run on device 0 of the plugin the binary's PluginEnvironment loaded
// (plugin_environment.h) and skip where it has none. A kernel test skips
// where the device lacks the kernel kind or element types it needs, so a
// device with few kernels still passes every test it can run. A plugin's
// own tests then cover only its internals.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_DEVICE_CONTRACT_H_
#define POLYHAL_SDK_PLUGIN_TESTING_DEVICE_CONTRACT_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "sdk/plugin_testing/plugin_test.h"

namespace phal::plugin_testing {

// scale * (i % modulus) - 2 for i below n: small values every order of
// summation adds exactly.
std::vector<float> Ramp(int64_t n, float scale, int modulus);
// The three buffers of MultiplyAddOne(n): two ramps and a zeroed output.
std::vector<std::vector<uint8_t>> MultiplyAddOneInputs(int64_t n);

class DeviceContractTest : public PluginTest {
 protected:
  // True when device 0 compiles `kind` over every type of `types`.
  bool Supports(phal_kernel_kind_t kind,
                std::initializer_list<phal_element_type_t> types) const;

  // Emits `desc`, runs it on the device and on the KIR interpreter from the
  // same `contents`, and expects every buffer byte for byte equal.
  void ExpectSameAsInterpreter(
      const phal_kernel_desc_t& desc,
      const std::vector<std::vector<uint8_t>>& contents);
  // The same for a kernel already emitted (or deserialized) from `desc`.
  void ExpectRunMatchesInterpreter(
      phal_plugin_kernel_t* kernel, const phal_kernel_desc_t& desc,
      const std::vector<std::vector<uint8_t>>& contents);

  // The bodies of the contract's tests. Bytes copied host -> buffer ->
  // buffer -> host (at an offset) come back unchanged; work on a second
  // stream that waits on an event recorded on the first sees the first
  // stream's copy.
  void ExpectCopiesRoundTrip();
  void ExpectEventsOrderWorkAcrossStreams();
  void ExpectZeroByteBuffersAreDistinct();
  void ExpectCopiesOutsideABufferAreRefused();
  void ExpectAnEventNeverRecordedHasFired();
  void ExpectPropertiesFitAnOlderCallersStruct();
  void ExpectElementwiseLoopMatchesTheInterpreter();
  void ExpectReductionsMatchTheInterpreter();
  void ExpectMatmulMatchesTheInterpreter();
  void ExpectStableSortMatchesTheInterpreter();
  void ExpectASerializedKernelRunsAfterDeserializing();
  void ExpectBytesThatAreNotAKernelAreRefused();
  void ExpectEveryTruncationOfAKernelIsRefused();
  void ExpectAKernelNamingAMissingBufferIsRefused();
};

}  // namespace phal::plugin_testing

#define PHAL_PLUGIN_CONTRACT_TEST_(suite, name) \
  TEST_F(suite, name) { Expect##name(); }

#define PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(suite)                             \
  class suite : public ::phal::plugin_testing::DeviceContractTest {};        \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, CopiesRoundTrip)                         \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, EventsOrderWorkAcrossStreams)            \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ZeroByteBuffersAreDistinct)              \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, CopiesOutsideABufferAreRefused)          \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, AnEventNeverRecordedHasFired)            \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, PropertiesFitAnOlderCallersStruct)       \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ElementwiseLoopMatchesTheInterpreter)    \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ReductionsMatchTheInterpreter)           \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, MatmulMatchesTheInterpreter)             \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, StableSortMatchesTheInterpreter)         \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, ASerializedKernelRunsAfterDeserializing) \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, BytesThatAreNotAKernelAreRefused)        \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, EveryTruncationOfAKernelIsRefused)       \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, AKernelNamingAMissingBufferIsRefused)    \
  static_assert(true, "a semicolon follows the macro")

#endif  // POLYHAL_SDK_PLUGIN_TESTING_DEVICE_CONTRACT_H_
