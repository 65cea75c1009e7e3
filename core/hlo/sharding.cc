#include "core/hlo/sharding.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace phal {
namespace {

constexpr std::pair<HloSharding::Subgroup, std::string_view> kSubgroupNames[] =
    {{HloSharding::Subgroup::kReplicated, "replicated"},
     {HloSharding::Subgroup::kManual, "manual"},
     {HloSharding::Subgroup::kUnreduced, "unreduced"},
     {HloSharding::Subgroup::kMaximal, "maximal"}};

std::string_view SubgroupName(HloSharding::Subgroup subgroup) {
  for (const auto& [value, name] : kSubgroupNames) {
    if (value == subgroup) return name;
  }
  return "?";
}

// Skips a balanced {...} whose quoted strings may hold braces.
Status SkipBraces(TextCursor& cursor) {
  PHAL_RETURN_IF_ERROR(cursor.Expect('{', "to open the metadata"));
  const std::string_view text = cursor.text();
  std::size_t position = cursor.position();
  int depth = 1;
  while (position < text.size() && depth > 0) {
    const char c = text[position++];
    if (c == '"') {
      while (position < text.size() && text[position] != '"') {
        position += text[position] == '\\' ? 2 : 1;
      }
      ++position;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    }
  }
  if (depth > 0) return cursor.Error("unbalanced '{' in the sharding");
  cursor.set_position(std::min(position, text.size()));
  return OkStatus();
}

StatusOr<std::vector<HloSharding::Subgroup>> ReadSubgroups(TextCursor& cursor) {
  PHAL_RETURN_IF_ERROR(cursor.Expect('{', "to open last_tile_dims"));
  std::vector<HloSharding::Subgroup> subgroups;
  do {
    const auto found = std::find_if(
        std::begin(kSubgroupNames), std::end(kSubgroupNames),
        [&](const auto& entry) { return cursor.TryConsumeWord(entry.second); });
    if (found == std::end(kSubgroupNames)) {
      return cursor.Error(
          "expected replicated, manual, unreduced or maximal in "
          "last_tile_dims");
    }
    subgroups.push_back(found->first);
  } while (cursor.TryConsume(','));
  PHAL_RETURN_IF_ERROR(cursor.Expect('}', "to close last_tile_dims"));
  return subgroups;
}

StatusOr<HloSharding> ReadTiled(TextCursor& cursor) {
  PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after devices"));
  cursor.SkipSpaces();
  const std::size_t start = cursor.position();
  PHAL_ASSIGN_OR_RETURN(TileAssignment tiles, ReadTileAssignment(cursor));
  const std::set<int64_t> unique(tiles.devices().begin(),
                                 tiles.devices().end());
  if (static_cast<int64_t>(unique.size()) != tiles.device_count()) {
    return cursor.ErrorAt(start,
                          "a device appears twice in the tile "
                          "assignment " +
                              tiles.ToString());
  }
  bool replicate_last = false;
  std::vector<HloSharding::Subgroup> subgroups;
  while (true) {
    if (cursor.TryConsumeWord("last_tile_dim_replicate")) {
      replicate_last = true;
    } else if (cursor.TryConsumeWord("last_tile_dims")) {
      PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after last_tile_dims"));
      PHAL_ASSIGN_OR_RETURN(subgroups, ReadSubgroups(cursor));
    } else {
      break;
    }
  }
  const std::size_t trailing = subgroups.size() + (replicate_last ? 1 : 0);
  if (tiles.dimensions().size() < trailing) {
    return cursor.ErrorAt(start, "the tile assignment " + tiles.ToString() +
                                     " has fewer dimensions than its " +
                                     std::to_string(trailing) +
                                     " subgroup dimensions");
  }
  return HloSharding::Tiled(std::move(tiles), replicate_last,
                            std::move(subgroups));
}

// A sharding that is not a tuple, after its '{'.
StatusOr<HloSharding> ReadLeaf(TextCursor& cursor) {
  HloSharding sharding;
  if (cursor.TryConsumeWord("replicated")) {
    sharding = HloSharding::Replicated();
  } else if (cursor.TryConsumeWord("manual")) {
    sharding = HloSharding::Manual();
  } else if (cursor.TryConsumeWord("unknown")) {
    sharding = HloSharding::Unknown();
  } else if (cursor.TryConsumeWord("unreduced")) {
    sharding = HloSharding::Unreduced();
  } else if (cursor.TryConsumeWord("maximal")) {
    if (!cursor.TryConsumeWord("device")) {
      return cursor.Error("expected 'device=' after maximal");
    }
    PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after device"));
    PHAL_ASSIGN_OR_RETURN(int64_t device, cursor.ReadInt("the device"));
    if (device < 0) return cursor.Error("the device must not be negative");
    sharding = HloSharding::Maximal(device);
  } else if (cursor.TryConsumeWord("devices")) {
    PHAL_ASSIGN_OR_RETURN(sharding, ReadTiled(cursor));
  } else if (cursor.TryConsumeWord("mesh")) {
    return cursor.Error(
        "named shardings {mesh[...], [...]} are not supported; print the "
        "module with tile-assignment shardings");
  } else {
    return cursor.Error(
        "expected replicated, manual, unknown, unreduced, maximal or "
        "devices= in the sharding");
  }
  while (true) {
    const bool shard_as = cursor.TryConsumeWord("shard_as");
    if (shard_as || cursor.TryConsumeWord("shard_like")) {
      HloSharding::ShardGroup group;
      group.shard_as = shard_as;
      PHAL_ASSIGN_OR_RETURN(group.id, cursor.ReadInt("the shard group"));
      sharding.set_shard_group(group);
    } else if (cursor.TryConsumeWord("metadata")) {
      PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after metadata"));
      PHAL_RETURN_IF_ERROR(SkipBraces(cursor));
    } else {
      break;
    }
  }
  return sharding;
}

}  // namespace

