// SPMD programs in StableHLO: the module's process grid and the collective
// ops as HLO collective instructions of the per-process program. Which
// processes each op groups is process_groups.h's business; here the ops'
// attributes become the instruction's.
#include <algorithm>
#include <map>

#include "core/frontend/stablehlo_lowering_context.h"
#include "core/hlo/sharding.h"
#include "core/hlo/text_cursor.h"

namespace phal {
namespace {

using AK = MlirAttribute::Kind;

StatusOr<int64_t> GridAttribute(const MlirModule& module,
                                const std::string& name) {
  for (const MlirNamedAttribute& attribute : module.attributes) {
    if (attribute.name != name) continue;
    if (attribute.value.kind != AK::kInteger || attribute.value.integer < 1 ||
        attribute.value.integer > (int64_t{1} << 20)) {
      return InvalidArgument(name + " must be an integer from 1 to 1048576");
    }
    return attribute.value.integer;
  }
  return 1;
}

int64_t IntegerAttribute(const MlirOperation& op, const char* name,
                         int64_t fallback) {
  const MlirAttribute* attribute = op.Attribute(name);
  return attribute == nullptr ? fallback : attribute->integer;
}

// Sets replica_groups, channel_id and use_global_device_ids of `collective`
// from the op.
void SetGroupAttributes(const MlirOperation& op, HloInstruction* collective) {
  collective->set_replica_groups(
      ReplicaGroups::FromList(IntegerRows(op.Attribute("replica_groups"))));
  collective->set_channel_id(ChannelOf(op));
  collective->set_use_global_device_ids(UsesGlobalDeviceIds(op));
}

}  // namespace

std::vector<std::vector<int64_t>> IntegerRows(const MlirAttribute* attribute) {
  std::vector<std::vector<int64_t>> rows;
  if (attribute == nullptr || attribute->kind != AK::kDenseElements) {
    return rows;
  }
  std::vector<int64_t> flat;
  const auto collect = [&](const DenseElements& e, const auto& self) -> void {
    if (e.kind == DenseElements::Kind::kList) {
      for (const DenseElements& child : e.elements) self(child, self);
    } else if (e.kind == DenseElements::Kind::kInteger) {
      flat.push_back(SignedFromMagnitude(e.integer_bits, e.negative));
    }
  };
  collect(attribute->dense, collect);
  if (!attribute->has_type || attribute->type.rank() != 2) return rows;
  const auto width = static_cast<std::size_t>(attribute->type.dim(1));
  if (width == 0) return rows;
  for (std::size_t i = 0; i + width <= flat.size(); i += width) {
    std::vector<int64_t>& row = rows.emplace_back();
    for (std::size_t j = i; j < i + width; ++j) {
      if (flat[j] >= 0) row.push_back(flat[j]);
    }
  }
  return rows;
}

std::optional<int64_t> ChannelOf(const MlirOperation& op) {
  const MlirAttribute* channel = op.Attribute("channel_handle");
  const MlirAttribute* handle =
      channel == nullptr ? nullptr : channel->Field("handle");
  if (handle == nullptr || handle->integer <= 0) return std::nullopt;
  return handle->integer;
}

bool UsesGlobalDeviceIds(const MlirOperation& op) {
  const MlirAttribute* attribute = op.Attribute("use_global_device_ids");
  if (attribute == nullptr) return false;
  return attribute->kind == AK::kUnit || attribute->boolean;
}

Status StableHloLowering::ReadProcessGrid() {
  StatusOr<int64_t> replicas = GridAttribute(mlir_, "mhlo.num_replicas");
  StatusOr<int64_t> partitions = GridAttribute(mlir_, "mhlo.num_partitions");
  for (const StatusOr<int64_t>* count : {&replicas, &partitions}) {
    if (!count->ok()) {
      return source_.ErrorAt(mlir_.offset,
                             std::string(count->status().message()));
    }
  }
  grid_.replicas = *replicas;
  grid_.partitions = *partitions;
  module_->set_replica_count(grid_.replicas);
  module_->set_num_partitions(grid_.partitions);
  return OkStatus();
}

StatusOr<HloSharding> StableHloLowering::MhloShardingOf(
    const MlirAttribute& attribute) const {
  if (attribute.kind != AK::kString) {
    return source_.ErrorAt(attribute.offset,
                           "mhlo.sharding must be a string such as "
                           "\"{devices=[2]0,1}\"");
  }
  TextCursor cursor(attribute.text);
  StatusOr<HloSharding> sharding = ReadHloSharding(cursor);
  if (sharding.ok() && !cursor.AtEnd()) {
    sharding = cursor.Error("unexpected text after the sharding");
  }
  if (!sharding.ok()) {
    // The string's text starts after its quote; escapes aside, offsets
    // inside it are offsets in the file.
    return source_.ErrorAt(attribute.offset + 1 + cursor.error_offset(),
                           std::string(sharding.status().message()));
  }
  return sharding;
}

Status StableHloLowering::ApplyMhloSharding(
    const std::vector<MlirNamedAttribute>& attributes, const Values& values) {
  const auto found = std::find_if(attributes.begin(), attributes.end(),
                                  [](const MlirNamedAttribute& named) {
                                    return named.name == "mhlo.sharding";
                                  });
  if (found == attributes.end() || values.empty()) return OkStatus();
  const MlirAttribute& attribute = found->value;
  PHAL_ASSIGN_OR_RETURN(HloSharding sharding, MhloShardingOf(attribute));
  std::vector<HloSharding> per_value = {sharding};
  if (values.size() > 1) {
    if (!sharding.IsTuple() ||
        sharding.tuple_elements().size() != values.size()) {
      return source_.ErrorAt(attribute.offset,
                             "mhlo.sharding needs one sharding per result (" +
                                 std::to_string(values.size()) + ")");
    }
    per_value = sharding.tuple_elements();
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    Status fits = CheckShardingFitsShape(per_value[i], values[i]->shape());
    if (!fits.ok()) {
      return source_.ErrorAt(attribute.offset, std::string(fits.message()));
    }
    NoteSharding(per_value[i]);
    values[i]->set_sharding(per_value[i]);
  }
  return OkStatus();
}

StatusOr<Values> StableHloLowering::LowerCollectiveOp(const std::string& name,
                                                      const MlirOperation& op,
                                                      LoweringScope& scope,
                                                      const Values& operands) {
  HloBuilder& b = *scope.builder;
  if (name == "replica_id" || name == "partition_id") {
    // One process is replica 0 of partition 0: the value is known.
    if (grid_.process_count() == 1) {
      return Values{*b.ScalarConstant(PHAL_ELEMENT_TYPE_U32, 0)};
    }
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * id,
        b.Add(b.Create(name == "replica_id" ? HloOpcode::kReplicaId
                                            : HloOpcode::kPartitionId,
                       Shape(), {})));
    return Values{id};
  }
  if (name == "all_to_all") {
    const int64_t split = IntegerAttribute(op, "split_dimension", 0);
    const int64_t concat = IntegerAttribute(op, "concat_dimension", 0);
    Values results;
    for (HloInstruction* operand : operands) {
      PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                            LowerAllToAll(op, b, operand, split, concat));
      results.push_back(result);
    }
    return results;
  }
  static const std::map<std::string, HloOpcode> kOpcodes = {
      {"all_gather", HloOpcode::kAllGather},
      {"all_reduce", HloOpcode::kAllReduce},
      {"collective_broadcast", HloOpcode::kCollectiveBroadcast},
      {"collective_permute", HloOpcode::kCollectivePermute},
      {"reduce_scatter", HloOpcode::kReduceScatter}};
  const HloOpcode opcode = kOpcodes.at(name);
  auto collective = b.Create(opcode, Shape(), operands);
  if (opcode == HloOpcode::kCollectivePermute) {
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (const std::vector<int64_t>& row :
         IntegerRows(op.Attribute("source_target_pairs"))) {
      if (row.size() != 2) {
        return InvalidArgument("source_target_pairs must be N x 2");
      }
      pairs.emplace_back(row[0], row[1]);
    }
    collective->set_source_target_pairs(std::move(pairs));
    collective->set_channel_id(ChannelOf(op));
  } else {
    SetGroupAttributes(op, collective.get());
  }
  if (opcode == HloOpcode::kAllGather) {
    collective->set_dimensions({IntegerAttribute(op, "all_gather_dim", 0)});
  }
  if (opcode == HloOpcode::kReduceScatter) {
    collective->set_dimensions({IntegerAttribute(op, "scatter_dimension", 0)});
  }
  if (opcode == HloOpcode::kAllReduce || opcode == HloOpcode::kReduceScatter) {
    if (op.regions.size() != 1) {
      return InvalidArgument("expects a reduction region");
    }
    PHAL_ASSIGN_OR_RETURN(
        HloComputation * reducer,
        LowerAppliedRegion(op.regions[0], scope, name + "_body"));
    collective->AppendCalledComputation(reducer);
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(collective)));
  PHAL_ASSIGN_OR_RETURN(Values results, b.Untuple(result));
  return results;
}

