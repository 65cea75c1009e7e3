// The reference interpreter: the oracle the conformance suite certifies
// plugins against. It runs the HLO IR directly with the StableHLO
// specification's semantics for every op and element type; transcendental
// functions are computed in double and rounded to the element type. Where
// the specification leaves a result open, docs/hlo.md ("Reference
// semantics") says what this interpreter does.
#ifndef POLYHAL_CORE_REFERENCE_INTERPRETER_H_
#define POLYHAL_CORE_REFERENCE_INTERPRETER_H_

#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// Runs the entry computation of `module` with parameter i bound to
// arguments[i] and returns the root's value (a tuple literal when the root
// is a tuple). The module is verified first (VerifyModule); arguments must
// match the parameters' shapes (layouts aside).
// Thread-safe: concurrent calls on one module are allowed.
// A program on several processes (replica_count x num_partitions above 1)
// runs with EvaluateSpmd (spmd_interpreter.h); here replica-id and
// partition-id are 0 for a one-process program, and collectives fail.
StatusOr<Literal> Evaluate(const HloModule& module,
                           const std::vector<Literal>& arguments);

namespace reference {

class ProcessContext;

// As Evaluate, as one process of a program on several processes: `process`
// (null: a one-process program) answers replica-id and partition-id and
// meets the other processes at each collective. The module must have been
// verified (VerifyModule); EvaluateSpmd does so once for all processes.
StatusOr<Literal> EvaluateProcess(const HloModule& module,
                                  const std::vector<Literal>& arguments,
                                  ProcessContext* process);

}  // namespace reference

}  // namespace phal

#endif  // POLYHAL_CORE_REFERENCE_INTERPRETER_H_
