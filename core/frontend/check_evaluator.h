// Evaluates the checks of a StableHLO function (check_spec.h) against the
// outputs a run produced, with the StableHLO check dialect's semantics.
#ifndef POLYHAL_CORE_FRONTEND_CHECK_EVALUATOR_H_
#define POLYHAL_CORE_FRONTEND_CHECK_EVALUATOR_H_

#include <string>
#include <vector>

#include "core/frontend/check_spec.h"
#include "core/frontend/stablehlo_module.h"
#include "core/hlo/literal.h"

namespace phal {

struct CheckResult {
  const CheckSpec* check = nullptr;
  bool passed = false;
  bool skipped = false;
  // The largest error over the elements: absolute difference for
  // kAlmostEqual, ulp distance for kClose, number of differing elements
  // for kEqual.
  double max_error = 0;
  // Why it failed or was skipped: the first mismatching element, or the
  // skip reason.
  std::string detail;
};

// Compares actual against expected per `check`'s kind. Both must be arrays
// of the same shape (layout aside).
CheckResult EvaluateCheck(const CheckSpec& check, const Literal& actual,
                          const Literal& expected);

// The function's outputs as separate literals: the elements of a tuple
// result when function.returns_tuple, else the single result.
std::vector<Literal> SplitFunctionOutputs(const StableHloFunction& function,
                                          Literal result);

// Evaluates every check of `function` against its `outputs`.
std::vector<CheckResult> EvaluateChecks(const StableHloFunction& function,
                                        const std::vector<Literal>& outputs);

// "function: check.expect_eq at file:line:column: max error 3 (detail)".
std::string DescribeCheckResult(const CheckResult& result);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_CHECK_EVALUATOR_H_
