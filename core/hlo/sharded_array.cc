#include "core/hlo/sharded_array.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <string>

#include "sdk/base/element_types.h"

namespace phal {
namespace {

using Kind = HloSharding::Kind;

// OK when `sharding` says how the array `shape` lies over the devices.
Status CheckSplittable(const HloSharding& sharding, const Shape& shape) {
  if (shape.IsTuple() || sharding.IsTuple()) {
    return InvalidArgument("the sharding " + sharding.ToString() + " of " +
                           shape.ToString() +
                           " is applied per array: take each array with its "
                           "own sharding (LeafShardings)");
  }
  if (sharding.kind() == Kind::kUnknown) {
    return InvalidArgument("the sharding " + sharding.ToString() + " of " +
                           shape.ToString() +
                           " does not say how the array lies over the devices");
  }
  if (sharding.kind() == Kind::kUnreduced) {
    return Unimplemented("the sharding " + sharding.ToString() + " of " +
                         shape.ToString() +
                         " leaves partial values to sum; only whole values "
                         "are split and assembled");
  }
  if (sharding.kind() == Kind::kTiled &&
      sharding.TiledDataRank() != shape.rank()) {
    return InvalidArgument("the sharding " + sharding.ToString() + " splits " +
                           std::to_string(sharding.TiledDataRank()) +
                           " dimensions, the array " + shape.ToString() +
                           " has " + std::to_string(shape.rank()));
  }
  return OkStatus();
}

// The number of tiles along each dimension of the array; all 1 when the
// sharding keeps the array whole.
std::vector<int64_t> TileCounts(const HloSharding& sharding, int64_t rank) {
  if (sharding.kind() != Kind::kTiled) {
    return std::vector<int64_t>(static_cast<std::size_t>(rank), 1);
  }
  const std::vector<int64_t>& dims = sharding.tile_assignment().dimensions();
  return std::vector<int64_t>(dims.begin(), dims.begin() + rank);
}

// The shape of each device's piece of an array of shape `global`.
Shape PieceShape(const Shape& global, const std::vector<int64_t>& counts) {
  Shape piece(global.element_type(), global.dims());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    piece.mutable_dims()[i] = (global.dims()[i] + counts[i] - 1) / counts[i];
  }
  return piece;
}

// The tile `device` holds: its position along the data dimensions of the
// tile assignment; all 0 when the sharding keeps the array whole. Nullopt
// when the device holds no part of the array.
std::optional<std::vector<int64_t>> TileOfDevice(const HloSharding& sharding,
                                                 int64_t device, int64_t rank) {
  if (sharding.kind() == Kind::kMaximal && sharding.device() != device) {
    return std::nullopt;
  }
  if (sharding.kind() != Kind::kTiled) {
    return std::vector<int64_t>(static_cast<std::size_t>(rank), 0);
  }
  const TileAssignment& tiles = sharding.tile_assignment();
  const auto& devices = tiles.devices();
  const auto found = std::find(devices.begin(), devices.end(), device);
  if (found == devices.end()) return std::nullopt;
  int64_t linear = found - devices.begin();
  std::vector<int64_t> position(tiles.dimensions().size());
  for (std::size_t i = position.size(); i-- > 0;) {
    position[i] = linear % tiles.dimensions()[i];
    linear /= tiles.dimensions()[i];
  }
  position.resize(static_cast<std::size_t>(rank));
  return position;
}

// Copies the block of `extent` elements at `from_origin` of `from` to
// `to_origin` of `to`; both literals have the same element type.
void CopyBlock(const Literal& from, const std::vector<int64_t>& from_origin,
               Literal& to, const std::vector<int64_t>& to_origin,
               const std::vector<int64_t>& extent) {
  for (int64_t length : extent) {
    if (length <= 0) return;
  }
  const std::size_t element_size = ElementTypeByteSize(from.element_type());
  const std::vector<int64_t> from_strides =
      RowMajorStrides(from.shape().dims());
  const std::vector<int64_t> to_strides = RowMajorStrides(to.shape().dims());
  const std::size_t rank = extent.size();
  // Rows along the last dimension are contiguous in both literals.
  const std::size_t outer = rank == 0 ? 0 : rank - 1;
  const int64_t row = rank == 0 ? 1 : extent.back();
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t from_offset = 0;
    int64_t to_offset = 0;
    for (std::size_t i = 0; i < rank; ++i) {
      from_offset += (from_origin[i] + index[i]) * from_strides[i];
      to_offset += (to_origin[i] + index[i]) * to_strides[i];
    }
    std::memcpy(
        to.data() + static_cast<std::size_t>(to_offset) * element_size,
        from.data() + static_cast<std::size_t>(from_offset) * element_size,
        static_cast<std::size_t>(row) * element_size);
    std::size_t dim = outer;
    while (true) {
      if (dim == 0) return;
      --dim;
      if (++index[dim] < extent[dim]) break;
      index[dim] = 0;
    }
  }
}

