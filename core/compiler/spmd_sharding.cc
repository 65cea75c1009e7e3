#include "core/compiler/spmd_sharding.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace phal {
namespace {

std::vector<int64_t> PrimeFactors(int64_t n) {
  std::vector<int64_t> factors;
  for (int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  return factors;
}

// The device at tile position `position` (row-major over `tile_dims`) when
// tile dimension j is cut over `groups[j]`.
int64_t DeviceOfTile(const SpmdMesh& mesh, const std::vector<int64_t>& strides,
                     const std::vector<int64_t>& tile_dims,
                     const std::vector<std::vector<int>>& groups,
                     int64_t position) {
  int64_t device = 0;
  for (std::size_t j = tile_dims.size(); j-- > 0;) {
    int64_t coordinate = position % tile_dims[j];
    position /= tile_dims[j];
    for (std::size_t a = groups[j].size(); a-- > 0;) {
      const int axis = groups[j][a];
      const int64_t size = mesh.axis_size(axis);
      device += (coordinate % size) * strides[static_cast<std::size_t>(axis)];
      coordinate /= size;
    }
  }
  return device;
}

// `order` cut greedily into consecutive groups whose sizes are the tile
// dimensions, if it can be and the devices agree with `tiles`.
std::optional<std::vector<std::vector<int>>> GroupAxes(
    const SpmdMesh& mesh, const std::vector<int64_t>& strides,
    const TileAssignment& tiles, const std::vector<int>& order) {
  const std::vector<int64_t>& tile_dims = tiles.dimensions();
  std::vector<std::vector<int>> groups(tile_dims.size());
  std::size_t next = 0;
  for (std::size_t j = 0; j < tile_dims.size(); ++j) {
    int64_t product = 1;
    while (product < tile_dims[j] && next < order.size()) {
      product *= mesh.axis_size(order[next]);
      groups[j].push_back(order[next++]);
    }
    if (product != tile_dims[j]) return std::nullopt;
  }
  if (next != order.size()) return std::nullopt;
  for (int64_t position = 0; position < tiles.device_count(); ++position) {
    if (DeviceOfTile(mesh, strides, tile_dims, groups, position) !=
        tiles.device(position)) {
      return std::nullopt;
    }
  }
  return groups;
}

// The axes order an iota tile assignment stands for: each reshape
// dimension's prime factors (ascending) as consecutive mesh axes, taken in
// the transposed order. Empty when the reshape dimensions do not line up
// with the mesh's axes.
std::vector<int> IotaAxisOrder(const SpmdMesh& mesh,
                               const TileAssignment& tiles) {
  std::vector<std::vector<int>> per_dimension;
  int next = 0;
  for (int64_t size : tiles.reshape_dimensions()) {
    std::vector<int>& axes = per_dimension.emplace_back();
    for (int64_t factor : PrimeFactors(size)) {
      if (next >= mesh.axis_count() || mesh.axis_size(next) != factor) {
        return {};
      }
      axes.push_back(next++);
    }
  }
  if (next != mesh.axis_count()) return {};
  std::vector<int> order;
  std::vector<int64_t> transpose = tiles.transpose();
  if (transpose.empty()) {
    transpose.resize(per_dimension.size());
    std::iota(transpose.begin(), transpose.end(), 0);
  }
  for (int64_t dimension : transpose) {
    const std::vector<int>& axes =
        per_dimension[static_cast<std::size_t>(dimension)];
    order.insert(order.end(), axes.begin(), axes.end());
  }
  return order;
}

std::optional<std::vector<std::vector<int>>> MatchTiles(
    const SpmdMesh& mesh, const TileAssignment& tiles) {
  if (tiles.device_count() != mesh.device_count()) return std::nullopt;
  std::vector<int64_t> strides(static_cast<std::size_t>(mesh.axis_count()));
  int64_t stride = 1;
  for (int axis = mesh.axis_count(); axis-- > 0;) {
    strides[static_cast<std::size_t>(axis)] = stride;
    stride *= mesh.axis_size(axis);
  }
  if (tiles.is_iota()) {
    std::vector<int> order = IotaAxisOrder(mesh, tiles);
    if (!order.empty() || mesh.axis_count() == 0) {
      auto groups = GroupAxes(mesh, strides, tiles, order);
      if (groups.has_value()) return groups;
    }
  }
  // Search every order of the axes (few: meshes of up to 128 devices have
  // at most seven axes).
  if (mesh.axis_count() > 7) return std::nullopt;
  std::vector<int> order(static_cast<std::size_t>(mesh.axis_count()));
  std::iota(order.begin(), order.end(), 0);
  do {
    auto groups = GroupAxes(mesh, strides, tiles, order);
    if (groups.has_value()) return groups;
  } while (std::next_permutation(order.begin(), order.end()));
  return std::nullopt;
}

}  // namespace

SpmdMesh::SpmdMesh(std::vector<int64_t> axis_sizes)
    : axis_sizes_(std::move(axis_sizes)) {
  strides_.resize(axis_sizes_.size());
  for (std::size_t axis = axis_sizes_.size(); axis-- > 0;) {
    strides_[axis] = device_count_;
    device_count_ *= axis_sizes_[axis];
  }
}

std::vector<SpmdMesh> SpmdMesh::Candidates(int64_t device_count) {
  std::vector<int64_t> factors = PrimeFactors(device_count);
  std::vector<SpmdMesh> meshes;
  do {
    meshes.emplace_back(factors);
  } while (std::next_permutation(factors.begin(), factors.end()));
  return meshes;
}

int64_t SpmdMesh::Size(const std::vector<int>& axes) const {
  int64_t size = 1;
  for (int axis : axes) size *= axis_size(axis);
  return size;
}

int64_t SpmdMesh::Coordinate(int64_t device, int axis) const {
  return (device / strides_[static_cast<std::size_t>(axis)]) % axis_size(axis);
}

int64_t SpmdMesh::TileIndex(int64_t device,
                            const std::vector<int>& axes) const {
  int64_t index = 0;
  for (int axis : axes)
    index = index * axis_size(axis) + Coordinate(device, axis);
  return index;
}

std::vector<std::vector<int64_t>> SpmdMesh::Groups(
    const std::vector<int>& axes) const {
  std::map<int64_t, std::size_t> group_of_rest;
  std::vector<std::vector<int64_t>> groups;
  const int64_t size = Size(axes);
  for (int64_t device = 0; device < device_count_; ++device) {
    int64_t rest = device;
    for (int axis : axes) {
      rest -=
          Coordinate(device, axis) * strides_[static_cast<std::size_t>(axis)];
    }
    auto [found, added] = group_of_rest.emplace(rest, groups.size());
    if (added) groups.emplace_back(static_cast<std::size_t>(size), 0);
    groups[found->second][static_cast<std::size_t>(TileIndex(device, axes))] =
        device;
  }
  return groups;
}

std::string SpmdMesh::ToString() const {
  std::string text = "[";
  for (std::size_t i = 0; i < axis_sizes_.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(axis_sizes_[i]);
  }
  return text + "]";
}

bool SpmdSharding::IsReplicated() const {
  if (!partial.empty()) return false;
  for (const std::vector<int>& axes : dims) {
    if (!axes.empty()) return false;
  }
  return true;
}

std::vector<int> SpmdSharding::UsedAxes() const {
  std::vector<int> used = partial;
  for (const std::vector<int>& axes : dims) {
    used.insert(used.end(), axes.begin(), axes.end());
  }
  std::sort(used.begin(), used.end());
  return used;
}

int64_t SpmdSharding::TileCount(const SpmdMesh& mesh) const {
  int64_t count = 1;
  for (const std::vector<int>& axes : dims) count *= mesh.Size(axes);
  return count;
}

std::string SpmdSharding::ToString() const {
  const auto list = [](const std::vector<int>& axes) {
    std::string text;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      if (i > 0) text += ",";
      text += std::to_string(axes[i]);
    }
    return text;
  };
  std::string text = "{";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d > 0) text += ",";
    text += "[" + list(dims[d]) + "]";
  }
  text += "}";
  if (!partial.empty()) {
    text += " partial-" + std::string(HloOpcodeName(partial_op)) + "{" +
            list(partial) + "}";
  }
  return text;
}

