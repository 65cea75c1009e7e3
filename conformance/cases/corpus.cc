#include "conformance/cases/corpus.h"

namespace phal::conformance {

std::vector<Case> BuiltInCases() {
  std::vector<Case> cases = ApiCases();
  for (auto family :
       {&ElementwiseCases, &DataMovementCases, &ReductionCases,
        &ControlFlowCases, &FftCases, &LinearAlgebraCases, &ModelCases,
        &QuantizedCases, &ChloCases, &CollectiveCases, &ShardedCases}) {
    std::vector<Case> more = family();
    cases.insert(cases.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
  }
  return cases;
}

}  // namespace phal::conformance
