// A tile assignment: an array of device ids, as XLA writes it in shardings
// ("devices=[2,2]0,1,2,3"), compactly as an iota ("[2,2]<=[4]",
// "[2,2]<=[2,2]T(1,0)") and in replica groups ("[2,2]<=[4]": one row per
// group). The value keeps the form it was written in, so that it prints back
// the same way, and the devices it stands for.
#ifndef POLYHAL_CORE_HLO_TILE_ASSIGNMENT_H_
#define POLYHAL_CORE_HLO_TILE_ASSIGNMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/text_cursor.h"
#include "sdk/base/status.h"

namespace phal {

class TileAssignment {
 public:
  TileAssignment() = default;

  // `devices` listed row-major over `dimensions`; their count must be the
  // product of the dimensions.
  static StatusOr<TileAssignment> Explicit(std::vector<int64_t> dimensions,
                                           std::vector<int64_t> devices);
  // The devices 0..n-1 laid out as `reshape_dimensions` (row-major),
  // transposed by `transpose` (result dimension i is dimension transpose[i];
  // empty for none) and read row-major into `dimensions`. Both dimension
  // lists must hold n elements in all.
  static StatusOr<TileAssignment> Iota(std::vector<int64_t> dimensions,
                                       std::vector<int64_t> reshape_dimensions,
                                       std::vector<int64_t> transpose = {});

  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  // The device ids, row-major over dimensions().
  const std::vector<int64_t>& devices() const { return devices_; }
  int64_t device_count() const { return static_cast<int64_t>(devices_.size()); }
  // The device at row-major position `index`.
  int64_t device(int64_t index) const {
    return devices_[static_cast<std::size_t>(index)];
  }

  bool is_iota() const { return is_iota_; }
  const std::vector<int64_t>& reshape_dimensions() const {
    return reshape_dimensions_;
  }
  const std::vector<int64_t>& transpose() const { return transpose_; }

  // "[2,2]<=[4]", "[2,2]<=[2,2]T(1,0)" or "[2,1]0,1", as written.
  std::string ToString() const;

  bool operator==(const TileAssignment& other) const;
  bool operator!=(const TileAssignment& other) const {
    return !(*this == other);
  }

 private:
  std::vector<int64_t> dimensions_;
  std::vector<int64_t> devices_;
  bool is_iota_ = false;
  std::vector<int64_t> reshape_dimensions_;
  std::vector<int64_t> transpose_;
};

// Reads what TileAssignment::ToString() writes, from `cursor`.
StatusOr<TileAssignment> ReadTileAssignment(TextCursor& cursor);

// Reads the iota part "<=[4]" or "<=[2,2]T(1,0)" that follows `dimensions`.
StatusOr<TileAssignment> ReadIotaTail(TextCursor& cursor,
                                      std::vector<int64_t> dimensions);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_TILE_ASSIGNMENT_H_
