// Literals compared as the tests of the compiler, the executor and the
// plugins compare results: leaf by leaf, bit for bit or within a relative
// tolerance.
#ifndef POLYHAL_CORE_TESTING_LITERAL_COMPARISON_H_
#define POLYHAL_CORE_TESTING_LITERAL_COMPARISON_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/hlo/literal.h"

namespace phal::testing {

// The leaves of `literal`, depth-first, appended to `out`.
inline void FlattenLiteral(const Literal& literal, std::vector<Literal>* out) {
  if (!literal.IsTuple()) {
    out->push_back(literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) {
    FlattenLiteral(element, out);
  }
}

// Equal bit for bit (any NaN matching any NaN), or for floating types
// within `tolerance` relative to max(1, |expected|).
inline ::testing::AssertionResult Matches(const Literal& actual,
                                          const Literal& expected,
                                          double tolerance) {
  if (!actual.shape().Compatible(expected.shape())) {
    return ::testing::AssertionFailure()
           << "shape " << actual.shape().ToString() << " vs "
           << expected.shape().ToString();
  }
  const ElementType type = expected.element_type();
  const bool numeric_compare = IsFloat(type) || IsComplex(type);
  for (int64_t i = 0; i < expected.ElementCount(); ++i) {
    if (!numeric_compare) {
      const std::size_t size = ElementTypeByteSize(type);
      if (std::memcmp(actual.data() + i * size, expected.data() + i * size,
                      size) != 0) {
        return ::testing::AssertionFailure()
               << "element " << i << ": " << actual.GetAsInt64(i) << " vs "
               << expected.GetAsInt64(i) << "\nactual " << actual.ToString()
               << "\nexpected " << expected.ToString();
      }
      continue;
    }
    const std::complex<double> a = actual.GetAsComplex(i);
    const std::complex<double> e = expected.GetAsComplex(i);
    for (auto [x, y] :
         {std::pair{a.real(), e.real()}, std::pair{a.imag(), e.imag()}}) {
      if (std::isnan(x) && std::isnan(y)) continue;
      if (x == y) continue;
      if (std::abs(x - y) <= tolerance * std::max(1.0, std::abs(y))) continue;
      return ::testing::AssertionFailure()
             << "element " << i << ": " << x << " vs " << y << "\nactual "
             << actual.ToString() << "\nexpected " << expected.ToString();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_LITERAL_COMPARISON_H_
