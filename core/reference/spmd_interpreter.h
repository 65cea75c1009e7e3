// The reference semantics of an SPMD program: the module's entry
// computation runs as replica_count x num_partitions processes, each on its
// own arguments and its own thread, with its own control flow; they meet at
// each collective, which computes what the StableHLO specification
// prescribes for the process groups of core/hlo/process_groups.h.
// Process k is replica k / num_partitions, partition k % num_partitions.
#ifndef POLYHAL_CORE_REFERENCE_SPMD_INTERPRETER_H_
#define POLYHAL_CORE_REFERENCE_SPMD_INTERPRETER_H_

#include <chrono>
#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

struct SpmdOptions {
  // How long a process waits at a collective for the rest of its group
  // before the run fails with DEADLINE_EXCEEDED. Generous by default: a
  // peer may still be computing (the reference is slow by design).
  std::chrono::milliseconds collective_timeout{60000};
};

// Runs the entry computation of `module` as every process of its grid,
// process k on arguments[k], and returns each process's result (results[k]
// a tuple literal when the root is a tuple). The module is verified first.
// When a process fails, the run fails with its error, prefixed with the
// process ("process 1 (replica 0, partition 1): ..."); the other processes
// stop promptly. A collective whose peers do not all arrive fails with
// DEADLINE_EXCEEDED naming the instruction, the group and the missing
// processes, after options.collective_timeout at the latest; processes
// that disagree about which collective they are at fail with
// FAILED_PRECONDITION. Thread-safe: concurrent calls on one module are
// allowed.
StatusOr<std::vector<Literal>> EvaluateSpmd(
    const HloModule& module, const std::vector<std::vector<Literal>>& arguments,
    const SpmdOptions& options = {});

}  // namespace phal

#endif  // POLYHAL_CORE_REFERENCE_SPMD_INTERPRETER_H_