std::optional<SpmdSharding> SpmdShardingFromHlo(const HloSharding& sharding,
                                                int64_t rank,
                                                const SpmdMesh& mesh) {
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
    case HloSharding::Kind::kMaximal:
      return SpmdSharding::Replicated(rank);
    case HloSharding::Kind::kTiled:
      break;
    default:
      return std::nullopt;
  }
  if (sharding.TiledDataRank() != rank) return std::nullopt;
  const TileAssignment& tiles = sharding.tile_assignment();
  auto groups = MatchTiles(mesh, tiles);
  if (!groups.has_value()) return std::nullopt;
  SpmdSharding result;
  result.dims.assign(groups->begin(), groups->begin() + rank);
  const std::vector<HloSharding::Subgroup>& subgroups =
      sharding.last_tile_dims();
  const std::size_t first_subgroup =
      tiles.dimensions().size() - subgroups.size();
  for (std::size_t i = 0; i < subgroups.size(); ++i) {
    const std::vector<int>& axes = (*groups)[first_subgroup + i];
    switch (subgroups[i]) {
      case HloSharding::Subgroup::kReplicated:
        break;
      case HloSharding::Subgroup::kUnreduced:
        result.partial.insert(result.partial.end(), axes.begin(), axes.end());
        break;
      default:
        return std::nullopt;
    }
  }
  std::sort(result.partial.begin(), result.partial.end());
  return result;
}

