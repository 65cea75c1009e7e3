// One process of an SPMD program (replicas x partitions) per rank of an
// MPI job: rank k is process k (replica k / partitions, partition
// k % partitions), and every collective meets the other ranks of its group
// over MPI, on host memory. Each member sends its operands to every other
// member and computes the result with the reference's semantics
// (core/reference/collectives.h) from all of them in group order, so every
// member and every run gets the same bits. A collective whose peers do not
// arrive within the timeout fails with DEADLINE_EXCEEDED naming the
// instruction, its group and the missing ranks; ranks at different
// collectives fail with FAILED_PRECONDITION.
#ifndef POLYHAL_CORE_DISTRIBUTED_MPI_PROCESS_CONTEXT_H_
#define POLYHAL_CORE_DISTRIBUTED_MPI_PROCESS_CONTEXT_H_

#include <chrono>
#include <cstdint>

#include "core/distributed/mpi_job.h"
#include "core/hlo/process_groups.h"
#include "core/reference/process_context.h"

namespace phal {

class MpiProcessContext final : public reference::ProcessContext {
 public:
  // The process of `grid` this rank runs; job.size() must be
  // grid.process_count().
  MpiProcessContext(MpiJob& job, ProcessGrid grid,
                    std::chrono::milliseconds timeout)
      : job_(job), grid_(grid), timeout_(timeout) {}

  int64_t replica_id() const override { return job_.rank() / grid_.partitions; }
  int64_t partition_id() const override {
    return job_.rank() % grid_.partitions;
  }
  StatusOr<Literal> EvaluateCollective(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands,
      reference::ComputationRunner* runner) override;
  bool cancelled() const override { return false; }

 private:
  MpiJob& job_;
  ProcessGrid grid_;
  std::chrono::milliseconds timeout_;
  int64_t sequence_ = 0;  // collectives executed so far
};

}  // namespace phal

#endif  // POLYHAL_CORE_DISTRIBUTED_MPI_PROCESS_CONTEXT_H_
