// Collectives between devices whose memory the host addresses (the cpu
// plugin's, the template's, asic-ref's simulated DRAM, an emulator's): the
// place where the ranks of one communicator meet, and the arithmetic of
// every kind and reduction of plugin.h's collective layouts. A plugin's
// stream_collective queues, on the rank's stream, a call of Run with the
// host addresses of the rank's send and receive ranges; Run returns once
// the collective is complete for that rank.
//
// The work is split among the ranks: once all have arrived, each computes
// its own share (its receive range, and for all-reduce one n-th of the
// elements, which it writes into every rank's receive range) on the thread
// that runs its stream, so n devices' streams use n threads. A small
// collective (kSmallBytes of send and receive range per rank at most) is
// done whole by the last rank to arrive, which wakes the others once. The
// bits do not depend on the split: every element is reduced in rank order.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COMMUNICATOR_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COMMUNICATOR_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "sdk/base/status.h"
#include "sdk/plugin_support/collective_desc.h"

namespace phal {

// True when HostCommunicator computes `desc`'s kind, element type and
// reduction: every kind moves every element type; sum, product, min and
// max reduce every numeric type (min and max of pred are and and or), and
// and or reduce integers and pred.
bool HostCommunicatorSupports(const phal_collective_desc_t& desc);

// Rank `rank`'s whole receive range of `desc` over `sends` (every rank's
// send range, in rank order) into `recv`: the bits Run gives that rank. For
// a meeting place of its own (ranks in several processes) that has every
// rank's send range at hand.
void ComputeCollectiveRank(const CollectiveDesc& desc,
                           std::span<const std::byte* const> sends,
                           uint32_t rank, std::byte* recv);

// Thread-safe: each rank calls Run from its own thread.
class HostCommunicator {
 public:
  static constexpr uint64_t kSmallBytes = 64 << 10;

  explicit HostCommunicator(uint32_t ranks);
  HostCommunicator(const HostCommunicator&) = delete;
  HostCommunicator& operator=(const HostCommunicator&) = delete;

  uint32_t size() const { return ranks_; }

  // Rank `rank`'s part of its next collective (the k-th call of a rank
  // meets the k-th call of every other rank). Waits until every rank has
  // arrived, does the rank's share, and waits until every rank has done
  // its share (peers read its send range until then). `send` and `recv`
  // hold CheckCollectiveDesc's byte sizes.
  //
  // Fails with FAILED_PRECONDITION when the ranks' descriptions disagree,
  // DEADLINE_EXCEEDED naming the missing ranks when they do not all
  // arrive within desc.timeout_ms (0: no limit), ABORTED after Abort. A
  // failure is final: every later collective fails with it, since the
  // ranks no longer agree on which collective is which.
  Status Run(uint32_t rank, const CollectiveDesc& desc, const std::byte* send,
             std::byte* recv);

  // Rank `rank`'s next collective as a meeting only: the same arrival,
  // agreement, timeout and abort as Run, and no data moved. A plugin that
  // hands a collective to a library of its own (NCCL on a GPU) meets its
  // peers here first, so that a missing rank times out with the ranks
  // named before the library waits for it; Meet and Run count collectives
  // together.
  Status Meet(uint32_t rank, const CollectiveDesc& desc);

  // Fails every waiting and later collective with ABORTED. Never blocks on
  // a collective.
  void Abort();

 private:
  struct Round {
    CollectiveDesc desc;
    std::vector<const std::byte*> send;
    std::vector<std::byte*> recv;
    std::vector<bool> arrived;
    uint32_t arrived_count = 0;
    uint32_t finished_count = 0;
  };

  // Run's body; `compute` false: Meet.
  Status Arrive(uint32_t rank, const CollectiveDesc& desc,
                const std::byte* send, std::byte* recv, bool compute);
  // The first failure, once there is one; the lock held.
  void FailLocked(Status status);
  // The rank's share of `round`, all ranks present.
  static void Compute(const Round& round, uint32_t rank, uint32_t ranks);

  const uint32_t ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  // The next collective of each rank.
  std::vector<uint64_t> next_sequence_;
  std::map<uint64_t, std::shared_ptr<Round>> rounds_;
  Status failure_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COMMUNICATOR_H_