StatusOr<HloInstruction*> StableHloLowering::LowerAllToAll(
    const MlirOperation& op, HloBuilder& b, HloInstruction* operand,
    int64_t split, int64_t concat) {
  const auto array_form = [&](HloInstruction* input, int64_t dimension) {
    auto all_to_all = b.Create(HloOpcode::kAllToAll, Shape(), {input});
    SetGroupAttributes(op, all_to_all.get());
    all_to_all->set_use_global_device_ids(false);
    all_to_all->set_dimensions({dimension});
    return b.Add(std::move(all_to_all));
  };
  if (split == concat) return array_form(operand, split);
  const Shape& shape = operand->shape();
  const int64_t rank = shape.rank();
  if (split < 0 || split >= rank || concat < 0 || concat >= rank) {
    return InvalidArgument(
        "split_dimension and concat_dimension must be "
        "dimensions of " +
        shape.ToString());
  }
  const int64_t count = IntegerAttribute(op, "split_count", 1);
  if (count <= 0 || shape.dim(split) % count != 0) {
    return InvalidArgument("split_dimension " + std::to_string(split) + " of " +
                           shape.ToString() + " does not split into " +
                           std::to_string(count) + " parts");
  }
  // [..., count, size/count, ...] with the parts' axis moved to the front,
  // exchanged along it, moved to just before the concat dimension and
  // merged into it.
  std::vector<int64_t> split_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == split) {
      split_dims.push_back(count);
      split_dims.push_back(shape.dim(d) / count);
    } else {
      split_dims.push_back(shape.dim(d));
    }
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * parts, b.Reshape(operand, split_dims));
  std::vector<int64_t> to_front = {split};
  for (int64_t d = 0; d <= rank; ++d) {
    if (d != split) to_front.push_back(d);
  }
  auto front = b.Create(HloOpcode::kTranspose, Shape(), {parts});
  front->set_dimensions(to_front);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * fronted, b.Add(std::move(front)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * exchanged, array_form(fronted, 0));
  // After the exchange: [count, d'0, ..., d'(rank-1)] where d' is the
  // operand's dimensions with the split one divided.
  std::vector<int64_t> to_concat;
  for (int64_t d = 1; d <= concat; ++d) to_concat.push_back(d);
  to_concat.push_back(0);
  for (int64_t d = concat + 1; d <= rank; ++d) to_concat.push_back(d);
  auto back = b.Create(HloOpcode::kTranspose, Shape(), {exchanged});
  back->set_dimensions(to_concat);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * moved, b.Add(std::move(back)));
  std::vector<int64_t> result_dims = shape.dims();
  result_dims[static_cast<std::size_t>(split)] /= count;
  result_dims[static_cast<std::size_t>(concat)] *= count;
  return b.Reshape(moved, result_dims);
}

}  // namespace phal
