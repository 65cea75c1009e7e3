// Index arithmetic shared by the data-movement ops of the reference
// interpreter: walking every index of an array and copying elements between
// strided views without per-element allocation.
#ifndef POLYHAL_CORE_REFERENCE_STRIDED_COPY_H_
#define POLYHAL_CORE_REFERENCE_STRIDED_COPY_H_

#include <cstdint>
#include <vector>

#include "sdk/element_semantics/row_major.h"

namespace phal::reference {

// A view of elements: the element at index i is at element offset
// offset + sum(i[d] * strides[d]) of some buffer. Strides may be zero
// (broadcast) or negative (reverse).
struct StridedView {
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

// The row-major view of a dense array of `dims`.
StridedView RowMajorView(const std::vector<int64_t>& dims);

// Copies every element of the index space `dims` from `source` (laid out as
// `source_view`) to `destination` (laid out as `destination_view`); elements
// are `element_size` bytes.
void StridedCopy(const std::vector<int64_t>& dims, std::size_t element_size,
                 const uint8_t* source, const StridedView& source_view,
                 uint8_t* destination, const StridedView& destination_view);

using element_semantics::ElementCount;
using element_semantics::NextIndex;

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_STRIDED_COPY_H_
