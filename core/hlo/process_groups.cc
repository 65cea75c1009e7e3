#include "core/hlo/process_groups.h"

#include <numeric>
#include <set>
#include <string>

#include "core/hlo/computation.h"
#include "core/hlo/module.h"

namespace phal {
namespace {

std::vector<int64_t> AllIds(int64_t count) {
  std::vector<int64_t> ids(static_cast<std::size_t>(count));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

// How many ids the mode's groups name: replicas, partitions or processes.
int64_t IdCount(CollectiveGroupMode mode, ProcessGrid grid) {
  switch (mode) {
    case CollectiveGroupMode::kCrossPartition:
      return grid.partitions;
    case CollectiveGroupMode::kFlattenedIds:
      return grid.process_count();
    case CollectiveGroupMode::kCrossReplica:
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      break;
  }
  return grid.replicas;
}

std::string IdName(CollectiveGroupMode mode) {
  switch (mode) {
    case CollectiveGroupMode::kCrossPartition:
      return "partition";
    case CollectiveGroupMode::kFlattenedIds:
      return "process";
    case CollectiveGroupMode::kCrossReplica:
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      break;
  }
  return "replica";
}

Status CheckIds(CollectiveGroupMode mode,
                const std::vector<std::vector<int64_t>>& id_groups,
                ProcessGrid grid, bool require_cover) {
  const int64_t count = IdCount(mode, grid);
  const std::string name = IdName(mode);
  const std::string grid_text = std::to_string(grid.replicas) + " replicas x " +
                                std::to_string(grid.partitions) + " partitions";
  std::set<int64_t> seen;
  for (const std::vector<int64_t>& group : id_groups) {
    if (group.empty()) return InvalidArgument("a replica group is empty");
    for (int64_t id : group) {
      if (id < 0 || id >= count) {
        return InvalidArgument(
            name + " id " + std::to_string(id) +
            " is out of range: the program runs on " + grid_text + " (" +
            CollectiveGroupModeName(mode).data() + " groups name " + name +
            "s 0.." + std::to_string(count - 1) + ")");
      }
      if (!seen.insert(id).second) {
        return InvalidArgument(name + " " + std::to_string(id) +
                               " is in more than one replica group, or twice "
                               "in one");
      }
    }
  }
  if (require_cover && !id_groups.empty() &&
      static_cast<int64_t>(seen.size()) != count) {
    for (int64_t id = 0; id < count; ++id) {
      if (seen.count(id) == 0) {
        return InvalidArgument("the replica groups leave out " + name + " " +
                               std::to_string(id) + " of " + grid_text);
      }
    }
  }
  return OkStatus();
}

bool NeedsEveryProcess(HloOpcode opcode) {
  return opcode == HloOpcode::kAllReduce || opcode == HloOpcode::kAllGather ||
         opcode == HloOpcode::kReduceScatter || opcode == HloOpcode::kAllToAll;
}

StatusOr<CollectiveGroupMode> ModeOf(const HloInstruction& instruction) {
  const bool has_channel =
      instruction.channel_id().has_value() && *instruction.channel_id() > 0;
  return CollectiveGroupModeOf(instruction.opcode(), has_channel,
                               instruction.use_global_device_ids());
}

StatusOr<std::vector<std::vector<int64_t>>> PermutePairs(
    const HloInstruction& permute, ProcessGrid grid) {
  PHAL_ASSIGN_OR_RETURN(CollectiveGroupMode mode, ModeOf(permute));
  PHAL_ASSIGN_OR_RETURN(
      auto pairs,
      PermuteProcessPairs(mode, permute.source_target_pairs(), grid));
  std::vector<std::vector<int64_t>> groups;
  for (const auto& [source, target] : pairs) groups.push_back({source, target});
  return groups;
}

}  // namespace

ProcessGrid ProcessGridOf(const HloInstruction& instruction) {
  ProcessGrid grid;
  const HloComputation* computation = instruction.parent();
  const HloModule* module =
      computation != nullptr ? computation->parent() : nullptr;
  if (module != nullptr) {
    grid.replicas = module->replica_count();
    grid.partitions = module->num_partitions();
  }
  return grid;
}

std::string_view CollectiveGroupModeName(CollectiveGroupMode mode) {
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica:
      return "cross_replica";
    case CollectiveGroupMode::kCrossPartition:
      return "cross_partition";
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      return "cross_replica_and_partition";
    case CollectiveGroupMode::kFlattenedIds:
      return "flattened_ids";
  }
  return "?";
}

bool IsCollective(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllGather:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}

StatusOr<CollectiveGroupMode> CollectiveGroupModeOf(
    HloOpcode opcode, bool has_channel, bool use_global_device_ids) {
  const bool by_global_ids = opcode == HloOpcode::kAllReduce ||
                             opcode == HloOpcode::kAllGather ||
                             opcode == HloOpcode::kReduceScatter;
  if (use_global_device_ids && !by_global_ids) {
    return InvalidArgument(std::string(HloOpcodeName(opcode)) +
                           " has no use_global_device_ids");
  }
  if (use_global_device_ids && !has_channel) {
    return InvalidArgument("use_global_device_ids needs a channel_id above 0");
  }
  if (!has_channel) return CollectiveGroupMode::kCrossReplica;
  if (!by_global_ids) return CollectiveGroupMode::kCrossPartition;
  return use_global_device_ids ? CollectiveGroupMode::kFlattenedIds
                               : CollectiveGroupMode::kCrossReplicaAndPartition;
}

StatusOr<std::vector<std::vector<int64_t>>> ProcessGroups(
    CollectiveGroupMode mode,
    const std::vector<std::vector<int64_t>>& id_groups, ProcessGrid grid,
    bool require_cover) {
  PHAL_RETURN_IF_ERROR(CheckIds(mode, id_groups, grid, require_cover));
  std::vector<std::vector<int64_t>> groups = id_groups;
  if (groups.empty()) groups.push_back(AllIds(IdCount(mode, grid)));
  std::vector<std::vector<int64_t>> processes;
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica:
      for (const std::vector<int64_t>& group : groups) {
        for (int64_t partition = 0; partition < grid.partitions; ++partition) {
          std::vector<int64_t>& members = processes.emplace_back();
          for (int64_t replica : group) {
            members.push_back(grid.Process(replica, partition));
          }
        }
      }
      break;
    case CollectiveGroupMode::kCrossPartition:
      for (const std::vector<int64_t>& group : groups) {
        for (int64_t replica = 0; replica < grid.replicas; ++replica) {
          std::vector<int64_t>& members = processes.emplace_back();
          for (int64_t partition : group) {
            members.push_back(grid.Process(replica, partition));
          }
        }
      }
      break;
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      for (const std::vector<int64_t>& group : groups) {
        std::vector<int64_t>& members = processes.emplace_back();
        for (int64_t partition = 0; partition < grid.partitions; ++partition) {
          for (int64_t replica : group) {
            members.push_back(grid.Process(replica, partition));
          }
        }
      }
      break;
    case CollectiveGroupMode::kFlattenedIds:
      processes = std::move(groups);
      break;
  }
  return processes;
}

