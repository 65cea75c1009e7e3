// An HLO sharding: how the value of an instruction is laid out over the
// devices of an SPMD program, as XLA writes it in sharding={...}:
//   {replicated}  {manual}  {unknown}  {unreduced}  {maximal device=3}
//   {devices=[2,1]0,1}  {devices=[2,2]<=[4]}  {devices=[2,2]<=[2,2]T(1,0)}
//   {devices=[2,1,2]<=[4] last_tile_dim_replicate}
//   {devices=[2,2]<=[4] last_tile_dims={manual}}
//   {{replicated}, {devices=[2]0,1}}   (one per array of a tuple)
// with an optional " shard_as N" / " shard_like N". Metadata written inside
// a sharding is read and dropped: it names where the annotation came from
// and changes nothing.
#ifndef POLYHAL_CORE_HLO_SHARDING_H_
#define POLYHAL_CORE_HLO_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hlo/shape.h"
#include "core/hlo/text_cursor.h"
#include "core/hlo/tile_assignment.h"
#include "sdk/base/status.h"

namespace phal {

class HloSharding {
 public:
  enum class Kind {
    kReplicated,  // every device holds the whole value
    kManual,      // the program already works on per-device values
    kUnknown,     // to be decided by propagation
    kUnreduced,   // every device holds a partial value still to be summed
    kMaximal,     // one device holds the whole value
    kTiled,       // split into tiles over the devices of tile_assignment()
    kTuple,       // one sharding per tuple element
  };
  // What the trailing dimensions of a tiled sharding's tile assignment
  // mean, beyond the data dimensions: replication, manual or unreduced
  // subgroups (last_tile_dims={...}).
  enum class Subgroup { kReplicated, kManual, kUnreduced, kMaximal };
  // shard_as N / shard_like N: values of one group share their sharding.
  struct ShardGroup {
    bool shard_as = true;  // false: shard_like
    int64_t id = 0;
    bool operator==(const ShardGroup& other) const {
      return shard_as == other.shard_as && id == other.id;
    }
  };

  HloSharding() = default;  // replicated
  static HloSharding Replicated() { return HloSharding(); }
  static HloSharding Manual() { return OfKind(Kind::kManual); }
  static HloSharding Unknown() { return OfKind(Kind::kUnknown); }
  static HloSharding Unreduced() { return OfKind(Kind::kUnreduced); }
  static HloSharding Maximal(int64_t device);
  static HloSharding Tiled(TileAssignment tiles,
                           bool replicate_on_last_tile_dim = false,
                           std::vector<Subgroup> last_tile_dims = {});
  static HloSharding Tuple(std::vector<HloSharding> elements);

  Kind kind() const { return kind_; }
  bool IsTuple() const { return kind_ == Kind::kTuple; }
  // kMaximal: the device holding the value.
  int64_t device() const { return device_; }
  // kTiled: the device of each tile. Its leading dimensions split the data
  // dimensions; a last dimension replicates when
  // replicate_on_last_tile_dim(), and the last last_tile_dims().size()
  // dimensions are subgroups otherwise.
  const TileAssignment& tile_assignment() const { return tiles_; }
  bool replicate_on_last_tile_dim() const { return replicate_last_; }
  const std::vector<Subgroup>& last_tile_dims() const {
    return last_tile_dims_;
  }
  // The number of leading tile dimensions that split data dimensions.
  int64_t TiledDataRank() const;
  const std::vector<HloSharding>& tuple_elements() const { return elements_; }
  const std::optional<ShardGroup>& shard_group() const { return shard_group_; }
  void set_shard_group(std::optional<ShardGroup> group) {
    shard_group_ = group;
  }

  // The text inside sharding=..., braces included.
  std::string ToString() const;

  bool operator==(const HloSharding& other) const;
  bool operator!=(const HloSharding& other) const { return !(*this == other); }

 private:
  static HloSharding OfKind(Kind kind) {
    HloSharding sharding;
    sharding.kind_ = kind;
    return sharding;
  }

  Kind kind_ = Kind::kReplicated;
  int64_t device_ = 0;
  TileAssignment tiles_;
  bool replicate_last_ = false;
  std::vector<Subgroup> last_tile_dims_;
  std::vector<HloSharding> elements_;
  std::optional<ShardGroup> shard_group_;
};

// OK when `sharding` can annotate a value of `shape`: a tuple sharding has
// one element per array of the tuple, nested tuples flattened, as XLA
// writes it (a tuple value may also have one non-tuple sharding for all of
// them); a tiled one splits as many dimensions as the array has.
Status CheckShardingFitsShape(const HloSharding& sharding, const Shape& shape);

// Reads one sharding "{...}" from `cursor`.
StatusOr<HloSharding> ReadHloSharding(TextCursor& cursor);

// Reads a whole text that is one sharding, as in StableHLO's
// mhlo.sharding = "{devices=[2]0,1}". Errors say the byte offset in `text`.
StatusOr<HloSharding> ParseHloSharding(std::string_view text);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_SHARDING_H_