HloSharding HloSharding::Maximal(int64_t device) {
  HloSharding sharding = OfKind(Kind::kMaximal);
  sharding.device_ = device;
  return sharding;
}

HloSharding HloSharding::Tiled(TileAssignment tiles,
                               bool replicate_on_last_tile_dim,
                               std::vector<Subgroup> last_tile_dims) {
  HloSharding sharding = OfKind(Kind::kTiled);
  sharding.tiles_ = std::move(tiles);
  sharding.replicate_last_ = replicate_on_last_tile_dim;
  sharding.last_tile_dims_ = std::move(last_tile_dims);
  return sharding;
}

HloSharding HloSharding::Tuple(std::vector<HloSharding> elements) {
  HloSharding sharding = OfKind(Kind::kTuple);
  sharding.elements_ = std::move(elements);
  return sharding;
}

int64_t HloSharding::TiledDataRank() const {
  return static_cast<int64_t>(tiles_.dimensions().size()) -
         static_cast<int64_t>(last_tile_dims_.size()) -
         (replicate_last_ ? 1 : 0);
}

std::string HloSharding::ToString() const {
  if (kind_ == Kind::kTuple) {
    std::string text = "{";
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      if (i > 0) text += ", ";
      text += elements_[i].ToString();
    }
    return text + "}";
  }
  std::string text = "{";
  switch (kind_) {
    case Kind::kReplicated:
      text += "replicated";
      break;
    case Kind::kManual:
      text += "manual";
      break;
    case Kind::kUnknown:
      text += "unknown";
      break;
    case Kind::kUnreduced:
      text += "unreduced";
      break;
    case Kind::kMaximal:
      text += "maximal device=" + std::to_string(device_);
      break;
    case Kind::kTiled:
    case Kind::kTuple:
      text += "devices=" + tiles_.ToString();
      if (replicate_last_) text += " last_tile_dim_replicate";
      if (!last_tile_dims_.empty()) {
        text += " last_tile_dims={";
        for (std::size_t i = 0; i < last_tile_dims_.size(); ++i) {
          if (i > 0) text += ", ";
          text += SubgroupName(last_tile_dims_[i]);
        }
        text += "}";
      }
      break;
  }
  if (shard_group_.has_value()) {
    text += shard_group_->shard_as ? " shard_as " : " shard_like ";
    text += std::to_string(shard_group_->id);
  }
  return text + "}";
}

