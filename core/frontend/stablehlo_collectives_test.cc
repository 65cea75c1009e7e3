// SPMD programs in the StableHLO front end: the process grid, the
// collective ops as HLO collective instructions and mhlo.sharding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// What JAX writes for a program over four partitions (shard_map bodies and
// XLA's SPMD output use the same collectives).
constexpr char kFourPartitions[] = R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<8x4xf32> {jax.result_info = ""}) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<16x4xf32>
    %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<16x4xf32>) -> tensor<8x4xf32>
    %3 = "stablehlo.all_to_all"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<8x4xf32>) -> tensor<32x1xf32>
    %4 = "stablehlo.collective_permute"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x1xf32>) -> tensor<32x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<32x1xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.partition_id : tensor<ui32>
    %7 = stablehlo.convert %6 {mhlo.sharding = "{manual}"} : (tensor<ui32>) -> tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %9 = stablehlo.add %5, %8 : tensor<8x4xf32>
    return %9 : tensor<8x4xf32>
  }
}
)";

const HloInstruction* FindOpcode(const HloModule& module, HloOpcode opcode) {
  for (const HloInstruction* instruction :
       module.entry_computation()->instructions()) {
    if (instruction->opcode() == opcode) return instruction;
  }
  ADD_FAILURE() << "no " << HloOpcodeName(opcode);
  return nullptr;
}

std::string ErrorOf(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "bad.mlir");
  EXPECT_FALSE(program.ok()) << "parsed:\n" << text;
  return program.ok() ? "" : std::string(program.status().message());
}

TEST(StableHloCollectivesTest, LowersTheGridAndEveryCollective) {
  StatusOr<StableHloModule> program = ParseStableHlo(kFourPartitions, "f.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const HloModule& module = *program->module;
  EXPECT_EQ(module.replica_count(), 1);
  EXPECT_EQ(module.num_partitions(), 4);
  ASSERT_TRUE(VerifyModule(module).ok()) << VerifyModule(module).message();

  const HloInstruction* reduce = FindOpcode(module, HloOpcode::kAllReduce);
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->channel_id(), 1);
  EXPECT_TRUE(reduce->use_global_device_ids());
  EXPECT_EQ(reduce->replica_groups().groups(),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}}));
  ASSERT_NE(reduce->to_apply(), nullptr);

  const HloInstruction* gather = FindOpcode(module, HloOpcode::kAllGather);
  ASSERT_NE(gather, nullptr);
  EXPECT_EQ(gather->shape().ToString(), "f32[16,4]");
  EXPECT_EQ(gather->dimensions(), std::vector<int64_t>{0});

  const HloInstruction* scatter = FindOpcode(module, HloOpcode::kReduceScatter);
  ASSERT_NE(scatter, nullptr);
  EXPECT_EQ(scatter->shape().ToString(), "f32[8,4]");

  // split_dimension 1 and concat_dimension 0: exchanged along a leading
  // axis of the parts, as XLA builds it.
  const HloInstruction* all_to_all = FindOpcode(module, HloOpcode::kAllToAll);
  ASSERT_NE(all_to_all, nullptr);
  EXPECT_EQ(all_to_all->dimensions(), std::vector<int64_t>{0});
  EXPECT_EQ(all_to_all->shape().ToString(), "f32[4,8,1]");

  const HloInstruction* permute =
      FindOpcode(module, HloOpcode::kCollectivePermute);
  ASSERT_NE(permute, nullptr);
  EXPECT_EQ(permute->source_target_pairs().size(), 4u);
  EXPECT_EQ(permute->channel_id(), 5);

  EXPECT_NE(FindOpcode(module, HloOpcode::kPartitionId), nullptr);
  const HloInstruction* parameter =
      module.entry_computation()->parameter_instruction(0);
  ASSERT_TRUE(parameter->sharding().has_value());
  EXPECT_EQ(parameter->sharding()->ToString(), "{devices=[4,1]<=[4]}");
  const HloInstruction* convert = FindOpcode(module, HloOpcode::kConvert);
  ASSERT_NE(convert, nullptr);
  ASSERT_TRUE(convert->sharding().has_value());
  EXPECT_EQ(convert->sharding()->kind(), HloSharding::Kind::kManual);
}

TEST(StableHloCollectivesTest, TheLoweredModuleRoundTripsThroughHloText) {
  StatusOr<StableHloModule> program = ParseStableHlo(kFourPartitions, "f.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const std::string text = HloModuleToText(*program->module);
  StatusOr<std::unique_ptr<HloModule>> reread = ParseHloText(text, "f.hlo");
  ASSERT_TRUE(reread.ok()) << reread.status().message() << "\n" << text;
  EXPECT_TRUE(program->module->Identical(**reread)) << text;
}

TEST(StableHloCollectivesTest, OneProcessKnowsItsIds) {
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
    func.func @main() -> tensor<ui32> {
      %0 = stablehlo.replica_id : tensor<ui32>
      return %0 : tensor<ui32>
    })",
                                                     "one.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_EQ(program->module->entry_computation()->root_instruction()->opcode(),
            HloOpcode::kConstant);
}

TEST(StableHloCollectivesTest, BadGroupsAndShardingsAreLocated) {
  const std::string overlap =
      ErrorOf(R"(module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
})");
  EXPECT_THAT(overlap,
              HasSubstr("bad.mlir:3:5: error: stablehlo.all_gather: "
                        "process 1 is in more than one replica group"));
  const std::string split =
      ErrorOf(R"(module attributes {mhlo.num_partitions = 3 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, split_count = 3 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
})");
  EXPECT_THAT(split, HasSubstr("bad.mlir:3:5: error: stablehlo.all_to_all: "
                               "the split dimension 0 of f32[4] does not "
                               "split into 3 equal parts"));
  const std::string sharding =
      ErrorOf(R"(module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4xf32> {mhlo.sharding = "{devices=[2]0,1,2}"}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
})");
  EXPECT_THAT(sharding, HasSubstr("bad.mlir:2:64: error: the tile assignment "
                                  "[2] needs 2 devices, the list has 3"));
}

}  // namespace
}  // namespace phal
