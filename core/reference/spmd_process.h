// One process of an SPMD program's grid, as the reference runs it: its ids,
// the process groups of the collectives it executes, and its place in the
// rendezvous where it meets the other processes. EvaluateSpmd gives one to
// each of its threads; the executor gives one to each device of a
// multi-device execution, so that collectives a plugin does not run itself
// are staged through host memory with the reference's semantics.
#ifndef POLYHAL_CORE_REFERENCE_SPMD_PROCESS_H_
#define POLYHAL_CORE_REFERENCE_SPMD_PROCESS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/hlo/process_groups.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/process_context.h"
#include "sdk/base/status.h"

namespace phal::reference {

class SpmdProcess final : public ProcessContext {
 public:
  // Process `id` of `grid` (replica id / grid.partitions, partition
  // id % grid.partitions), meeting its peers at `rendezvous`, which must
  // outlive it.
  SpmdProcess(int64_t id, ProcessGrid grid, CollectiveRendezvous* rendezvous)
      : id_(id), grid_(grid), rendezvous_(rendezvous) {}

  int64_t id() const { return id_; }
  int64_t replica_id() const override { return id_ / grid_.partitions; }
  int64_t partition_id() const override { return id_ % grid_.partitions; }
  bool cancelled() const override { return rendezvous_->cancelled(); }

  // Collectives are numbered in the order this process executes them:
  // call from one thread at a time.
  StatusOr<Literal> EvaluateCollective(const HloInstruction& instruction,
                                       std::span<const Literal* const> operands,
                                       ComputationRunner* runner) override;

 private:
  using ProcessGroupList = std::vector<std::vector<int64_t>>;

  StatusOr<const ProcessGroupList*> GroupsOf(const HloInstruction& instruction);
  StatusOr<Literal> Permute(const HloInstruction& instruction,
                            const ProcessGroupList& pairs,
                            CollectiveMeeting meeting,
                            std::vector<Literal> operands);

  const int64_t id_;
  const ProcessGrid grid_;
  CollectiveRendezvous* rendezvous_;
  int64_t next_sequence_ = 0;
  std::unordered_map<const HloInstruction*, ProcessGroupList> groups_;
};

// "process 1 (replica 0, partition 1)".
std::string DescribeProcess(int64_t process, ProcessGrid grid);

// Runs run(k) for every k of `processes` (processes of `grid`), each on a
// thread of its own (the first on the calling thread), and records each
// one's finish at `rendezvous`. When one fails, the others stop at their
// next collective; the result is the first failure, prefixed with its
// process, or the thread that could not start. `run` is called
// concurrently.
Status RunProcesses(std::span<const int64_t> processes, ProcessGrid grid,
                    CollectiveRendezvous& rendezvous,
                    const std::function<Status(int64_t)>& run);

// Runs run(k, process k) for every process of `grid`, each on a thread of
// its own (process 0 on the calling thread), meeting at one rendezvous
// whose peers wait `timeout` at most. When one fails, the others stop at
// their next collective; the result is the first failure, prefixed with
// its process, or the thread that could not start. `run` is called
// concurrently.
Status RunGrid(ProcessGrid grid, std::chrono::milliseconds timeout,
               const std::function<Status(int64_t, SpmdProcess*)>& run);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_SPMD_PROCESS_H_
