// Runs a program for several processes (replicas x partitions) on as many
// devices at once: one thread per device, each executing its loaded copy of
// the program as its process, meeting the others at every collective. The
// devices may belong to different plugins. A collective whose groups lie on
// devices of one plugin with the collective slots (ABI 1.8) runs on the
// plugin's communicators (device_collectives.h); the others are staged
// through host memory (LoadedProgram::Execute).
#ifndef POLYHAL_CORE_EXECUTOR_SPMD_EXECUTOR_H_
#define POLYHAL_CORE_EXECUTOR_SPMD_EXECUTOR_H_

#include <chrono>
#include <memory>
#include <span>
#include <vector>

#include "core/executor/device_collectives.h"
#include "core/executor/distributed_grid.h"
#include "core/executor/executor.h"
#include "sdk/base/status.h"

namespace phal {

// The collective timeout when nothing sets one: generous, since a peer may
// still be computing.
inline constexpr std::chrono::milliseconds kDefaultCollectiveTimeout{60000};

// PHAL_COLLECTIVE_TIMEOUT (seconds, a positive number up to 10^6) when set,
// else `fallback`; INVALID_ARGUMENT naming the variable and its value when
// it is set to anything else.
StatusOr<std::chrono::milliseconds> CollectiveTimeoutFromEnv(
    std::chrono::milliseconds fallback = kDefaultCollectiveTimeout);

// Runs programs[k] as process k (replica k / num_partitions, partition
// k % num_partitions) on arguments[k], all at once, and returns each
// process's results (plugin buffers of programs[k]'s device, owned by the
// caller). Every program must be a copy of one program for
// programs.size() processes. A collective whose peers do not all arrive
// within `collective_timeout` fails with DEADLINE_EXCEEDED naming the
// collective, its group and the missing processes; when one process fails
// the others stop at their next collective, and the call fails with the
// first error, prefixed with its process. Nothing is returned on failure
// (the results of processes that finished are freed). Thread-safe.
//
// `collectives` (may be null) carries the plugins' communicators from one
// execution of these programs to the next: an empty one receives those
// this execution made, one that holds them is used (and emptied when the
// execution fails, since a failure aborts them). It belongs to one
// execution at a time.
StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> ExecuteSpmd(
    std::span<const LoadedProgram* const> programs,
    std::span<const std::vector<phal_plugin_buffer_t*>> arguments,
    std::chrono::milliseconds collective_timeout,
    std::unique_ptr<DeviceCollectives>* collectives = nullptr);

// Runs this rank's processes of a program whose processes span the ranks of
// a job: programs[i] as process grid.local_processes()[i] on arguments[i],
// while the job's other ranks run theirs (distributed_grid.h). Collectives
// the plugins' communicators do not run are staged through host memory
// and the transport. Otherwise as ExecuteSpmd: every program a copy of one
// program for the grid's processes, nothing returned on failure.
// `collectives` (may be null; made
// by DeviceCollectives::CreateOnRank for these programs and grid) runs the
// collectives the plugins' communicators can; a failure leaves them
// aborted, so later executions fail at their first such collective.
StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> ExecuteSpmdOnRank(
    std::span<const LoadedProgram* const> programs,
    std::span<const std::vector<phal_plugin_buffer_t*>> arguments,
    const DistributedGrid& grid, DeviceCollectives* collectives = nullptr);

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_SPMD_EXECUTOR_H_
