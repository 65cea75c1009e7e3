#include "core/hlo/sharded_array.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace phal {
namespace {

HloSharding Sharding(const std::string& text) {
  StatusOr<HloSharding> sharding = ParseHloSharding(text);
  EXPECT_TRUE(sharding.ok()) << sharding.status().ToString();
  return sharding.ok() ? *sharding : HloSharding();
}

// 0, 1, 2, ... in an s32 array of `dims`.
Literal Iota(std::vector<int64_t> dims) {
  Literal literal(Shape(PHAL_ELEMENT_TYPE_S32, std::move(dims)));
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    literal.SetFromInt64(i, i);
  }
  return literal;
}

Literal S32(std::vector<int64_t> dims, const std::vector<int32_t>& values) {
  return Literal::FromValues(PHAL_ELEMENT_TYPE_S32, std::move(dims), values);
}

Shape S32Shape(std::vector<int64_t> dims) {
  return Shape(PHAL_ELEMENT_TYPE_S32, std::move(dims));
}

TEST(GlobalShapeOfTest, MultipliesEachDimensionByItsTiles) {
  StatusOr<Shape> global =
      GlobalShapeOf(S32Shape({2, 3}), Sharding("{devices=[2,2]<=[4]}"));
  ASSERT_TRUE(global.ok()) << global.status().ToString();
  EXPECT_EQ(*global, S32Shape({4, 6}));
}

TEST(GlobalShapeOfTest, IgnoresReplicationDimensions) {
  StatusOr<Shape> global =
      GlobalShapeOf(S32Shape({2, 3}),
                    Sharding("{devices=[2,1,2]<=[4] last_tile_dim_replicate}"));
  ASSERT_TRUE(global.ok()) << global.status().ToString();
  EXPECT_EQ(*global, S32Shape({4, 3}));
}

TEST(GlobalShapeOfTest, KeepsWholeArrays) {
  for (const char* text : {"{replicated}", "{manual}", "{maximal device=2}"}) {
    StatusOr<Shape> global = GlobalShapeOf(S32Shape({5}), Sharding(text));
    ASSERT_TRUE(global.ok()) << text << ": " << global.status().ToString();
    EXPECT_EQ(*global, S32Shape({5})) << text;
  }
}

TEST(ShardOfTest, TransposedIotaGivesEachDeviceItsTile) {
  // Device d sits at tile (d % 2, d / 2).
  const HloSharding sharding = Sharding("{devices=[2,2]<=[2,2]T(1,0)}");
  const Literal global = Iota({4, 4});
  const std::vector<Literal> expected = {
      S32({2, 2}, {0, 1, 4, 5}), S32({2, 2}, {8, 9, 12, 13}),
      S32({2, 2}, {2, 3, 6, 7}), S32({2, 2}, {10, 11, 14, 15})};
  for (int64_t device = 0; device < 4; ++device) {
    StatusOr<Literal> piece =
        ShardOf(global, sharding, device, S32Shape({2, 2}));
    ASSERT_TRUE(piece.ok()) << piece.status().ToString();
    EXPECT_EQ(*piece, expected[static_cast<std::size_t>(device)])
        << "device " << device << " got " << piece->ToString();
  }
}

