#include "core/hlo/tile_assignment.h"

#include "core/hlo/shape.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <numeric>

namespace phal {
namespace {

// The product of `dimensions`, or an error when one is not positive or the
// product overflows a bound far above any real device count.
StatusOr<int64_t> DeviceCountOf(const std::vector<int64_t>& dimensions,
                                const std::string& what) {
  constexpr int64_t kMaxDevices = int64_t{1} << 32;
  int64_t count = 1;
  for (int64_t dimension : dimensions) {
    if (dimension <= 0) {
      return InvalidArgument(what + " [" + JoinInts(dimensions) +
                             "] has a dimension that is not positive");
    }
    if (count > kMaxDevices / dimension) {
      return InvalidArgument(what + " [" + JoinInts(dimensions) +
                             "] names too many devices");
    }
    count *= dimension;
  }
  return count;
}

bool IsPermutation(const std::vector<int64_t>& values, std::size_t size) {
  if (values.size() != size) return false;
  std::vector<bool> seen(size, false);
  for (int64_t value : values) {
    if (value < 0 || static_cast<std::size_t>(value) >= size ||
        seen[static_cast<std::size_t>(value)]) {
      return false;
    }
    seen[static_cast<std::size_t>(value)] = true;
  }
  return true;
}

}  // namespace

StatusOr<TileAssignment> TileAssignment::Explicit(
    std::vector<int64_t> dimensions, std::vector<int64_t> devices) {
  PHAL_ASSIGN_OR_RETURN(int64_t count,
                        DeviceCountOf(dimensions, "the tile assignment"));
  if (static_cast<int64_t>(devices.size()) != count) {
    return InvalidArgument("the tile assignment [" + JoinInts(dimensions) +
                           "] needs " + std::to_string(count) +
                           " devices, the list has " +
                           std::to_string(devices.size()));
  }
  TileAssignment assignment;
  assignment.dimensions_ = std::move(dimensions);
  assignment.devices_ = std::move(devices);
  return assignment;
}

StatusOr<TileAssignment> TileAssignment::Iota(
    std::vector<int64_t> dimensions, std::vector<int64_t> reshape_dimensions,
    std::vector<int64_t> transpose) {
  PHAL_ASSIGN_OR_RETURN(int64_t count,
                        DeviceCountOf(dimensions, "the tile assignment"));
  PHAL_ASSIGN_OR_RETURN(int64_t reshape_count,
                        DeviceCountOf(reshape_dimensions, "the iota reshape"));
  if (count != reshape_count) {
    return InvalidArgument(
        "the iota [" + JoinInts(reshape_dimensions) + "] has " +
        std::to_string(reshape_count) + " devices, the tile assignment [" +
        JoinInts(dimensions) + "] needs " + std::to_string(count));
  }
  if (!transpose.empty() &&
      !IsPermutation(transpose, reshape_dimensions.size())) {
    return InvalidArgument(
        "T(" + JoinInts(transpose) + ") is not a permutation of the " +
        std::to_string(reshape_dimensions.size()) + " iota dimensions");
  }
  // Row-major strides of the reshaped iota, read in transposed order.
  const std::size_t rank = reshape_dimensions.size();
  std::vector<int64_t> order = transpose;
  if (order.empty()) {
    order.resize(rank);
    std::iota(order.begin(), order.end(), 0);
  }
  std::vector<int64_t> strides(rank, 1);
  for (std::size_t i = rank; i-- > 1;) {
    strides[i - 1] = strides[i] * reshape_dimensions[i];
  }
  std::vector<int64_t> devices;
  devices.reserve(static_cast<std::size_t>(count));
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t device = 0;
    for (std::size_t i = 0; i < rank; ++i) {
      device += index[i] * strides[static_cast<std::size_t>(order[i])];
    }
    devices.push_back(device);
    for (std::size_t i = rank; i-- > 0;) {
      const int64_t size =
          reshape_dimensions[static_cast<std::size_t>(order[i])];
      if (++index[i] < size) break;
      index[i] = 0;
    }
  }
  TileAssignment assignment;
  assignment.dimensions_ = std::move(dimensions);
  assignment.devices_ = std::move(devices);
  assignment.is_iota_ = true;
  assignment.reshape_dimensions_ = std::move(reshape_dimensions);
  assignment.transpose_ = std::move(transpose);
  return assignment;
}

std::string TileAssignment::ToString() const {
  std::string text = "[" + JoinInts(dimensions_) + "]";
  if (!is_iota_) return text + JoinInts(devices_);
  text += "<=[" + JoinInts(reshape_dimensions_) + "]";
  if (!transpose_.empty()) text += "T(" + JoinInts(transpose_) + ")";
  return text;
}

bool TileAssignment::operator==(const TileAssignment& other) const {
  return dimensions_ == other.dimensions_ && devices_ == other.devices_ &&
         is_iota_ == other.is_iota_ &&
         reshape_dimensions_ == other.reshape_dimensions_ &&
         transpose_ == other.transpose_;
}

StatusOr<TileAssignment> ReadIotaTail(TextCursor& cursor,
                                      std::vector<int64_t> dimensions) {
  const std::size_t start = cursor.position();
  if (!cursor.TryConsume('<') || !cursor.TryConsume('=')) {
    return cursor.Error("expected '<=' and the iota dimensions");
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> reshape,
                        cursor.ReadIntList('[', ']', "the iota dimensions"));
  std::vector<int64_t> transpose;
  if (cursor.TryConsumeWord("T")) {
    PHAL_ASSIGN_OR_RETURN(transpose,
                          cursor.ReadIntList('(', ')', "the iota transpose"));
  }
  StatusOr<TileAssignment> iota = TileAssignment::Iota(
      std::move(dimensions), std::move(reshape), std::move(transpose));
  if (!iota.ok()) return cursor.ErrorAt(start, iota.status().message());
  return iota;
}

StatusOr<TileAssignment> ReadTileAssignment(TextCursor& cursor) {
  cursor.SkipSpaces();
  const std::size_t start = cursor.position();
  PHAL_ASSIGN_OR_RETURN(
      std::vector<int64_t> dimensions,
      cursor.ReadIntList('[', ']', "the tile assignment dimensions"));
  if (cursor.Peek() == '<') return ReadIotaTail(cursor, std::move(dimensions));
  std::vector<int64_t> devices;
  do {
    PHAL_ASSIGN_OR_RETURN(int64_t device, cursor.ReadInt("a device id"));
    devices.push_back(device);
    // A ',' continues the list only when a device id follows it: the list
    // may be the last thing before the next attribute.
    const std::size_t comma = cursor.position();
    if (!cursor.TryConsume(',')) break;
    const char next = cursor.Peek();
    if (!std::isdigit(static_cast<unsigned char>(next))) {
      cursor.set_position(comma);
      break;
    }
  } while (true);
  StatusOr<TileAssignment> assignment =
      TileAssignment::Explicit(std::move(dimensions), std::move(devices));
  if (!assignment.ok()) {
    return cursor.ErrorAt(start, assignment.status().message());
  }
  return assignment;
}

}  // namespace phal
