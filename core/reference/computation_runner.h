// The interface through which ops with called computations (reduce, sort,
// scatter, map, ...) run those computations in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_COMPUTATION_RUNNER_H_
#define POLYHAL_CORE_REFERENCE_COMPUTATION_RUNNER_H_

#include <span>

#include "core/hlo/computation.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

class ComputationRunner {
 public:
  virtual ~ComputationRunner() = default;
  // Evaluates `computation` with parameter i bound to *arguments[i]; returns
  // the root's value.
  virtual StatusOr<Literal> Run(const HloComputation& computation,
                                std::span<const Literal* const> arguments) = 0;
};

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_COMPUTATION_RUNNER_H_