TEST(ShardOfTest, ReplicatedTilesGoToEveryDeviceOfTheirGroup) {
  const HloSharding sharding =
      Sharding("{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  const Literal global = Iota({4, 2});
  for (int64_t device = 0; device < 4; ++device) {
    StatusOr<Literal> piece =
        ShardOf(global, sharding, device, S32Shape({2, 2}));
    ASSERT_TRUE(piece.ok()) << piece.status().ToString();
    EXPECT_EQ(*piece, device < 2 ? S32({2, 2}, {0, 1, 2, 3})
                                 : S32({2, 2}, {4, 5, 6, 7}))
        << "device " << device;
  }
}

TEST(ShardOfTest, PadsTheLastTileWithZeros) {
  StatusOr<Literal> piece =
      ShardOf(Iota({5}), Sharding("{devices=[2]0,1}"), 1, S32Shape({3}));
  ASSERT_TRUE(piece.ok()) << piece.status().ToString();
  EXPECT_EQ(*piece, S32({3}, {3, 4, 0}));
}

TEST(ShardOfTest, GivesEveryDeviceTheWholeReplicatedArray) {
  StatusOr<Literal> piece =
      ShardOf(Iota({2, 3}), Sharding("{replicated}"), 3, S32Shape({2, 3}));
  ASSERT_TRUE(piece.ok()) << piece.status().ToString();
  EXPECT_EQ(*piece, Iota({2, 3}));
}

TEST(ShardOfTest, RefusesAPieceShapeTheShardingDoesNotGive) {
  StatusOr<Literal> piece = ShardOf(
      Iota({4, 4}), Sharding("{devices=[4,1]<=[4]}"), 0, S32Shape({2, 4}));
  ASSERT_FALSE(piece.ok());
  EXPECT_EQ(piece.status().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(piece.status().message().find("{devices=[4,1]<=[4]}"),
            std::string::npos)
      << piece.status().message();
  EXPECT_NE(piece.status().message().find("s32[1,4]"), std::string::npos)
      << piece.status().message();
}

TEST(ShardOfTest, RefusesADeviceOutsideTheSharding) {
  StatusOr<Literal> piece =
      ShardOf(Iota({4}), Sharding("{devices=[2]0,1}"), 3, S32Shape({2}));
  ASSERT_FALSE(piece.ok());
  EXPECT_NE(piece.status().message().find("device 3"), std::string::npos)
      << piece.status().message();
}

TEST(ShardOfTest, RefusesShardingsThatDoNotSplitAnArray) {
  EXPECT_EQ(ShardOf(Iota({4}), Sharding("{unreduced}"), 0, S32Shape({4}))
                .status()
                .code(),
            PHAL_UNIMPLEMENTED);
  EXPECT_EQ(ShardOf(Iota({4}), Sharding("{unknown}"), 0, S32Shape({4}))
                .status()
                .code(),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(
      ShardOf(Iota({4}), Sharding("{devices=[2,2]<=[4]}"), 0, S32Shape({2}))
          .status()
          .code(),
      PHAL_INVALID_ARGUMENT);
}

TEST(AssembleShardsTest, ReversesShardOfAndDropsThePadding) {
  const std::vector<std::string> shardings = {
      "{devices=[2,2]<=[2,2]T(1,0)}",
      "{devices=[1,2,2]<=[4] last_tile_dim_replicate}",
      "{devices=[4,1]3,2,1,0}", "{replicated}", "{maximal device=2}"};
  const Literal global = Iota({5, 3});
  for (const std::string& text : shardings) {
    const HloSharding sharding = Sharding(text);
    StatusOr<Shape> piece_shape = GlobalShapeOf(S32Shape({1, 1}), sharding);
    ASSERT_TRUE(piece_shape.ok());
    Shape local =
        S32Shape({(5 + piece_shape->dims()[0] - 1) / piece_shape->dims()[0],
                  (3 + piece_shape->dims()[1] - 1) / piece_shape->dims()[1]});
    std::vector<Literal> pieces;
    for (int64_t device = 0; device < 4; ++device) {
      StatusOr<Literal> piece = ShardOf(global, sharding, device, local);
      pieces.push_back(piece.ok() ? *std::move(piece) : Literal(local));
    }
    StatusOr<Literal> assembled =
        AssembleShards(pieces, sharding, global.shape());
    ASSERT_TRUE(assembled.ok())
        << text << ": " << assembled.status().ToString();
    EXPECT_EQ(*assembled, global) << text << " gave " << assembled->ToString();
  }
}

TEST(AssembleShardsTest, TakesReplicatedTilesFromTheFirstDevice) {
  const std::vector<Literal> pieces = {S32({2}, {1, 2}), S32({2}, {7, 7})};
  StatusOr<Literal> assembled =
      AssembleShards(pieces, Sharding("{replicated}"), S32Shape({2}));
  ASSERT_TRUE(assembled.ok()) << assembled.status().ToString();
  EXPECT_EQ(*assembled, S32({2}, {1, 2}));
}

TEST(AssembleShardsTest, RefusesTooFewPieces) {
  const std::vector<Literal> pieces = {S32({2}, {1, 2})};
  StatusOr<Literal> assembled =
      AssembleShards(pieces, Sharding("{devices=[2]0,1}"), S32Shape({4}));
  ASSERT_FALSE(assembled.ok());
  EXPECT_NE(assembled.status().message().find("1 of the 2 tiles"),
            std::string::npos)
      << assembled.status().message();
}

TEST(AssembleShardsTest, RefusesAPieceOfAnotherShape) {
  const std::vector<Literal> pieces = {S32({2}, {1, 2}), S32({3}, {3, 4, 5})};
  StatusOr<Literal> assembled =
      AssembleShards(pieces, Sharding("{devices=[2]0,1}"), S32Shape({4}));
  ASSERT_FALSE(assembled.ok());
  EXPECT_NE(assembled.status().message().find("device 1 holds s32[3]"),
            std::string::npos)
      << assembled.status().message();
}

TEST(LeafShardingsTest, GivesEachArrayOfATupleItsSharding) {
  const Shape tuple =
      Shape::Tuple({S32Shape({4}), Shape::Tuple({S32Shape({2, 2})})});
  StatusOr<std::vector<HloSharding>> split =
      LeafShardings(Sharding("{{devices=[2]0,1}, {replicated}}"), tuple);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  ASSERT_EQ(split->size(), 2u);
  EXPECT_EQ((*split)[0], Sharding("{devices=[2]0,1}"));
  EXPECT_EQ((*split)[1], Sharding("{replicated}"));
  StatusOr<std::vector<HloSharding>> shared =
      LeafShardings(Sharding("{replicated}"), tuple);
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->size(), 2u);
}

}  // namespace
}  // namespace phal
