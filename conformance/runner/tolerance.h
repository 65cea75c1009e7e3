// The tolerance policy: how close a plugin's result must be to the
// reference interpreter's.
//
//   exact         integers, booleans, data movement, ops IEEE 754 rounds
//                 correctly (add, multiply, ...): the same bits, except that
//                 every NaN matches every NaN.
//   ulp N         elementwise float ops with an approximation (exp, tanh,
//                 ...): at most N units in the last place of the result
//                 type apart; +0 and -0 are 0 ulp apart.
//   accumulation  reduce, dot, convolution, batch norm: per element, the
//   over N terms  relative error, or the absolute error divided by the
//                 result's scale S (its largest finite magnitude, at least
//                 1), is at most (N + 2) eps of the result type (of the
//                 component for complex). Measuring near-zero elements
//                 against S keeps cancellation in a sum from failing a
//                 plugin that merely adds in another order.
//
// Under every bound NaN must meet NaN, an infinity must meet the same
// infinity, and a finite expected value must meet a finite one. Under the
// ulp and accumulation bounds a complex value with a non-finite part meets
// any complex value with a non-finite part (Annex G infinity recovery and
// intermediate width are implementation choices).
#ifndef POLYHAL_CONFORMANCE_RUNNER_TOLERANCE_H_
#define POLYHAL_CONFORMANCE_RUNNER_TOLERANCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/literal.h"

namespace phal::conformance {

enum class ToleranceKind { kExact, kUlp, kAccumulation };

struct ToleranceSpec {
  ToleranceKind kind = ToleranceKind::kExact;
  int ulps = 0;                     // kUlp
  int64_t accumulation_length = 1;  // kAccumulation: terms per element
};

inline ToleranceSpec Exact() { return {ToleranceKind::kExact, 0, 1}; }
inline ToleranceSpec Ulps(int ulps) { return {ToleranceKind::kUlp, ulps, 1}; }
inline ToleranceSpec Accumulation(int64_t length) {
  return {ToleranceKind::kAccumulation, 0, length};
}

// One element where the plugin's result differs from the reference's.
struct ElementMismatch {
  int64_t output = 0;    // leaf index of the result
  int64_t index = 0;     // row-major linear index
  std::string position;  // "[2,3]"
  std::string expected;
  std::string actual;
  std::string error;  // "17 ulp", "abs 3e-05 rel 1e-02", "bits differ"
  // The inputs at the same position, one per parameter of the result's
  // shape ("" for parameters of another shape); filled by the runner.
  std::vector<std::string> inputs;
};

struct Comparison {
  bool passed = true;
  // The bound in words: "exact", "4 ulp", "abs or rel 2.4e-05".
  std::string bound;
  // The worst error seen, in the bound's unit: differing elements for
  // exact, ulps for ulp, min(abs / S, rel) for accumulation. A NaN or
  // infinity mismatch makes it infinite.
  double error = 0;
  // Why it failed when the shapes themselves differ; "" otherwise.
  std::string message;
  // Up to kMaxMismatches failing elements, worst first.
  std::vector<ElementMismatch> worst;
};

inline constexpr std::size_t kMaxMismatches = 8;

// Compares the result leaves of one run with the reference's.
Comparison CompareResults(const std::vector<const Literal*>& expected,
                          const std::vector<const Literal*>& actual,
                          const ToleranceSpec& tolerance);

// The bound's text for `tolerance` on results of `type`.
std::string DescribeBound(const ToleranceSpec& tolerance, ElementType type);

// Element `index` of `literal` as text: "1.5", "-inf", "nan", "-3",
// "(1+2j)", "true".
std::string FormatElement(const Literal& literal, int64_t index);

// "[i,j,...]" of row-major linear `index` in `dims`.
std::string FormatPosition(const std::vector<int64_t>& dims, int64_t index);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_TOLERANCE_H_
