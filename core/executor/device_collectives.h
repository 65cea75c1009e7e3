// The collectives of a program for several devices that the plugins run
// themselves (ABI 1.8's collective slots) instead of the executor staging
// them through host memory. For each process op of the program it decides,
// once per ExecuteSpmd, whether every process runs it on a plugin's
// communicator: the op is a collective the slots describe (all-reduce and
// reduce-scatter with a plain reduction, all-gather, all-to-all of one
// dimension, collective-permute, collective-broadcast whose groups cover
// every process), each of its groups lies on distinct devices of one
// plugin, and every device supports the description. The decision is the
// same for every process, so processes that stage an op and processes that
// do not never disagree about which collective is which.
// PHAL_STAGE_COLLECTIVES=1 stages every collective through host memory
// (to compare the two ways).
//
// Over the ranks of a job (CreateOnRank), each rank plans its own
// processes: a group within one rank runs on a communicator of its
// devices; a group that spans ranks runs on a communicator the plugin
// joins over the processes (ABI 1.12: communicator_make_id on the device
// of the group's first process, the identifier handed to the other ranks
// over the job's transport, communicator_join on every rank) where every
// rank's members are devices of one plugin that runs the description on
// such a communicator. The ranks agree over the transport, so every rank
// takes the same way for every op. Before each collective of a group that
// spans ranks, the group's first process on each rank meets the other
// ranks' over the transport (their position in the program compared), so
// a rank that never arrives is named within the timeout.
#ifndef POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_
#define POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/executor/distributed_grid.h"
#include "core/executor/executor.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/collective_desc.h"

namespace phal {

// The reduction of an all-reduce or reduce-scatter whose to_apply is one
// binary op the ABI names (add, multiply, minimum, maximum, and, or), or
// nullopt.
std::optional<phal_reduction_t> ReductionOf(const HloInstruction& op);

// One process's part of a process op run on a communicator: one
// description per operand (result i comes from operand i).

struct DeviceCollective {
  // The process op.
  int op = -1;
  const phal_plugin_api_t* api = nullptr;
  phal_plugin_communicator_t* communicator = nullptr;
  // The communicator's key in DeviceCollectives, for AbortReason.
  int group = -1;
  // The process's rank, and the ranks of the communicator.
  uint32_t rank = 0;
  uint32_t ranks = 0;
  std::vector<CollectiveDesc> operands;
  // "all-reduce.3 over processes {0, 1}", for messages.
  std::string label;
};

class DeviceCollectives {
 public:
  // Plans the process ops of programs[0]'s program for programs.size()
  // processes (process k on programs[k]'s device) and creates the
  // communicators they need, one per distinct group. An op that cannot
  // run on the slots is left to host staging; an error comes only from a
  // plugin that fails a query or a communicator_create.
  static StatusOr<std::unique_ptr<DeviceCollectives>> Create(
      std::span<const LoadedProgram* const> programs,
      std::chrono::milliseconds timeout);
  // The same for this rank's processes of a program whose processes span
  // the ranks of `grid`'s job: programs[i] runs grid.local_processes()[i].
  // Every rank of the job calls it at the same point, while nothing else
  // runs on the transport. `grid` must outlive the result.
  static StatusOr<std::unique_ptr<DeviceCollectives>> CreateOnRank(
      std::span<const LoadedProgram* const> programs,
      const DistributedGrid& grid);
  // Destroys the communicators. No collective may still be queued. One
  // execution at a time may use the communicators: an execution's k-th
  // collective meets the k-th of its peers.
  ~DeviceCollectives();
  DeviceCollectives(const DeviceCollectives&) = delete;
  DeviceCollectives& operator=(const DeviceCollectives&) = delete;

  // The part of process `process` in process op `op`, or null when the op
  // is staged through host memory.
  const DeviceCollective* Find(int op, int64_t process) const;
  // How many process ops run on the slots, and how many communicators
  // span the ranks of a job.
  int device_op_count() const { return device_op_count_; }
  int joined_count() const { return joined_count_; }
  // Readies the communicators for another execution whose peers wait
  // `timeout` at most.
  void Prepare(std::chrono::milliseconds timeout);
  // False once a communicator was aborted (a process failed, or finished
  // while a peer waited for it): it is no longer usable.
  bool reusable() const;

  // The process of `call` is about to queue its next collective on the
  // call's communicator. DEADLINE_EXCEEDED naming the peers that finished
  // the program without reaching it (they never will), else OK. Leave
  // follows once the collective has finished. Thread-safe.
  Status Enter(const DeviceCollective& call);
  void Leave(const DeviceCollective& call);
  // Process `process` finished the program with `status`. A failure aborts
  // every communicator it belongs to (peers waiting for it fail at once);
  // a success aborts those where a peer waits at a collective the process
  // never reached. Thread-safe.
  void Finish(int64_t process, const Status& status);
  // Why a collective of `group` failed with ABORTED: the process that
  // failed or finished without arriving, as the error its peers report.
  Status AbortReason(int group) const;

 private:
  DeviceCollectives() = default;

  // programs[k]: process k's program, null where it runs on another rank
  // (only with a grid).
  static StatusOr<std::unique_ptr<DeviceCollectives>> Build(
      std::span<const LoadedProgram* const> programs, const Program& program,
      const DistributedGrid* grid, std::chrono::milliseconds timeout);

  struct Communicator {
    const phal_plugin_api_t* api = nullptr;
    std::vector<int64_t> processes;
    // Each process's handle; null for those of other ranks.
    std::vector<phal_plugin_communicator_t*> ranks;
    // Where the group spans ranks of a job: the job's rank of each
    // process, and the group's first process on this rank (which meets
    // the other ranks before each collective).
    std::vector<int> job_ranks;
    std::size_t local_leader = 0;
    bool joined = false;
    Status abort_reason;
    // Per rank, in this execution: the collectives it entered, whether it
    // waits in the last one, and whether it finished the program.
    std::vector<int64_t> entered;
    std::vector<bool> inside;
    std::vector<bool> finished;
  };

  // Aborts `communicator` for `reason`; the lock held.
  static void AbortLocked(Communicator& communicator, Status reason);
  // "missing processes {p}: ..." for rank `rank` of `communicator`.
  static Status FinishedWithoutArriving(const Communicator& communicator,
                                        std::size_t rank);
  // The local leader's meeting with the other ranks of a joined
  // communicator before its collective `sequence`.
  Status MeetRanks(const DeviceCollective& call, const Communicator& group,
                   int64_t sequence) const;

  std::vector<Communicator> communicators_;
  // [op][process]
  std::vector<std::vector<std::unique_ptr<DeviceCollective>>> ops_;
  int device_op_count_ = 0;
  int joined_count_ = 0;
  const DistributedGrid* grid_ = nullptr;
  mutable std::mutex mutex_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_
