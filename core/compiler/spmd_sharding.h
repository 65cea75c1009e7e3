// The SPMD partitioner's form of a sharding. The devices of a program are a
// mesh of axes, and a sharding says, per array dimension, which mesh axes
// split it (major to minor), and over which axes the value is still a
// partial result to be combined (the partial sums of a dot whose
// contracting dimension is split). Every mesh axis a sharding does not
// name replicates the value.
//
// The mesh's axes have prime sizes (2, 2 for four devices; 2, 3 or 3, 2 for
// six), and device d sits at row-major mesh position d. Any tiling XLA
// writes (`{devices=[2,1,2]<=[4] last_tile_dim_replicate}`,
// `{devices=[2,2]<=[2,2]T(1,0)}`, explicit lists) and any Shardy sharding
// over a named mesh is then a choice of axes per tile dimension;
// SpmdShardingFromHlo finds it. A named Shardy axis of size 4 is two mesh
// axes of size 2 here: the partitioner never needs the names.
#ifndef POLYHAL_CORE_COMPILER_SPMD_SHARDING_H_
#define POLYHAL_CORE_COMPILER_SPMD_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/opcode.h"
#include "core/hlo/shape.h"
#include "core/hlo/sharding.h"

namespace phal {

class SpmdMesh {
 public:
  SpmdMesh() = default;
  explicit SpmdMesh(std::vector<int64_t> axis_sizes);
  // The prime factors of `device_count`, in each distinct order (ascending
  // first): the meshes a program on that many devices may use.
  static std::vector<SpmdMesh> Candidates(int64_t device_count);

  int64_t device_count() const { return device_count_; }
  int axis_count() const { return static_cast<int>(axis_sizes_.size()); }
  int64_t axis_size(int axis) const {
    return axis_sizes_[static_cast<std::size_t>(axis)];
  }
  // The product of the sizes of `axes`.
  int64_t Size(const std::vector<int>& axes) const;
  // The coordinate of `device` along `axis`.
  int64_t Coordinate(int64_t device, int axis) const;
  // Where `device` is among the tiles `axes` cut (major to minor).
  int64_t TileIndex(int64_t device, const std::vector<int>& axes) const;
  // The devices that differ only along `axes`, one group per position of
  // the other axes (in device order), each listed by TileIndex.
  std::vector<std::vector<int64_t>> Groups(const std::vector<int>& axes) const;
  // "[2,2]".
  std::string ToString() const;

 private:
  std::vector<int64_t> axis_sizes_;
  std::vector<int64_t> strides_;
  int64_t device_count_ = 1;
};

struct SpmdSharding {
  // Per dimension, the mesh axes splitting it, major to minor.
  std::vector<std::vector<int>> dims;
  // The axes over which the value is a partial result, ascending, and how
  // the partial results combine.
  std::vector<int> partial;
  HloOpcode partial_op = HloOpcode::kAdd;

  static SpmdSharding Replicated(int64_t rank) {
    SpmdSharding sharding;
    sharding.dims.resize(static_cast<std::size_t>(rank));
    return sharding;
  }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  // No dimension split and nothing partial.
  bool IsReplicated() const;
  // The axes the dimensions use, and the partial ones.
  std::vector<int> UsedAxes() const;
  // How many devices hold distinct pieces (the product of the split axes).
  int64_t TileCount(const SpmdMesh& mesh) const;
  // "{[0,1],[]}" with " partial-add{2}" when partial.
  std::string ToString() const;
  bool operator==(const SpmdSharding& other) const {
    return dims == other.dims && partial == other.partial &&
           (partial.empty() || partial_op == other.partial_op);
  }
  bool operator!=(const SpmdSharding& other) const { return !(*this == other); }
};

// The sharding `sharding` gives an array of rank `rank` on `mesh`; nullopt
// when it cannot be expressed there (manual subgroups, unknown, a tiling
// no choice of axes reproduces). Replicated and maximal shardings are
// replicated (a maximal value is valid on every device).
std::optional<SpmdSharding> SpmdShardingFromHlo(const HloSharding& sharding,
                                                int64_t rank,
                                                const SpmdMesh& mesh);

// The HloSharding of `sharding` (which must have nothing partial): a tiled
// sharding with an explicit device list, replicated on a last tile
// dimension over the axes no dimension uses, or {replicated}.
HloSharding SpmdShardingToHlo(const SpmdSharding& sharding,
                              const SpmdMesh& mesh);

// `sharding` with the minor axes of each dimension dropped until the
// dimension's size divides evenly among its tiles: the partitioner splits
// only evenly, so no piece needs padding.
SpmdSharding FitSharding(SpmdSharding sharding, const Shape& shape,
                         const SpmdMesh& mesh);

// The shape of one device's piece of an array of shape `global`.
Shape LocalShape(const Shape& global, const SpmdSharding& sharding,
                 const SpmdMesh& mesh);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_SPMD_SHARDING_H_
