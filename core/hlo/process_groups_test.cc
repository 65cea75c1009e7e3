#include "core/hlo/process_groups.h"

#include <gtest/gtest.h>

#include <memory>

namespace phal {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

Groups Expand(CollectiveGroupMode mode, const Groups& ids, int64_t replicas,
              int64_t partitions) {
  StatusOr<Groups> groups =
      ProcessGroups(mode, ids, ProcessGrid{replicas, partitions}, true);
  EXPECT_TRUE(groups.ok()) << groups.status().message();
  return groups.ok() ? *groups : Groups();
}

std::string ExpandError(CollectiveGroupMode mode, const Groups& ids,
                        int64_t replicas, int64_t partitions) {
  StatusOr<Groups> groups =
      ProcessGroups(mode, ids, ProcessGrid{replicas, partitions}, true);
  EXPECT_FALSE(groups.ok());
  return groups.ok() ? "" : std::string(groups.status().message());
}

// The examples of the StableHLO specification, section "Collective ops",
// with the process (replica, partition) written as its flattened id
// replica * num_partitions + partition.
TEST(ProcessGroupsTest, CrossReplicaMatchesTheSpecExample) {
  // [[(0,0),(1,0)], [(0,1),(1,1)], [(2,0),(3,0)], [(2,1),(3,1)]]
  EXPECT_EQ(Expand(CollectiveGroupMode::kCrossReplica, {{0, 1}, {2, 3}}, 4, 2),
            (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
}

TEST(ProcessGroupsTest, CrossPartitionMatchesTheSpecExample) {
  // [[(0,0),(0,1)], [(1,0),(1,1)], [(2,0),(2,1)], [(3,0),(3,1)]]
  EXPECT_EQ(Expand(CollectiveGroupMode::kCrossPartition, {{0, 1}}, 4, 2),
            (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
}

TEST(ProcessGroupsTest, CrossReplicaAndPartitionMatchesTheSpecExample) {
  // [[(0,0),(1,0),(0,1),(1,1)], [(2,0),(3,0),(2,1),(3,1)]]
  EXPECT_EQ(Expand(CollectiveGroupMode::kCrossReplicaAndPartition,
                   {{0, 1}, {2, 3}}, 4, 2),
            (Groups{{0, 2, 1, 3}, {4, 6, 5, 7}}));
}

TEST(ProcessGroupsTest, FlattenedIdsMatchTheSpecExample) {
  EXPECT_EQ(Expand(CollectiveGroupMode::kFlattenedIds,
                   {{0, 1, 2, 3}, {4, 5, 6, 7}}, 4, 2),
            (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
}

TEST(ProcessGroupsTest, NoGroupsMeanOneGroupOfEveryId) {
  EXPECT_EQ(Expand(CollectiveGroupMode::kCrossReplica, {}, 2, 2),
            (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(Expand(CollectiveGroupMode::kCrossPartition, {}, 2, 2),
            (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(Expand(CollectiveGroupMode::kFlattenedIds, {}, 2, 2),
            (Groups{{0, 1, 2, 3}}));
}

TEST(ProcessGroupsTest, ModeFollowsTheChannelAndGlobalIdsPerOp) {
  using enum CollectiveGroupMode;
  const auto mode = [](HloOpcode opcode, bool channel, bool global) {
    StatusOr<CollectiveGroupMode> result =
        CollectiveGroupModeOf(opcode, channel, global);
    EXPECT_TRUE(result.ok()) << result.status().message();
    return result.ok() ? *result : kCrossReplica;
  };
  for (HloOpcode opcode : {HloOpcode::kAllReduce, HloOpcode::kAllGather,
                           HloOpcode::kReduceScatter}) {
    EXPECT_EQ(mode(opcode, false, false), kCrossReplica);
    EXPECT_EQ(mode(opcode, true, false), kCrossReplicaAndPartition);
    EXPECT_EQ(mode(opcode, true, true), kFlattenedIds);
  }
  for (HloOpcode opcode : {HloOpcode::kAllToAll, HloOpcode::kCollectivePermute,
                           HloOpcode::kCollectiveBroadcast}) {
    EXPECT_EQ(mode(opcode, false, false), kCrossReplica);
    EXPECT_EQ(mode(opcode, true, false), kCrossPartition);
  }
  EXPECT_FALSE(CollectiveGroupModeOf(HloOpcode::kAllReduce, false, true).ok());
  EXPECT_FALSE(CollectiveGroupModeOf(HloOpcode::kAllToAll, true, true).ok());
}

TEST(ProcessGroupsTest, RejectsRepeatedOutOfRangeAndMissingIds) {
  using enum CollectiveGroupMode;
  EXPECT_NE(ExpandError(kCrossReplica, {{0, 1}, {1, 2}}, 3, 1)
                .find("replica 1 is in more than one replica group"),
            std::string::npos);
  EXPECT_NE(ExpandError(kCrossPartition, {{0, 2}}, 1, 2)
                .find("partition id 2 is out of range"),
            std::string::npos);
  EXPECT_NE(ExpandError(kFlattenedIds, {{0, 1}, {2}}, 2, 2)
                .find("leave out process 3"),
            std::string::npos);
}

class CollectiveInstructionTest : public ::testing::Test {
 protected:
  HloInstruction* Add(HloOpcode opcode) {
    auto instruction = std::make_unique<HloInstruction>(
        opcode, "c", Shape(PHAL_ELEMENT_TYPE_F32, {4}));
    owned_.push_back(std::move(instruction));
    return owned_.back().get();
  }
  std::vector<std::unique_ptr<HloInstruction>> owned_;
};

TEST_F(CollectiveInstructionTest, AllGatherNeedsGroupsOfOneSize) {
  HloInstruction* gather = Add(HloOpcode::kAllGather);
  gather->set_replica_groups(ReplicaGroups::FromList({{0, 1}, {2}}));
  StatusOr<Groups> groups = ProcessGroupsOf(*gather, ProcessGrid{3, 1});
  ASSERT_FALSE(groups.ok());
  EXPECT_NE(std::string(groups.status().message()).find("of one size"),
            std::string::npos)
      << groups.status().message();
  HloInstruction* reduce = Add(HloOpcode::kAllReduce);
  reduce->set_replica_groups(ReplicaGroups::FromList({{0, 1}, {2}}));
  EXPECT_TRUE(ProcessGroupsOf(*reduce, ProcessGrid{3, 1}).ok());
}

TEST_F(CollectiveInstructionTest, PermutePairsBecomeProcessPairs) {
  HloInstruction* permute = Add(HloOpcode::kCollectivePermute);
  permute->set_source_target_pairs({{0, 1}, {1, 0}});
  permute->set_channel_id(1);
  StatusOr<Groups> pairs = ProcessGroupsOf(*permute, ProcessGrid{2, 2});
  ASSERT_TRUE(pairs.ok()) << pairs.status().message();
  // Partitions 0 -> 1 and 1 -> 0, within replica 0 and within replica 1.
  EXPECT_EQ(*pairs, (Groups{{0, 1}, {2, 3}, {1, 0}, {3, 2}}));
  permute->set_source_target_pairs({{0, 1}, {0, 0}});
  EXPECT_FALSE(ProcessGroupsOf(*permute, ProcessGrid{2, 2}).ok());
}

TEST_F(CollectiveInstructionTest, BroadcastNeedNotCoverEveryProcess) {
  HloInstruction* broadcast = Add(HloOpcode::kCollectiveBroadcast);
  broadcast->set_replica_groups(ReplicaGroups::FromList({{2, 1}}));
  StatusOr<Groups> groups = ProcessGroupsOf(*broadcast, ProcessGrid{4, 1});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  EXPECT_EQ(*groups, (Groups{{2, 1}}));
}

}  // namespace
}  // namespace phal
