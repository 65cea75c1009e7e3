#include "core/frontend/sdy_sharding.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "core/frontend/mlir_lexer.h"

namespace phal {
namespace {

using Kind = MlirTokenKind;

// Reads Shardy's attribute syntax token by token from one range of the
// source.
class SdyReader {
 public:
  SdyReader(const SourceText& source, std::size_t begin, std::size_t end)
      : source_(source), lexer_(source.text(), begin, end) {
    Advance();
  }

  StatusOr<DeviceMesh> ReadMesh();
  StatusOr<SdyTensorSharding> ReadTensorSharding();
  StatusOr<std::vector<SdyTensorSharding>> ReadTensorShardings();
  StatusOr<std::vector<SdyAxis>> ReadAxisSet();
  Status ExpectEnd() {
    if (token_.Is(Kind::kEndOfFile)) return OkStatus();
    return ErrorExpected("the end of the attribute");
  }

 private:
  void Advance() { token_ = lexer_.Next(); }
  bool ConsumeIf(Kind kind) {
    if (!token_.Is(kind)) return false;
    Advance();
    return true;
  }
  Status ErrorExpected(const std::string& what) const {
    const std::string found = token_.Is(Kind::kEndOfFile)
                                  ? "the end of the attribute"
                                  : "'" + std::string(token_.text) + "'";
    return source_.ErrorAt(token_.offset,
                           "expected " + what + ", found " + found);
  }
  Status Expect(Kind kind, const std::string& what) {
    if (!ConsumeIf(kind)) return ErrorExpected(what);
    return OkStatus();
  }
  StatusOr<std::string> ReadName(const std::string& what) {
    if (!token_.Is(Kind::kString) || token_.text.size() < 2) {
      return ErrorExpected(what);
    }
    std::string name(token_.text.substr(1, token_.text.size() - 2));
    Advance();
    return name;
  }
  StatusOr<int64_t> ReadInteger(const std::string& what) {
    int64_t value = 0;
    const std::string_view text = token_.text;
    if (!token_.Is(Kind::kInteger) ||
        std::from_chars(text.data(), text.data() + text.size(), value).ptr !=
            text.data() + text.size()) {
      return ErrorExpected(what);
    }
    Advance();
    return value;
  }
  StatusOr<SdyAxis> ReadAxis();
  StatusOr<std::vector<SdyAxis>> ReadAxes(bool* open);

  const SourceText& source_;
  MlirLexer lexer_;
  MlirToken token_;
};

StatusOr<DeviceMesh> SdyReader::ReadMesh() {
  const std::size_t start = token_.offset;
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' to open the mesh"));
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftSquare, "'[' and the mesh axes"));
  std::vector<MeshAxis> axes;
  int64_t devices = 1;
  while (!ConsumeIf(Kind::kRightSquare)) {
    if (!axes.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']' after an axis"));
    }
    MeshAxis axis;
    PHAL_ASSIGN_OR_RETURN(axis.name, ReadName("an axis name such as \"x\""));
    PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' and the axis size"));
    PHAL_ASSIGN_OR_RETURN(axis.size, ReadInteger("the axis size"));
    if (axis.size < 1 || axis.size > (int64_t{1} << 20)) {
      return source_.ErrorAt(
          start, "axis \"" + axis.name + "\" must have 1 to 1048576 devices");
    }
    devices *= axis.size;
    if (devices > (int64_t{1} << 20)) {
      return source_.ErrorAt(start, "the mesh has more than 1048576 devices");
    }
    axes.push_back(std::move(axis));
  }
  std::optional<TileAssignment> device_ids;
  if (ConsumeIf(Kind::kComma)) {
    if (!token_.IsBare("device_ids")) return ErrorExpected("device_ids");
    Advance();
    PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' after device_ids"));
    PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftSquare, "'[' and the device ids"));
    std::vector<int64_t> ids;
    while (!ConsumeIf(Kind::kRightSquare)) {
      if (!ids.empty()) {
        PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']'"));
      }
      PHAL_ASSIGN_OR_RETURN(int64_t id, ReadInteger("a device id"));
      ids.push_back(id);
    }
    std::vector<int64_t> shape;
    for (const MeshAxis& axis : axes) shape.push_back(axis.size);
    if (axes.empty()) shape.push_back(static_cast<int64_t>(ids.size()));
    StatusOr<TileAssignment> tiles = TileAssignment::Explicit(shape, ids);
    if (!tiles.ok()) {
      return source_.ErrorAt(start, std::string(tiles.status().message()));
    }
    device_ids = *std::move(tiles);
  }
  PHAL_RETURN_IF_ERROR(Expect(Kind::kGreater, "'>' to close the mesh"));
  StatusOr<DeviceMesh> mesh =
      DeviceMesh::Create(std::move(axes), std::move(device_ids));
  if (!mesh.ok()) {
    return source_.ErrorAt(start, std::string(mesh.status().message()));
  }
  return mesh;
}

