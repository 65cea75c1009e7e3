// What the reference interpreter asks of the process it runs as when a
// program runs on several processes (replicas x partitions): its ids, and
// the other processes it meets at each collective. The single-device
// interpreter runs without one; spmd_interpreter.h provides one per process.
#ifndef POLYHAL_CORE_REFERENCE_PROCESS_CONTEXT_H_
#define POLYHAL_CORE_REFERENCE_PROCESS_CONTEXT_H_

#include <cstdint>
#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

class ProcessContext {
 public:
  virtual ~ProcessContext() = default;

  // The values replica-id and partition-id give this process.
  virtual int64_t replica_id() const = 0;
  virtual int64_t partition_id() const = 0;

  // Evaluates the collective `instruction` (IsCollective in
  // core/hlo/process_groups.h) for this process on its `operands`: meets
  // the other processes of its group and returns this process's result.
  // `runner` runs the reduction computation of all-reduce and
  // reduce-scatter. Called by one thread per context.
  virtual StatusOr<Literal> EvaluateCollective(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands, ComputationRunner* runner) = 0;

  // True once the run is abandoned because another process failed; the
  // interpreter then stops before its next instruction. Thread-safe.
  virtual bool cancelled() const = 0;
};

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_PROCESS_CONTEXT_H_
