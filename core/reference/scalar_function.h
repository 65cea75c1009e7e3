// A called computation on scalars (a reducer, comparator, scatter combiner
// or map function) prepared to be called once per element: its values live
// in preallocated scalar literals, so a call allocates nothing. Computations
// made only of parameters, constants, elementwise ops and a root tuple run
// directly; any other falls back to the full interpreter.
#ifndef POLYHAL_CORE_REFERENCE_SCALAR_FUNCTION_H_
#define POLYHAL_CORE_REFERENCE_SCALAR_FUNCTION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/hlo/computation.h"
#include "core/hlo/literal.h"
#include "core/reference/computation_runner.h"
#include "sdk/base/status.h"

namespace phal::reference {

class ScalarFunction {
 public:
  // `computation` must outlive this object; `runner` runs it when it is not
  // made of scalar elementwise ops only.
  ScalarFunction(const HloComputation& computation, ComputationRunner* runner);

  // Calls the computation with parameter i set to the element whose bytes
  // start at arguments[i] (in the parameter's element type).
  Status Call(std::span<const uint8_t* const> arguments);

  // Number of results: the root tuple's size, or 1.
  int64_t result_count() const { return static_cast<int64_t>(results_.size()); }
  // The bytes of result `index` from the last Call.
  const uint8_t* result(int64_t index) const {
    return results_[static_cast<std::size_t>(index)]->data();
  }

 private:
  bool PrepareDirectEvaluation();
  Status CallDirectly();
  Status CallThroughRunner();

  const HloComputation& computation_;
  ComputationRunner* runner_;
  bool direct_ = false;
  // One value per instruction, in post order; operand pointers per
  // instruction point into it (or at a constant's literal).
  std::vector<Literal> values_;
  std::vector<std::vector<const Literal*>> operands_;
  std::vector<Literal> parameters_;
  Literal fallback_result_;
  std::vector<const Literal*> results_;
};

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_SCALAR_FUNCTION_H_