StatusOr<SdyAxis> SdyReader::ReadAxis() {
  SdyAxis axis;
  axis.offset = token_.offset;
  PHAL_ASSIGN_OR_RETURN(axis.name, ReadName("an axis name such as \"x\""));
  if (!ConsumeIf(Kind::kColon)) return axis;
  axis.is_sub_axis = true;
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftParen, "'(' and the sub-axis"));
  PHAL_ASSIGN_OR_RETURN(axis.pre_size, ReadInteger("the sub-axis's pre-size"));
  PHAL_RETURN_IF_ERROR(Expect(Kind::kRightParen, "')'"));
  PHAL_ASSIGN_OR_RETURN(axis.size, ReadInteger("the sub-axis's size"));
  return axis;
}

StatusOr<std::vector<SdyAxis>> SdyReader::ReadAxes(bool* open) {
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftBrace, "'{' to open the axes"));
  std::vector<SdyAxis> axes;
  bool first = true;
  while (!ConsumeIf(Kind::kRightBrace)) {
    if (!first) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or '}' after an axis"));
    }
    first = false;
    if (open != nullptr && ConsumeIf(Kind::kQuestion)) {
      *open = true;
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(SdyAxis axis, ReadAxis());
    axes.push_back(std::move(axis));
  }
  // A priority ("p1") orders propagation only.
  if (token_.Is(Kind::kBareId) && token_.text.size() > 1 &&
      token_.text[0] == 'p') {
    Advance();
  }
  return axes;
}

StatusOr<SdyTensorSharding> SdyReader::ReadTensorSharding() {
  SdyTensorSharding sharding;
  sharding.offset = token_.offset;
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' to open the sharding"));
  if (!token_.Is(Kind::kAtId)) {
    return ErrorExpected("the name of an sdy.mesh such as @mesh");
  }
  sharding.mesh_name = std::string(token_.text.substr(1));
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' after the mesh"));
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kLeftSquare, "'[' and one sharding per dimension"));
  while (!ConsumeIf(Kind::kRightSquare)) {
    if (!sharding.dimensions.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']'"));
    }
    SdyDimensionSharding dimension;
    PHAL_ASSIGN_OR_RETURN(dimension.axes, ReadAxes(&dimension.open));
    sharding.dimensions.push_back(std::move(dimension));
  }
  while (ConsumeIf(Kind::kComma)) {
    const bool replicated = token_.IsBare("replicated");
    if (!replicated && !token_.IsBare("unreduced")) {
      return ErrorExpected("replicated={...} or unreduced={...}");
    }
    Advance();
    PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'='"));
    PHAL_ASSIGN_OR_RETURN(std::vector<SdyAxis> axes, ReadAxes(nullptr));
    (replicated ? sharding.replicated : sharding.unreduced) = std::move(axes);
  }
  PHAL_RETURN_IF_ERROR(Expect(Kind::kGreater, "'>' to close the sharding"));
  return sharding;
}