bool HloSharding::operator==(const HloSharding& other) const {
  return kind_ == other.kind_ && device_ == other.device_ &&
         tiles_ == other.tiles_ && replicate_last_ == other.replicate_last_ &&
         last_tile_dims_ == other.last_tile_dims_ &&
         elements_ == other.elements_ && shard_group_ == other.shard_group_;
}

namespace {

void CollectLeaves(const Shape& shape, std::vector<const Shape*>* leaves) {
  if (!shape.IsTuple()) {
    leaves->push_back(&shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) {
    CollectLeaves(element, leaves);
  }
}

Status CheckLeafFits(const HloSharding& sharding, const Shape& shape) {
  if (sharding.kind() != HloSharding::Kind::kTiled ||
      sharding.TiledDataRank() == shape.rank()) {
    return OkStatus();
  }
  return InvalidArgument("the sharding " + sharding.ToString() + " splits " +
                         std::to_string(sharding.TiledDataRank()) +
                         " dimensions, the value " + shape.ToString() +
                         " has " + std::to_string(shape.rank()));
}

}  // namespace

Status CheckShardingFitsShape(const HloSharding& sharding, const Shape& shape) {
  std::vector<const Shape*> leaves;
  CollectLeaves(shape, &leaves);
  if (!sharding.IsTuple()) {
    for (const Shape* leaf : leaves) {
      PHAL_RETURN_IF_ERROR(CheckLeafFits(sharding, *leaf));
    }
    return OkStatus();
  }
  // XLA lists one sharding per array leaf of a tuple, nested tuples
  // flattened; an empty tuple may have one.
  const std::vector<HloSharding>& elements = sharding.tuple_elements();
  if (leaves.empty() && elements.size() <= 1) return OkStatus();
  if (elements.size() != leaves.size()) {
    return InvalidArgument("the sharding has " +
                           std::to_string(elements.size()) +
                           " elements, the value " + shape.ToString() +
                           " has " + std::to_string(leaves.size()) + " arrays");
  }
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    if (elements[i].IsTuple()) {
      return InvalidArgument("a tuple sharding's elements must not be tuples");
    }
    PHAL_RETURN_IF_ERROR(CheckLeafFits(elements[i], *leaves[i]));
  }
  return OkStatus();
}

namespace {

// Deep enough for any real tuple; shallow enough that adversarial input
// cannot exhaust the stack.
constexpr int kMaxTupleDepth = 64;

StatusOr<HloSharding> ReadSharding(TextCursor& cursor, int depth) {
  if (depth > kMaxTupleDepth) return cursor.Error("sharding nested too deeply");
  PHAL_RETURN_IF_ERROR(cursor.Expect('{', "to open the sharding"));
  if (cursor.Peek() == '{' || cursor.Peek() == '}') {
    std::vector<HloSharding> elements;
    if (!cursor.TryConsume('}')) {
      do {
        PHAL_ASSIGN_OR_RETURN(HloSharding element,
                              ReadSharding(cursor, depth + 1));
        elements.push_back(std::move(element));
      } while (cursor.TryConsume(','));
      PHAL_RETURN_IF_ERROR(cursor.Expect('}', "to close the tuple sharding"));
    }
    return HloSharding::Tuple(std::move(elements));
  }
  PHAL_ASSIGN_OR_RETURN(HloSharding sharding, ReadLeaf(cursor));
  PHAL_RETURN_IF_ERROR(cursor.Expect('}', "to close the sharding"));
  return sharding;
}

}  // namespace

StatusOr<HloSharding> ReadHloSharding(TextCursor& cursor) {
  return ReadSharding(cursor, 0);
}

StatusOr<HloSharding> ParseHloSharding(std::string_view text) {
  TextCursor cursor(text);
  StatusOr<HloSharding> sharding = ReadHloSharding(cursor);
  if (sharding.ok() && !cursor.AtEnd()) {
    sharding = cursor.Error("unexpected text after the sharding");
  }
  if (!sharding.ok()) {
    return InvalidArgument("sharding \"" + std::string(text) + "\", at " +
                           std::to_string(cursor.error_offset()) + ": " +
                           std::string(sharding.status().message()));
  }
  return sharding;
}

}  // namespace phal
