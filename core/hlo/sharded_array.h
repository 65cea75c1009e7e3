// Global arrays and their per-device pieces under an HloSharding: what a
// runtime splits a program's global arguments into before it runs the
// per-device program on each device, and what it assembles the devices'
// results back from. Devices are the ids a sharding names (partition ids of
// an SPMD program with one replica).
//
// A tiled sharding cuts dimension i of the global array into
// tile_assignment().dimensions()[i] tiles of ceil(global / tiles) elements
// each, as XLA does; the last tiles are zero-padded where the dimension does
// not divide evenly. The device at position (t0, t1, ..., r...) of the tile
// assignment holds tile (t0, t1, ...); the trailing replication and subgroup
// dimensions give copies of the same tile. A replicated, manual or maximal
// sharding gives every device the whole array.
#ifndef POLYHAL_CORE_HLO_SHARDED_ARRAY_H_
#define POLYHAL_CORE_HLO_SHARDED_ARRAY_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/shape.h"
#include "core/hlo/sharding.h"
#include "sdk/base/status.h"

namespace phal {

// The shape of the global array whose per-device pieces have shape `local`
// under `sharding`: each dimension times its tile count (tiled), or `local`
// itself (replicated, manual, maximal). Where the global array was padded to
// a multiple of the tile count, this is the padded shape. Errors for tuple
// shapes or shardings, unknown and unreduced shardings, and a tiled sharding
// that splits another number of dimensions than `local` has.
StatusOr<Shape> GlobalShapeOf(const Shape& local, const HloSharding& sharding);

// The piece of shape `local` of the array `global` that `device` holds
// under `sharding`, zero-padded past the end of a dimension that does not
// divide evenly. `local` must be the piece shape the sharding gives
// (ceil(global / tiles) per dimension); errors name the sharding and the
// shapes when it is not, when `device` is not among the sharding's devices,
// and for the shardings GlobalShapeOf refuses.
StatusOr<Literal> ShardOf(const Literal& global, const HloSharding& sharding,
                          int64_t device, const Shape& local);

// The array of shape `global` assembled from every device's piece,
// pieces[d] being device d's; the padding past the end of each dimension is
// dropped. A tile held by several devices (replication) is taken from the
// first of them in device order, as is a replicated or manual array; a
// maximal one is taken from its device. Errors when a piece has another
// shape or element type than the sharding gives, or when a tile's devices
// are all beyond pieces.size().
StatusOr<Literal> AssembleShards(std::span<const Literal> pieces,
                                 const HloSharding& sharding,
                                 const Shape& global);

// One sharding per array of `shape` (a tuple's arrays in order, nested
// tuples flattened), as a value of that shape carries them: the elements of
// a tuple sharding, or `sharding` itself for every array.
StatusOr<std::vector<HloSharding>> LeafShardings(const HloSharding& sharding,
                                                 const Shape& shape);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_SHARDED_ARRAY_H_