StatusOr<std::vector<std::pair<int64_t, int64_t>>> PermuteProcessPairs(
    CollectiveGroupMode mode,
    const std::vector<std::pair<int64_t, int64_t>>& pairs, ProcessGrid grid) {
  std::set<int64_t> sources;
  std::set<int64_t> targets;
  std::vector<std::pair<int64_t, int64_t>> processes;
  for (const auto& [source, target] : pairs) {
    if (!sources.insert(source).second) {
      return InvalidArgument("source " + std::to_string(source) +
                             " appears in two source_target_pairs");
    }
    if (!targets.insert(target).second) {
      return InvalidArgument("target " + std::to_string(target) +
                             " appears in two source_target_pairs");
    }
    // The source and the target expand alike (one process per partition,
    // or per replica), so the expansions pair up in order.
    PHAL_ASSIGN_OR_RETURN(auto from, ProcessGroups(mode, {{source}}, grid,
                                                   /*require_cover=*/false));
    PHAL_ASSIGN_OR_RETURN(auto to, ProcessGroups(mode, {{target}}, grid,
                                                 /*require_cover=*/false));
    for (std::size_t i = 0; i < from.size(); ++i) {
      processes.emplace_back(from[i][0], to[i][0]);
    }
  }
  return processes;
}

StatusOr<std::vector<std::vector<int64_t>>> ProcessGroupsOf(
    const HloInstruction& instruction, ProcessGrid grid) {
  const HloOpcode opcode = instruction.opcode();
  if (!IsCollective(opcode)) {
    return InvalidArgument(std::string(HloOpcodeName(opcode)) +
                           " is not a collective");
  }
  if (opcode == HloOpcode::kCollectivePermute) {
    return PermutePairs(instruction, grid);
  }
  PHAL_ASSIGN_OR_RETURN(CollectiveGroupMode mode, ModeOf(instruction));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<std::vector<int64_t>> groups,
      ProcessGroups(mode, instruction.replica_groups().groups(), grid,
                    NeedsEveryProcess(opcode)));
  const bool uniform = opcode == HloOpcode::kAllGather ||
                       opcode == HloOpcode::kReduceScatter ||
                       opcode == HloOpcode::kAllToAll;
  for (const std::vector<int64_t>& group : groups) {
    if (uniform && group.size() != groups[0].size()) {
      return InvalidArgument(std::string(HloOpcodeName(opcode)) +
                             " needs replica groups of one size, they have " +
                             std::to_string(groups[0].size()) + " and " +
                             std::to_string(group.size()) + " members");
    }
  }
  return groups;
}

StatusOr<int64_t> UniformGroupSize(const HloInstruction& instruction,
                                   ProcessGrid grid) {
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                        ProcessGroupsOf(instruction, grid));
  return groups.empty() ? 1 : static_cast<int64_t>(groups[0].size());
}

}  // namespace phal
