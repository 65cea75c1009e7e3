#include "core/reference/strided_copy.h"

#include <cstring>

namespace phal::reference {
namespace {

// Copies `count` elements with fixed strides; sizes the compiler can move in
// one instruction get their own loop.
template <std::size_t kSize>
void CopyRow(int64_t count, const uint8_t* source, int64_t source_stride,
             uint8_t* destination, int64_t destination_stride) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(destination + i * destination_stride * int64_t{kSize},
                source + i * source_stride * int64_t{kSize}, kSize);
  }
}

void CopyRowOfSize(std::size_t size, int64_t count, const uint8_t* source,
                   int64_t source_stride, uint8_t* destination,
                   int64_t destination_stride) {
  using Copy = void (*)(int64_t, const uint8_t*, int64_t, uint8_t*, int64_t);
  const Copy copy = size == 1   ? CopyRow<1>
                    : size == 2 ? CopyRow<2>
                    : size == 4 ? CopyRow<4>
                    : size == 8 ? CopyRow<8>
                                : CopyRow<16>;
  copy(count, source, source_stride, destination, destination_stride);
}

}  // namespace

StridedView RowMajorView(const std::vector<int64_t>& dims) {
  StridedView view;
  view.strides.assign(dims.size(), 1);
  for (std::size_t d = dims.size(); d-- > 1;) {
    view.strides[d - 1] = view.strides[d] * dims[d];
  }
  return view;
}

void StridedCopy(const std::vector<int64_t>& dims, std::size_t element_size,
                 const uint8_t* source, const StridedView& source_view,
                 uint8_t* destination, const StridedView& destination_view) {
  if (ElementCount(dims) == 0) return;
  const auto size = static_cast<int64_t>(element_size);
  if (dims.empty()) {
    std::memcpy(destination + destination_view.offset * size,
                source + source_view.offset * size, element_size);
    return;
  }
  // The innermost dimension is copied as a row; the outer ones are walked
  // with incrementally updated offsets.
  const std::size_t rank = dims.size();
  const std::vector<int64_t> outer(dims.begin(), dims.end() - 1);
  std::vector<int64_t> index(rank - 1, 0);
  int64_t source_offset = source_view.offset;
  int64_t destination_offset = destination_view.offset;
  bool more = true;
  while (more) {
    CopyRowOfSize(element_size, dims[rank - 1], source + source_offset * size,
                  source_view.strides[rank - 1],
                  destination + destination_offset * size,
                  destination_view.strides[rank - 1]);
    more = false;
    for (std::size_t d = rank - 1; d-- > 0;) {
      source_offset += source_view.strides[d];
      destination_offset += destination_view.strides[d];
      if (++index[d] < outer[d]) {
        more = true;
        break;
      }
      source_offset -= source_view.strides[d] * outer[d];
      destination_offset -= destination_view.strides[d] * outer[d];
      index[d] = 0;
    }
  }
}

}  // namespace phal::reference
