// The values where implementations disagree most: NaN, infinities, signed
// zeros, subnormals, the largest and smallest normal numbers, integer
// extremes and shift amounts around the bit width.
#ifndef POLYHAL_CONFORMANCE_CASES_EDGE_VALUES_H_
#define POLYHAL_CONFORMANCE_CASES_EDGE_VALUES_H_

#include <complex>
#include <cstdint>
#include <vector>

#include "core/hlo/shape.h"

namespace phal::conformance {

// Edge values of a real float type, exactly representable in it.
std::vector<double> FloatEdgeValues(ElementType type);
// Edge values of an integer type as two's-complement bit patterns
// (unsigned values above INT64_MAX wrap), or 0 and 1 for pred.
std::vector<int64_t> IntegerEdgeValues(ElementType type);
// Edge values of a complex type: pairs of its component's edge values.
std::vector<std::complex<double>> ComplexEdgeValues(ElementType type);
// How many edge values `type` has (E in input_spec.h).
int64_t EdgeValueCount(ElementType type);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_EDGE_VALUES_H_