// Where a tile starts in the global array, and how much of it lies inside.
struct TileBlock {
  std::vector<int64_t> origin;
  std::vector<int64_t> extent;
};

TileBlock BlockOfTile(const std::vector<int64_t>& tile, const Shape& piece,
                      const Shape& global) {
  TileBlock block;
  for (std::size_t i = 0; i < tile.size(); ++i) {
    const int64_t origin = tile[i] * piece.dims()[i];
    block.origin.push_back(origin);
    block.extent.push_back(
        std::clamp<int64_t>(global.dims()[i] - origin, 0, piece.dims()[i]));
  }
  return block;
}

int64_t Product(const std::vector<int64_t>& values) {
  int64_t product = 1;
  for (int64_t value : values) product *= value;
  return product;
}

}  // namespace

StatusOr<Shape> GlobalShapeOf(const Shape& local, const HloSharding& sharding) {
  PHAL_RETURN_IF_ERROR(CheckSplittable(sharding, local));
  const std::vector<int64_t> counts = TileCounts(sharding, local.rank());
  Shape global(local.element_type(), local.dims());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    global.mutable_dims()[i] *= counts[i];
  }
  return global;
}

StatusOr<Literal> ShardOf(const Literal& global, const HloSharding& sharding,
                          int64_t device, const Shape& local) {
  PHAL_RETURN_IF_ERROR(CheckSplittable(sharding, global.shape()));
  const Shape expected =
      PieceShape(global.shape(), TileCounts(sharding, global.shape().rank()));
  if (!local.Compatible(expected)) {
    return InvalidArgument("the sharding " + sharding.ToString() + " splits " +
                           global.shape().ToString() + " into pieces of " +
                           expected.ToString() + ", not " + local.ToString());
  }
  const std::optional<std::vector<int64_t>> tile =
      TileOfDevice(sharding, device, global.shape().rank());
  if (!tile.has_value()) {
    return InvalidArgument("device " + std::to_string(device) +
                           " holds no piece of " + global.shape().ToString() +
                           " under the sharding " + sharding.ToString());
  }
  Literal piece(expected);
  const TileBlock block = BlockOfTile(*tile, expected, global.shape());
  CopyBlock(global, block.origin, piece,
            std::vector<int64_t>(block.origin.size(), 0), block.extent);
  return piece;
}

StatusOr<Literal> AssembleShards(std::span<const Literal> pieces,
                                 const HloSharding& sharding,
                                 const Shape& global) {
  PHAL_RETURN_IF_ERROR(CheckSplittable(sharding, global));
  const std::vector<int64_t> counts = TileCounts(sharding, global.rank());
  const Shape expected = PieceShape(global, counts);
  Literal result(global);
  std::set<std::vector<int64_t>> assembled;
  for (std::size_t device = 0; device < pieces.size(); ++device) {
    const std::optional<std::vector<int64_t>> tile =
        TileOfDevice(sharding, static_cast<int64_t>(device), global.rank());
    if (!tile.has_value() || !assembled.insert(*tile).second) continue;
    if (!pieces[device].shape().Compatible(expected)) {
      return InvalidArgument("device " + std::to_string(device) + " holds " +
                             pieces[device].shape().ToString() +
                             " where the sharding " + sharding.ToString() +
                             " of " + global.ToString() + " gives " +
                             expected.ToString());
    }
    const TileBlock block = BlockOfTile(*tile, expected, global);
    CopyBlock(pieces[device], std::vector<int64_t>(block.origin.size(), 0),
              result, block.origin, block.extent);
  }
  if (static_cast<int64_t>(assembled.size()) != Product(counts)) {
    return InvalidArgument(
        "the " + std::to_string(pieces.size()) + " pieces given hold " +
        std::to_string(assembled.size()) + " of the " +
        std::to_string(Product(counts)) + " tiles of " + global.ToString() +
        " under the sharding " + sharding.ToString());
  }
  return result;
}

StatusOr<std::vector<HloSharding>> LeafShardings(const HloSharding& sharding,
                                                 const Shape& shape) {
  PHAL_RETURN_IF_ERROR(CheckShardingFitsShape(sharding, shape));
  std::vector<const Shape*> stack = {&shape};
  int64_t leaves = 0;
  while (!stack.empty()) {
    const Shape* next = stack.back();
    stack.pop_back();
    if (!next->IsTuple()) {
      ++leaves;
      continue;
    }
    for (const Shape& element : next->tuple_shapes()) stack.push_back(&element);
  }
  if (sharding.IsTuple()) {
    if (leaves == 0) return std::vector<HloSharding>();
    return sharding.tuple_elements();
  }
  return std::vector<HloSharding>(static_cast<std::size_t>(leaves), sharding);
}

}  // namespace phal