HloSharding SpmdShardingToHlo(const SpmdSharding& sharding,
                              const SpmdMesh& mesh) {
  if (sharding.IsReplicated()) return HloSharding::Replicated();
  const std::vector<int> used = sharding.UsedAxes();
  std::vector<int> rest;
  for (int axis = 0; axis < mesh.axis_count(); ++axis) {
    if (!std::binary_search(used.begin(), used.end(), axis)) {
      rest.push_back(axis);
    }
  }
  std::vector<std::vector<int>> groups = sharding.dims;
  std::vector<int64_t> tile_dims;
  for (const std::vector<int>& axes : groups) {
    tile_dims.push_back(mesh.Size(axes));
  }
  if (!rest.empty()) {
    groups.push_back(rest);
    tile_dims.push_back(mesh.Size(rest));
  }
  std::vector<int64_t> strides(static_cast<std::size_t>(mesh.axis_count()));
  int64_t stride = 1;
  for (int axis = mesh.axis_count(); axis-- > 0;) {
    strides[static_cast<std::size_t>(axis)] = stride;
    stride *= mesh.axis_size(axis);
  }
  std::vector<int64_t> devices;
  for (int64_t position = 0; position < mesh.device_count(); ++position) {
    devices.push_back(DeviceOfTile(mesh, strides, tile_dims, groups, position));
  }
  StatusOr<TileAssignment> tiles =
      TileAssignment::Explicit(tile_dims, std::move(devices));
  return HloSharding::Tiled(*std::move(tiles), !rest.empty());
}

SpmdSharding FitSharding(SpmdSharding sharding, const Shape& shape,
                         const SpmdMesh& mesh) {
  for (std::size_t d = 0; d < sharding.dims.size(); ++d) {
    std::vector<int>& axes = sharding.dims[d];
    while (!axes.empty() &&
           shape.dim(static_cast<int64_t>(d)) % mesh.Size(axes) != 0) {
      axes.pop_back();
    }
  }
  return sharding;
}

Shape LocalShape(const Shape& global, const SpmdSharding& sharding,
                 const SpmdMesh& mesh) {
  Shape local = global;
  for (std::size_t d = 0; d < sharding.dims.size(); ++d) {
    local.mutable_dims()[d] /= mesh.Size(sharding.dims[d]);
  }
  return local;
}

}  // namespace phal