StatusOr<std::vector<SdyTensorSharding>> SdyReader::ReadTensorShardings() {
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftSquare, "'[' and the shardings"));
  std::vector<SdyTensorSharding> shardings;
  while (!ConsumeIf(Kind::kRightSquare)) {
    if (!shardings.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']'"));
    }
    PHAL_ASSIGN_OR_RETURN(SdyTensorSharding sharding, ReadTensorSharding());
    shardings.push_back(std::move(sharding));
  }
  return shardings;
}

StatusOr<std::vector<SdyAxis>> SdyReader::ReadAxisSet() {
  return ReadAxes(nullptr);
}

// The shortest equivalent iota of `shape` transposed by `order`, as XLA
// prints it: axes of size 1 dropped, axes that stay adjacent and in order
// merged, and no transpose at all when none is left ("<=[4]").
void CanonicalizeIota(std::vector<int64_t>* shape,
                      std::vector<int64_t>* order) {
  std::vector<int64_t> kept;  // the axes of size above 1, in `order`
  for (int64_t axis : *order) {
    if ((*shape)[static_cast<std::size_t>(axis)] > 1) kept.push_back(axis);
  }
  // Runs of axes consecutive in both the mesh and `kept` become one axis.
  std::vector<std::vector<int64_t>> runs;
  for (int64_t axis : kept) {
    if (!runs.empty() && runs.back().back() + 1 == axis) {
      runs.back().push_back(axis);
    } else {
      runs.push_back({axis});
    }
  }
  std::vector<std::size_t> by_mesh_order(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) by_mesh_order[i] = i;
  std::sort(by_mesh_order.begin(), by_mesh_order.end(),
            [&](std::size_t a, std::size_t b) {
              return runs[a].front() < runs[b].front();
            });
  std::vector<int64_t> merged_shape(runs.size());
  std::vector<int64_t> merged_order(runs.size());
  for (std::size_t rank = 0; rank < by_mesh_order.size(); ++rank) {
    const std::vector<int64_t>& run = runs[by_mesh_order[rank]];
    int64_t size = 1;
    for (int64_t axis : run) size *= (*shape)[static_cast<std::size_t>(axis)];
    merged_shape[rank] = size;
    merged_order[by_mesh_order[rank]] = static_cast<int64_t>(rank);
  }
  bool identity = true;
  for (std::size_t i = 0; i < merged_order.size(); ++i) {
    identity = identity && merged_order[i] == static_cast<int64_t>(i);
  }
  if (identity) {
    int64_t total = 1;
    for (int64_t size : merged_shape) total *= size;
    *shape = {total};
    order->clear();
    return;
  }
  *shape = std::move(merged_shape);
  *order = std::move(merged_order);
}

}  // namespace

StatusOr<DeviceMesh> ParseSdyMesh(const SourceText& source, std::size_t begin,
                                  std::size_t end) {
  SdyReader reader(source, begin, end);
  PHAL_ASSIGN_OR_RETURN(DeviceMesh mesh, reader.ReadMesh());
  PHAL_RETURN_IF_ERROR(reader.ExpectEnd());
  return mesh;
}

StatusOr<SdyTensorSharding> ParseSdyTensorSharding(const SourceText& source,
                                                   std::size_t begin,
                                                   std::size_t end) {
  SdyReader reader(source, begin, end);
  PHAL_ASSIGN_OR_RETURN(SdyTensorSharding sharding,
                        reader.ReadTensorSharding());
  PHAL_RETURN_IF_ERROR(reader.ExpectEnd());
  return sharding;
}

StatusOr<std::vector<SdyTensorSharding>> ParseSdyTensorShardings(
    const SourceText& source, std::size_t begin, std::size_t end) {
  SdyReader reader(source, begin, end);
  PHAL_ASSIGN_OR_RETURN(std::vector<SdyTensorSharding> shardings,
                        reader.ReadTensorShardings());
  PHAL_RETURN_IF_ERROR(reader.ExpectEnd());
  return shardings;
}

