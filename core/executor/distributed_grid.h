// The processes of an SPMD program (replicas x partitions) placed on the
// ranks of a job: process k runs on rank rank_of[k], each rank runs its
// own processes on threads, and a collective meets its group in two
// stages. The members on one rank meet in host memory; when the group
// spans several ranks, the member of each rank that comes first in the
// group (its leader) exchanges the rank's operands with the other ranks'
// leaders over the job's transport, one message per pair of ranks, and
// hands the group's values to the rank's other members. An all-reduce
// whose reduction is one binary op (add, multiply, maximum, ...) is reduced
// within each rank first (in group order), then across ranks (in rank
// order), so that one partial result per rank crosses the network; the
// other collectives send every member's operands and compute each
// result with the reference's semantics (core/reference/collectives.h).
// Where the transport runs the reduction itself (HostReductions: MPI's
// all-reduce), the ranks' partial results are reduced by the transport in
// place, on a group of its own per group of processes, made when the grid
// is created and kept by the transport. Every rank computes from the same
// bits in the same order, so every run gives the same result.
// collective-permute sends each pair's operands from the source's rank to
// the target's.
//
// A peer rank that does not arrive within the timeout fails the leader
// with DEADLINE_EXCEEDED naming the collective, its group and the missing
// ranks; ranks at different collectives fail with FAILED_PRECONDITION.
#ifndef POLYHAL_CORE_EXECUTOR_DISTRIBUTED_GRID_H_
#define POLYHAL_CORE_EXECUTOR_DISTRIBUTED_GRID_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/executor/host_transport.h"
#include "core/hlo/module.h"
#include "core/hlo/process_groups.h"
#include "core/reference/process_context.h"
#include "sdk/base/status.h"

namespace phal {

// Tags at or above this one are free for a transport's other users; the
// collectives use those below, and the plugins' communicators over the
// job's ranks (device_collectives.h) those from kFirstJoinedTag on.
inline constexpr int kFirstFreeTransportTag = 30001;
inline constexpr int kJoinedAgreementTag = 30100;
inline constexpr int kFirstJoinedTag = 30101;
inline constexpr int kJoinedTagCount = 800;

class DistributedGrid {
 public:
  // `rank_of` has one rank (0 <= rank < transport.size()) per process of
  // `grid`. `transport` must outlive the grid. `modules` hold the
  // collectives the grid will run (the program's process ops, or the whole
  // module): where the transport has reductions, the groups of their
  // all-reduces that span ranks and whose reduction it runs get a
  // transport group each (HostTransport::ReductionGroup), in the order of
  // the all-reduces' names, so every rank of the job must create its grid
  // for the same modules at the same point.
  static StatusOr<DistributedGrid> Create(
      HostTransport& transport, ProcessGrid grid, std::vector<int> rank_of,
      std::chrono::milliseconds timeout,
      std::span<const HloModule* const> modules = {});

  HostTransport& transport() const { return *transport_; }
  ProcessGrid grid() const { return grid_; }
  int rank_of(int64_t process) const {
    return rank_of_[static_cast<std::size_t>(process)];
  }
  std::chrono::milliseconds timeout() const { return timeout_; }
  // This rank's processes, in ascending order.
  const std::vector<int64_t>& local_processes() const { return local_; }

  // The transport's group for group `group_index` of all-reduce
  // `instruction` (by name), where the transport reduces it; else nullopt.
  std::optional<uint64_t> reduction_group(const HloInstruction& instruction,
                                          std::size_t group_index) const;
  // How many groups of all-reduces this rank's transport reduces.
  int reduction_group_count() const;

  // Runs run(k, process k) for every process of this rank, each on a
  // thread of its own, meeting the job's other processes at every
  // collective. The first failure, prefixed with its process; a failure
  // stops this rank's other processes at their next collective (the other
  // ranks learn of it when they time out, or when the job ends). Every rank
  // of the job runs its processes at once; one Run at a time per grid.
  Status Run(const std::function<Status(int64_t, reference::ProcessContext*)>&
                 run) const;

 private:
  DistributedGrid(HostTransport& transport, ProcessGrid grid,
                  std::vector<int> rank_of, std::chrono::milliseconds timeout);

  HostTransport* transport_;
  ProcessGrid grid_;
  std::vector<int> rank_of_;
  std::chrono::milliseconds timeout_;
  std::vector<int64_t> local_;
  // By all-reduce name, per group: its transport group, where it has one.
  std::map<std::string, std::vector<std::optional<uint64_t>>> reduction_groups_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_DISTRIBUTED_GRID_H_
