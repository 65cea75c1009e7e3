// A test assertion found in a StableHLO program: the check dialect
// (check.expect_eq, check.expect_almost_eq, check.expect_close, ...) or a
// JAX-style stablehlo.custom_call @check.*. The front end turns the checked
// values into extra outputs of the function, so any backend that runs the
// module produces what the checks need; a CheckSpec says which outputs to
// compare and how (see check_evaluator.h).
#ifndef POLYHAL_CORE_FRONTEND_CHECK_SPEC_H_
#define POLYHAL_CORE_FRONTEND_CHECK_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/hlo/literal.h"

namespace phal {

enum class CheckKind {
  // Every element equal: integers and booleans by value, floating-point
  // and complex values bit for bit (so NaN equals the same NaN).
  kEqual,
  // Floating-point or complex elements within `tolerance` of each other
  // (absolute difference, per component for complex); NaN matches NaN and
  // infinities must be equal. Integers and booleans must be equal.
  kAlmostEqual,
  // min_ulp_difference <= ulp distance <= max_ulp_difference for finite
  // values; a non-finite value matches only a bitwise-equal value or, for
  // NaN, any NaN.
  kClose,
  // A check that cannot run here (check.expect_serialized_eq needs probe
  // files); it is reported as skipped, never as failed.
  kSkipped,
};

// StableHLO's defaults for the check dialect (stablehlo/tests/CheckOps.td).
inline constexpr double kDefaultAlmostEqualTolerance = 1e-4;
inline constexpr uint64_t kDefaultMaxUlpDifference = 1;
// The check custom calls JAX's test data uses take no attributes; the
// StableHLO project's interpreter driver (stablehlo-translate --interpret)
// gives them their own bounds: @check.expect_close 0 to 3 ulp,
// @check.expect_almost_eq 1e-3, and @check.eq on floating-point or complex
// values 1e-4 (exact on integers).
inline constexpr uint64_t kCustomCallMaxUlpDifference = 3;
inline constexpr double kCustomCallAlmostEqualTolerance = 1e-3;

struct CheckSpec {
  CheckKind kind = CheckKind::kEqual;
  // The op as written: "check.expect_eq_const", "custom_call @check.eq".
  std::string op_name;
  std::string function;  // the function holding the check
  std::string location;  // "file:line:column"
  // Index of the checked value among the function's outputs.
  int64_t actual_output = -1;
  // The expected value: another output, or a constant when this is -1.
  int64_t expected_output = -1;
  std::optional<Literal> expected;
  double tolerance = kDefaultAlmostEqualTolerance;
  uint64_t min_ulp_difference = 0;
  uint64_t max_ulp_difference = kDefaultMaxUlpDifference;
  std::string skip_reason;  // kSkipped only
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_CHECK_SPEC_H_
