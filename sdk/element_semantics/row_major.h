// Walking the index space of a dense array in row-major order, the order
// in which StableHLO's reference visits elements and sums taps.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_ROW_MAJOR_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_ROW_MAJOR_H_

#include <cstdint>
#include <span>
#include <vector>

namespace phal::element_semantics {

// Product of `dims` (1 for a scalar).
inline int64_t ElementCount(std::span<const int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

// Advances `index` to the next index of `dims` in row-major order; returns
// false after the last one (and leaves `index` all zero).
inline bool NextIndex(std::span<const int64_t> dims,
                      std::vector<int64_t>& index) {
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_ROW_MAJOR_H_
