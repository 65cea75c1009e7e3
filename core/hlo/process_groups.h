// The processes of an SPMD program and how a collective instruction splits
// them into groups, exactly as the StableHLO specification defines it
// (section "Collective ops": cross_replica, cross_partition,
// cross_replica_and_partition, flattened_ids). Everything that runs
// collectives (the reference interpreter, the executor, the partitioner)
// asks here, so that there is one definition.
//
// A process is identified by its flattened id
// replica_id * num_partitions + partition_id, which is also the order of
// XLA's device assignment (replica-major).
#ifndef POLYHAL_CORE_HLO_PROCESS_GROUPS_H_
#define POLYHAL_CORE_HLO_PROCESS_GROUPS_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/hlo/instruction.h"
#include "core/hlo/opcode.h"
#include "sdk/base/status.h"

namespace phal {

// The replicas x partitions grid a program runs on.
struct ProcessGrid {
  int64_t replicas = 1;
  int64_t partitions = 1;
  int64_t process_count() const { return replicas * partitions; }
  int64_t Process(int64_t replica, int64_t partition) const {
    return replica * partitions + partition;
  }
};

// The grid of the module holding `instruction` (replica_count and
// num_partitions); 1 x 1 when it is in no module.
ProcessGrid ProcessGridOf(const HloInstruction& instruction);

enum class CollectiveGroupMode {
  kCrossReplica,              // groups of replica ids, per partition
  kCrossPartition,            // groups of partition ids, per replica
  kCrossReplicaAndPartition,  // groups of replica ids, all partitions each
  kFlattenedIds,              // groups of flattened process ids
};

std::string_view CollectiveGroupModeName(CollectiveGroupMode mode);

// True for the opcodes that exchange data between processes (not
// replica-id and partition-id).
bool IsCollective(HloOpcode opcode);

// The mode the spec prescribes for `opcode`: all-reduce, all-gather and
// reduce-scatter choose by channel and use_global_device_ids; all-to-all,
// collective-permute and collective-broadcast are cross-replica without a
// channel and cross-partition with one. `has_channel` means channel_id > 0.
// use_global_device_ids needs a channel and is only for the first three.
StatusOr<CollectiveGroupMode> CollectiveGroupModeOf(HloOpcode opcode,
                                                    bool has_channel,
                                                    bool use_global_device_ids);

// The spec's strategy `mode` applied to `id_groups` (replica, partition or
// flattened ids, as the mode reads them; empty means one group of every
// such id): the groups of flattened process ids, in the spec's order.
// Checks that the ids are in range and appear once. `require_cover`
// additionally requires that every id appears (all-reduce, all-gather,
// reduce-scatter, all-to-all).
StatusOr<std::vector<std::vector<int64_t>>> ProcessGroups(
    CollectiveGroupMode mode,
    const std::vector<std::vector<int64_t>>& id_groups, ProcessGrid grid,
    bool require_cover);

// collective_permute's pairs on `grid`: each (source, target) pair of
// replica ids (cross_replica) or partition ids (cross_partition) as the
// (source, target) pairs of flattened process ids it stands for, one per
// partition or replica. Sources must be unique, targets too, all in range.
StatusOr<std::vector<std::pair<int64_t, int64_t>>> PermuteProcessPairs(
    CollectiveGroupMode mode,
    const std::vector<std::pair<int64_t, int64_t>>& pairs, ProcessGrid grid);

// The process groups of a collective instruction on `grid`, with every
// constraint of its opcode checked: ids in range and unique; every process
// covered by all-reduce, all-gather, reduce-scatter and all-to-all; groups
// of one size for all-gather, reduce-scatter and all-to-all. For
// collective-permute, the source-target pairs as groups {source, target}
// of flattened ids (sources unique, targets unique).
StatusOr<std::vector<std::vector<int64_t>>> ProcessGroupsOf(
    const HloInstruction& instruction, ProcessGrid grid);

// The number of processes in each group of `instruction` (all-gather,
// reduce-scatter, all-to-all: the factor their shapes change by).
StatusOr<int64_t> UniformGroupSize(const HloInstruction& instruction,
                                   ProcessGrid grid);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_PROCESS_GROUPS_H_
