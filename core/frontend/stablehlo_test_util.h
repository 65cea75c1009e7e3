// Test helpers for the StableHLO front end: parse a program, run one of its
// functions on the reference interpreter and read back outputs.
#ifndef POLYHAL_CORE_FRONTEND_STABLEHLO_TEST_UTIL_H_
#define POLYHAL_CORE_FRONTEND_STABLEHLO_TEST_UTIL_H_

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/check_evaluator.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/reference/interpreter.h"

namespace phal::testing {

// Parses `text` and runs `function` (the entry when empty) with `arguments`
// on the reference interpreter; the outputs are split as
// SplitFunctionOutputs splits them.
inline StatusOr<std::vector<Literal>> RunStableHlo(
    std::string_view text, const std::string& function = "",
    const std::vector<Literal>& arguments = {}) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHlo(text, "test.mlir"));
  const StableHloFunction* target = function.empty()
                                        ? program.EntryFunction()
                                        : program.FindFunction(function);
  if (target == nullptr) return NotFound("no function " + function);
  program.module->set_entry_computation(target->computation);
  PHAL_ASSIGN_OR_RETURN(Literal result, Evaluate(*program.module, arguments));
  return SplitFunctionOutputs(*target, std::move(result));
}

// Runs `text`'s entry function and evaluates its checks; returns the
// descriptions of the failed checks.
inline StatusOr<std::vector<std::string>> FailedChecks(std::string_view text) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHlo(text, "test.mlir"));
  const StableHloFunction* entry = program.EntryFunction();
  if (entry == nullptr) return NotFound("no entry function");
  PHAL_ASSIGN_OR_RETURN(Literal result, Evaluate(*program.module, {}));
  std::vector<std::string> failed;
  for (const CheckResult& check : EvaluateChecks(
           *entry, SplitFunctionOutputs(*entry, std::move(result)))) {
    if (!check.passed) failed.push_back(DescribeCheckResult(check));
  }
  return failed;
}

// The elements of an array literal as doubles.
inline std::vector<double> Values(const Literal& literal) {
  std::vector<double> values;
  for (int64_t i = 0; i < literal.ElementCount(); ++i)
    values.push_back(literal.GetAsDouble(i));
  return values;
}

// The failed checks of `text`'s entry function; a program that does not
// run fails the test and gives {"did not run"}.
inline std::vector<std::string> CheckFailures(const std::string& text) {
  StatusOr<std::vector<std::string>> failed = FailedChecks(text);
  EXPECT_TRUE(failed.ok()) << failed.status().message();
  return failed.ok() ? *failed : std::vector<std::string>{"did not run"};
}

// The values of the first output of `text`'s entry function; a program that
// does not run fails the test and gives none.
inline std::vector<double> FirstOutputValues(const std::string& text) {
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  EXPECT_TRUE(outputs.ok()) << outputs.status().message() << "\n" << text;
  if (!outputs.ok() || outputs->empty()) return {};
  return Values((*outputs)[0]);
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_FRONTEND_STABLEHLO_TEST_UTIL_H_
