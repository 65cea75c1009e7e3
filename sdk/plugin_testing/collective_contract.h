// The tests every plugin that fills the collective slots (ABI 1.8,
// kPluginCollectiveSlots) passes, written once. A plugin's test binary
// registers them with one line, naming the suite:
//
//   PHAL_PLUGIN_COLLECTIVE_TESTS(AcmeCollectives);
//
// They run on four devices (PHAL_VIRTUAL_DEVICES=4, restored after each
// test), each rank's part queued from a thread of its own as the core
// queues it. They check that every kind gives plugin.h's layout on one
// communicator of the four devices and on one of two of them; that ranks
// whose descriptions differ fail; that a rank whose peers never arrive
// fails with DEADLINE_EXCEEDED within the description's timeout; that
// communicator_abort ends a rank's wait with ABORTED; and that
// device_supports_collective answers 1 for what the slots run and 0 for
// an and of floats. A plugin that leaves the slots out skips them.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_COLLECTIVE_CONTRACT_H_
#define POLYHAL_SDK_PLUGIN_TESTING_COLLECTIVE_CONTRACT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/plugin_testing/virtual_device_contract.h"

namespace phal::plugin_testing {

class CollectiveContractTest : public VirtualDeviceContractTest {
 protected:
  // Opens the four devices, a stream on each, after the knob is set.
  void SetUp() override;
  // Releases the streams, buffers and communicators, then the devices.
  void TearDown() override;

  // True when the plugin fills the slots (else the test skips).
  bool HasCollectives() const;
  // One communicator over devices `ranks` (indices into the four); its
  // handles, rank order.
  std::vector<phal_plugin_communicator_t*> Communicator(
      const std::vector<size_t>& ranks);
  // Runs run(r) for every rank r on a thread of its own and joins them.
  static void OnEveryRank(size_t ranks, const std::function<void(size_t)>& run);
  // Queues `desc` on the communicator `handles` (devices `ranks`), rank r
  // sending send[r] (f32 values), synchronises each rank's stream and
  // returns what each received (recv_count values) and each stream's
  // status code.
  std::vector<std::vector<float>> Run(
      const std::vector<size_t>& ranks,
      const std::vector<phal_plugin_communicator_t*>& handles,
      const phal_collective_desc_t& desc,
      const std::vector<std::vector<float>>& send, size_t recv_count,
      std::vector<phal_status_code_t>* codes = nullptr);

  void ExpectEveryKindFollowsTheLayouts();
  void ExpectDisagreeingRanksFail();
  void ExpectAMissingRankTimesOut();
  void ExpectAbortEndsAWait();
  void ExpectSupportIsAnswered();
  // ABI 1.12: a communicator over four devices joined as by two processes
  // (two threads, each joining two devices with ranks {0, 2} and {1, 3})
  // runs every description device_supports_joined_collective accepts with
  // the layouts' values. Skips where the plugin joins no communicators.
  void ExpectJoinedCommunicatorsFollowTheLayouts();

  // Device r of the four (device 0 is the fixture's) and a stream on it.
  std::vector<phal_plugin_device_t*> rank_devices_;
  std::vector<phal_plugin_stream_t*> rank_streams_;
  // Buffers (with their device's index) and communicator handles to
  // release.
  std::vector<phal_plugin_buffer_t*> rank_buffers_;
  std::vector<phal_plugin_communicator_t*> communicators_;
};

}  // namespace phal::plugin_testing

#define PHAL_PLUGIN_COLLECTIVE_TESTS(suite)                               \
  class suite : public ::phal::plugin_testing::CollectiveContractTest {}; \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, EveryKindFollowsTheLayouts)           \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, DisagreeingRanksFail)                 \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, AMissingRankTimesOut)                 \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, AbortEndsAWait)                       \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, SupportIsAnswered)                    \
  PHAL_PLUGIN_CONTRACT_TEST_(suite, JoinedCommunicatorsFollowTheLayouts)  \
  static_assert(true, "a semicolon follows the macro")

#endif  // POLYHAL_SDK_PLUGIN_TESTING_COLLECTIVE_CONTRACT_H_