StatusOr<std::vector<SdyAxis>> ParseSdyAxisSet(const SourceText& source,
                                               std::size_t begin,
                                               std::size_t end) {
  SdyReader reader(source, begin, end);
  PHAL_ASSIGN_OR_RETURN(std::vector<SdyAxis> axes, reader.ReadAxisSet());
  PHAL_RETURN_IF_ERROR(reader.ExpectEnd());
  return axes;
}

StatusOr<HloSharding> SdyShardingToHlo(const SdyTensorSharding& sharding,
                                       const DeviceMesh& mesh, int64_t rank,
                                       const SourceText& source) {
  if (static_cast<int64_t>(sharding.dimensions.size()) != rank) {
    return source.ErrorAt(
        sharding.offset, "the sharding has " +
                             std::to_string(sharding.dimensions.size()) +
                             " dimensions, its tensor " + std::to_string(rank));
  }
  if (!sharding.unreduced.empty()) {
    return source.ErrorAt(sharding.unreduced[0].offset,
                          "unreduced axes are not supported",
                          PHAL_UNIMPLEMENTED);
  }
  // The mesh axes in the order the tile assignment reads them: those of
  // dimension 0, of dimension 1, ..., then the unused ones (replication).
  std::vector<int64_t> order;
  std::vector<int64_t> tiles;
  for (const SdyDimensionSharding& dimension : sharding.dimensions) {
    int64_t count = 1;
    for (const SdyAxis& axis : dimension.axes) {
      if (axis.is_sub_axis) {
        return source.ErrorAt(axis.offset,
                              "sub-axes such as \"" + axis.name + "\":(" +
                                  std::to_string(axis.pre_size) + ")" +
                                  std::to_string(axis.size) +
                                  " are not supported",
                              PHAL_UNIMPLEMENTED);
      }
      const int64_t index = mesh.AxisIndex(axis.name);
      if (index < 0) {
        return source.ErrorAt(axis.offset, "the mesh " + mesh.ToString() +
                                               " has no axis \"" + axis.name +
                                               "\"");
      }
      if (std::find(order.begin(), order.end(), index) != order.end()) {
        return source.ErrorAt(axis.offset,
                              "axis \"" + axis.name + "\" is used twice");
      }
      order.push_back(index);
      count *= mesh.axes()[static_cast<std::size_t>(index)].size;
    }
    tiles.push_back(count);
  }
  int64_t replicas = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(mesh.axes().size()); ++i) {
    if (std::find(order.begin(), order.end(), i) != order.end()) continue;
    order.push_back(i);
    replicas *= mesh.axes()[static_cast<std::size_t>(i)].size;
  }
  if (replicas == mesh.device_count()) return HloSharding::Replicated();
  const bool replicate_last = replicas > 1;
  if (replicate_last) tiles.push_back(replicas);
  std::vector<int64_t> mesh_shape;
  for (const MeshAxis& axis : mesh.axes()) mesh_shape.push_back(axis.size);
  CanonicalizeIota(&mesh_shape, &order);
  StatusOr<TileAssignment> positions =
      TileAssignment::Iota(tiles, mesh_shape, order);
  if (!positions.ok()) {
    return source.ErrorAt(sharding.offset,
                          std::string(positions.status().message()));
  }
  if (!mesh.device_ids().has_value()) {
    return HloSharding::Tiled(*std::move(positions), replicate_last);
  }
  std::vector<int64_t> devices;
  for (int64_t position : positions->devices()) {
    devices.push_back(mesh.device(position));
  }
  StatusOr<TileAssignment> explicit_tiles =
      TileAssignment::Explicit(tiles, std::move(devices));
  if (!explicit_tiles.ok()) {
    return source.ErrorAt(sharding.offset,
                          std::string(explicit_tiles.status().message()));
  }
  return HloSharding::Tiled(*std::move(explicit_tiles), replicate_last);
}

}  // namespace phal
