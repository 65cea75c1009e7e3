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
#ifndef POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_
#define POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/executor/executor.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/collective_desc.h"

namespace phal {

// One process's part of a process op run on a communicator: one
// description per operand (result i comes from operand i).
struct DeviceCollective {
  const phal_plugin_api_t* api = nullptr;
  phal_plugin_communicator_t* communicator = nullptr;
  // The communicator's key in DeviceCollectives, for AbortReason.
  int group = -1;
  // The ranks of the communicator.
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
  // Destroys the communicators. No collective may still be queued.
  ~DeviceCollectives();
  DeviceCollectives(const DeviceCollectives&) = delete;
  DeviceCollectives& operator=(const DeviceCollectives&) = delete;

  // The part of process `process` in process op `op`, or null when the op
  // is staged through host memory.
  const DeviceCollective* Find(int op, int64_t process) const;
  // How many process ops run on the slots.
  int device_op_count() const { return device_op_count_; }

  // Process `process` finished the program with `status`: every
  // communicator it belongs to is aborted, since it will not arrive at
  // any later collective (its peers' parts that wait for it fail at once).
  // Thread-safe.
  void Finish(int64_t process, const Status& status);
  // Why a collective of `group` failed with ABORTED: the process that
  // failed or finished without arriving, as the error its peers report.
  Status AbortReason(int group) const;

 private:
  DeviceCollectives() = default;

  struct Communicator {
    const phal_plugin_api_t* api = nullptr;
    std::vector<int64_t> processes;
    std::vector<phal_plugin_communicator_t*> ranks;
    Status abort_reason;
  };

  std::vector<Communicator> communicators_;
  // [op][process]
  std::vector<std::vector<std::unique_ptr<DeviceCollective>>> ops_;
  int device_op_count_ = 0;
  mutable std::mutex mutex_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_DEVICE_COLLECTIVES_H_
