// How the suite fills one parameter of a numeric case. Inputs are a pure
// function of (shape, spec, seed), so every run of a case, on every device
// and in every process, sees the same bytes.
#ifndef POLYHAL_CONFORMANCE_CASES_INPUT_SPEC_H_
#define POLYHAL_CONFORMANCE_CASES_INPUT_SPEC_H_

#include <cstdint>

#include "core/hlo/literal.h"
#include "core/hlo/shape.h"

namespace phal::conformance {

enum class ValueClass {
  // Floats uniform in [low, high); integers: half small (|x| <= 20, or
  // 0..20 unsigned), half over the whole range; pred 0 or 1; complex
  // numbers with both parts uniform in [low, high).
  kRandom,
  // The element type's edge values (edge_values.h) in a fixed order. With
  // edge_phase k, element i holds edges[(i / E^k) % E], so two parameters
  // with phases 0 and 1 over E*E elements meet every pair.
  kEdge,
  // Integers uniform in [low, high]: indices, start offsets, selectors.
  kIndex,
};

struct InputSpec {
  ValueClass values = ValueClass::kRandom;
  double low = -4;
  double high = 4;
  int edge_phase = 0;
};

inline InputSpec RandomValues(double low = -4, double high = 4) {
  return {ValueClass::kRandom, low, high, 0};
}
inline InputSpec EdgeValues(int phase = 0) {
  return {ValueClass::kEdge, 0, 0, phase};
}
inline InputSpec IndexValues(int64_t low, int64_t high) {
  return {ValueClass::kIndex, static_cast<double>(low),
          static_cast<double>(high), 0};
}

// A deterministic array of `shape` filled as `spec` says.
Literal MakeInput(const Shape& shape, const InputSpec& spec, uint64_t seed);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_INPUT_SPEC_H_
