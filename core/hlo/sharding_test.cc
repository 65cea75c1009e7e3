#include "core/hlo/sharding.h"

#include <gtest/gtest.h>

#include "core/hlo/replica_groups.h"

namespace phal {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

HloSharding ParseOrDie(std::string_view text) {
  StatusOr<HloSharding> sharding = ParseHloSharding(text);
  EXPECT_TRUE(sharding.ok()) << sharding.status().message();
  return sharding.ok() ? *sharding : HloSharding();
}

ReplicaGroups GroupsOrDie(std::string_view text) {
  TextCursor cursor(text);
  StatusOr<ReplicaGroups> groups = ReadReplicaGroups(cursor);
  EXPECT_TRUE(groups.ok()) << groups.status().message();
  EXPECT_TRUE(cursor.AtEnd()) << text;
  return groups.ok() ? *groups : ReplicaGroups();
}

TEST(TileAssignmentTest, IotaWithTransposeListsDevicesColumnMajor) {
  StatusOr<TileAssignment> iota = TileAssignment::Iota({2, 2}, {2, 2}, {1, 0});
  ASSERT_TRUE(iota.ok()) << iota.status().message();
  EXPECT_EQ(iota->devices(), (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(iota->ToString(), "[2,2]<=[2,2]T(1,0)");
  StatusOr<TileAssignment> three =
      TileAssignment::Iota({4, 2}, {2, 2, 2}, {2, 0, 1});
  ASSERT_TRUE(three.ok()) << three.status().message();
  EXPECT_EQ(three->devices(), (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(TileAssignmentTest, RejectsCountsThatDoNotMatch) {
  EXPECT_FALSE(TileAssignment::Iota({2, 2}, {8}).ok());
  EXPECT_FALSE(TileAssignment::Iota({2, 2}, {2, 2}, {0, 0}).ok());
  EXPECT_FALSE(TileAssignment::Explicit({2, 1}, {0, 1, 2}).ok());
}

TEST(HloShardingTest, EveryFormPrintsAsItWasWritten) {
  for (std::string_view text :
       {"{replicated}", "{manual}", "{unknown}", "{unreduced}",
        "{maximal device=3}", "{devices=[2,1]0,1}", "{devices=[2,2]<=[4]}",
        "{devices=[2,2]<=[2,2]T(1,0)}",
        "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}",
        "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
        "{devices=[1,2,2]<=[4] last_tile_dims={manual}}",
        "{devices=[2,2,1,1]<=[4] last_tile_dims={manual, replicated}}",
        "{replicated shard_as 2}", "{devices=[2]0,1 shard_like 0}",
        "{{replicated}, {devices=[2]0,1}, {maximal device=0}}", "{}"}) {
    EXPECT_EQ(ParseOrDie(text).ToString(), text);
  }
}

TEST(HloShardingTest, ReadsTheKindAndTiles) {
  const HloSharding tiled =
      ParseOrDie("{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(tiled.kind(), HloSharding::Kind::kTiled);
  EXPECT_TRUE(tiled.replicate_on_last_tile_dim());
  EXPECT_EQ(tiled.TiledDataRank(), 2);
  EXPECT_EQ(tiled.tile_assignment().devices(),
            (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(ParseOrDie("{maximal device=5}").device(), 5);
  EXPECT_EQ(ParseOrDie("{manual}").kind(), HloSharding::Kind::kManual);
}

TEST(HloShardingTest, DropsMetadata) {
  EXPECT_EQ(
      ParseOrDie("{devices=[2]0,1 metadata={op_name=\"a}\" source_line=3}}")
          .ToString(),
      "{devices=[2]0,1}");
}

TEST(HloShardingTest, ErrorsSayWhereAndWhy) {
  for (const auto& [text, why] :
       std::vector<std::pair<std::string_view, std::string_view>>{
           {"{devices=[2,2]0,1,2}", "needs 4 devices, the list has 3"},
           {"{devices=[2]0,0}", "a device appears twice"},
           {"{devices=[2,2]<=[2,2]T(0,0)}", "not a permutation"},
           {"{tiled}", "expected replicated, manual"},
           {"{replicated", "to close the sharding"},
           {"{devices=[2] last_tile_dim_replicate}",
            "expected an integer for a device id"}}) {
    StatusOr<HloSharding> sharding = ParseHloSharding(text);
    ASSERT_FALSE(sharding.ok()) << text;
    EXPECT_NE(std::string(sharding.status().message()).find(why),
              std::string::npos)
        << sharding.status().message();
  }
}

TEST(HloShardingTest, FitsTheShapeItAnnotates) {
  const Shape matrix(PHAL_ELEMENT_TYPE_F32, {4, 2});
  EXPECT_TRUE(
      CheckShardingFitsShape(ParseOrDie("{devices=[2,1]0,1}"), matrix).ok());
  EXPECT_FALSE(
      CheckShardingFitsShape(ParseOrDie("{devices=[2]0,1}"), matrix).ok());
  const Shape pair = Shape::Tuple({matrix, Shape::Tuple({matrix, matrix})});
  EXPECT_TRUE(
      CheckShardingFitsShape(
          ParseOrDie("{{replicated}, {manual}, {devices=[1,2]0,1}}"), pair)
          .ok());
  EXPECT_FALSE(
      CheckShardingFitsShape(ParseOrDie("{{replicated}, {manual}}"), pair)
          .ok());
}

TEST(ReplicaGroupsTest, ListIotaAndMeshFormsExpandAndPrintBack) {
  const ReplicaGroups list = GroupsOrDie("{{0,1},{2,3}}");
  EXPECT_EQ(list.form(), ReplicaGroups::Form::kList);
  EXPECT_EQ(list.groups(), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(GroupsOrDie("{}").groups(), Groups());

  const ReplicaGroups iota = GroupsOrDie("[2,2]<=[4]");
  EXPECT_EQ(iota.form(), ReplicaGroups::Form::kIota);
  EXPECT_EQ(iota.groups(), (Groups{{0, 1}, {2, 3}}));
  const ReplicaGroups transposed = GroupsOrDie("[2,2]<=[2,2]T(1,0)");
  EXPECT_EQ(transposed.groups(), (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(transposed.ToString(), "[2,2]<=[2,2]T(1,0)");

  const ReplicaGroups minor = GroupsOrDie("mesh['x'=2,'y'=2] {'y'}");
  EXPECT_EQ(minor.form(), ReplicaGroups::Form::kMeshAxes);
  EXPECT_EQ(minor.groups(), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(minor.ToString(), "mesh['x'=2,'y'=2] {'y'}");
  EXPECT_EQ(GroupsOrDie("mesh['x'=2,'y'=2] {'x'}").groups(),
            (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(GroupsOrDie("mesh['x'=2,'y'=2] {'y','x'}").groups(),
            (Groups{{0, 2, 1, 3}}));
  EXPECT_EQ(GroupsOrDie("mesh['stage'=2,'local'=4] {'stage'}").groups(),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(ReplicaGroupsTest, MeshSubAxesAndDeviceIds) {
  // 'x':(2)2 is the minor half of axis x of size 4: positions 0,1 | 2,3.
  EXPECT_EQ(GroupsOrDie("mesh['x'=4] {'x':(2)2}").groups(),
            (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(GroupsOrDie("mesh['x'=4] {'x':(1)2}").groups(),
            (Groups{{0, 2}, {1, 3}}));
  const ReplicaGroups permuted =
      GroupsOrDie("mesh['a'=2,'b'=2], device_ids=(0,2,1,3) {'b'}");
  EXPECT_EQ(permuted.groups(), (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(permuted.ToString(),
            "mesh['a'=2,'b'=2], device_ids=(0,2,1,3) {'b'}");
}

TEST(ReplicaGroupsTest, RejectsUnknownAxesAndBadSubAxes) {
  for (std::string_view text :
       {"mesh['x'=2] {'z'}", "mesh['x'=4] {'x':(3)2}",
        "mesh['x'=4] {'x','x':(1)2}", "[2,2]<=[8]", "[4]<=[4]"}) {
    TextCursor cursor(text);
    EXPECT_FALSE(ReadReplicaGroups(cursor).ok()) << text;
  }
}

}  // namespace
}  // namespace phal
