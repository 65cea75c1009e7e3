// Global programs around a computation manual over every device (what
// JAX's shard_map lowers to, with Shardy and with GSPMD) become the
// per-device program: pieces in and out, each with the sharding that splits
// its global array.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// jax.jit(shard_map(f, mesh, in_specs=(P("x"), P(None, "x")),
//                   out_specs=(P("x"), P()))) with Shardy.
constexpr char kShardy[] = R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<3x4xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<12x1xf32> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}, {}]>] manual_axes={"x"} (%arg2: tensor<2xf32>, %arg3: tensor<3x1xf32>) {
      %1 = "stablehlo.all_reduce"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<3x1xf32>) -> tensor<12x1xf32>
      sdy.return %1, %2 : tensor<2xf32>, tensor<12x1xf32>
    } : (tensor<8xf32>, tensor<3x4xf32>) -> (tensor<8xf32>, tensor<12x1xf32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<12x1xf32>
  }
}
)";

// The same program with Shardy off: GSPMD's boundary custom calls around a
// call of the body.
constexpr char kGspmd[] = R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<12x1xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[1,4]<=[4]}"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<3x4xf32>) -> tensor<3x1xf32>
    %4:2 = call @shmap_body(%1, %3) : (tensor<2xf32>, tensor<3x1xf32>) -> (tensor<2xf32>, tensor<12x1xf32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<12x1xf32>) -> tensor<12x1xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<12x1xf32>) -> tensor<12x1xf32>
    return %6, %8 : tensor<8xf32>, tensor<12x1xf32>
  }
  func.func private @shmap_body(%arg0: tensor<2xf32>, %arg1: tensor<3x1xf32>) -> (tensor<2xf32>, tensor<12x1xf32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<3x1xf32>) -> tensor<12x1xf32>
    return %0, %1 : tensor<2xf32>, tensor<12x1xf32>
  }
}
)";

// A manual computation over a 2 x 2 mesh (and its device order) with
// `in_shardings` for an f32[4,4] argument whose pieces are `piece`.
std::string OnGrid(const std::string& mesh, const std::string& in_sharding,
                   const std::string& piece,
                   const std::string& manual_axes = "\"x\", \"y\"") {
  return R"(
module @jit_g attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = )" +
         mesh + R"(
  func.func public @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[)" +
         in_sharding + "] out_shardings=[" + in_sharding + "] manual_axes={" +
         manual_axes + "} (%arg1: tensor<" + piece +
         R"(xf32>) {
      %1 = stablehlo.negate %arg1 : tensor<)" +
         piece + R"(xf32>
      sdy.return %1 : tensor<)" +
         piece + R"(xf32>
    } : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
)";
}

void ExpectPerDeviceProgram(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "f.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const HloModule& module = *program->module;
  ASSERT_TRUE(VerifyModule(module).ok()) << VerifyModule(module).message();
  EXPECT_EQ(module.replica_count(), 1);
  EXPECT_EQ(module.num_partitions(), 4);
  const HloComputation& entry = *module.entry_computation();
  ASSERT_EQ(entry.num_parameters(), 2);
  const HloInstruction& a = *entry.parameter_instruction(0);
  const HloInstruction& b = *entry.parameter_instruction(1);
  EXPECT_EQ(a.shape().ToString(), "f32[2]");
  EXPECT_EQ(b.shape().ToString(), "f32[3,1]");
  ASSERT_TRUE(a.sharding().has_value());
  ASSERT_TRUE(b.sharding().has_value());
  EXPECT_EQ(a.sharding()->ToString(), "{devices=[4]<=[4]}");
  EXPECT_EQ(b.sharding()->ToString(), "{devices=[1,4]<=[4]}");
  const HloInstruction& root = *entry.root_instruction();
  EXPECT_EQ(root.shape().ToString(), "(f32[2], f32[12,1])");
  ASSERT_TRUE(root.sharding().has_value());
  EXPECT_EQ(root.sharding()->ToString(), "{{devices=[4]<=[4]}, {replicated}}");
}

TEST(StableHloManualComputationTest, ShardyBodyBecomesThePerDeviceProgram) {
  ExpectPerDeviceProgram(kShardy);
}

TEST(StableHloManualComputationTest, GspmdBodyBecomesThePerDeviceProgram) {
  ExpectPerDeviceProgram(kGspmd);
}

TEST(StableHloManualComputationTest, ThePerDeviceProgramRoundTripsAsHloText) {
  for (const char* text : {kShardy, kGspmd}) {
    StatusOr<StableHloModule> program = ParseStableHlo(text, "f.mlir");
    ASSERT_TRUE(program.ok()) << program.status().message();
    const std::string hlo = HloModuleToText(*program->module);
    StatusOr<std::unique_ptr<HloModule>> reread = ParseHloText(hlo, "f.hlo");
    ASSERT_TRUE(reread.ok()) << reread.status().message() << "\n" << hlo;
    EXPECT_TRUE(program->module->Identical(**reread)) << hlo;
    EXPECT_NE(hlo.find("sharding={{devices=[4]<=[4]}, {replicated}}"),
              std::string::npos)
        << hlo;
  }
}

TEST(StableHloManualComputationTest, ReadsAShardMapJittedInsideJit) {
  // jax.jit(lambda x: jax.jit(shard_map(...))(x)): the entry calls a
  // private function holding the manual computation.
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = call @"<lambda>"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @"<lambda>"(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      sdy.return %1 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)",
                                                     "nested.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  ASSERT_TRUE(VerifyModule(*program->module).ok());
  const HloComputation& entry = *program->module->entry_computation();
  EXPECT_EQ(entry.parameter_instruction(0)->shape().ToString(), "f32[2]");
  EXPECT_EQ(entry.parameter_instruction(0)->sharding()->ToString(),
            "{devices=[4]<=[4]}");
  EXPECT_EQ(entry.root_instruction()->shape().ToString(), "f32[8]");
  EXPECT_EQ(entry.root_instruction()->sharding()->ToString(), "{replicated}");
}

// The sharding of the single parameter of an OnGrid program.
std::string ParameterSharding(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "g.mlir");
  EXPECT_TRUE(program.ok()) << program.status().message();
  if (!program.ok()) return "";
  const HloComputation& entry = *program->module->entry_computation();
  const HloInstruction& root = *entry.root_instruction();
  EXPECT_EQ(root.sharding(), entry.parameter_instruction(0)->sharding());
  const auto& sharding = entry.parameter_instruction(0)->sharding();
  return sharding.has_value() ? sharding->ToString() : "none";
}

TEST(StableHloManualComputationTest, TilesFollowTheMeshAxesOfEachDimension) {
  EXPECT_EQ(ParameterSharding(OnGrid(R"(<["x"=2, "y"=2]>)",
                                     R"(<@mesh, [{"x"}, {"y"}]>)", "2x2")),
            "{devices=[2,2]<=[4]}");
  EXPECT_EQ(ParameterSharding(OnGrid(R"(<["x"=2, "y"=2]>)",
                                     R"(<@mesh, [{"y"}, {"x"}]>)", "2x2")),
            "{devices=[2,2]<=[2,2]T(1,0)}");
  EXPECT_EQ(ParameterSharding(OnGrid(R"(<["x"=2, "y"=2]>)",
                                     R"(<@mesh, [{}, {"y", "x"}]>)", "4x1")),
            "{devices=[1,4]<=[2,2]T(1,0)}");
}

TEST(StableHloManualComputationTest, UnusedMeshAxesReplicateTheTiles) {
  EXPECT_EQ(ParameterSharding(OnGrid(R"(<["x"=2, "y"=2]>)",
                                     R"(<@mesh, [{"x"}, {}]>)", "2x4")),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ParameterSharding(OnGrid(R"(<["x"=2, "y"=2]>)",
                                     R"(<@mesh, [{}, {"y"}]>)", "4x2")),
            "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(ParameterSharding(
                OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{}, {}]>)", "4x4")),
            "{replicated}");
}

TEST(StableHloManualComputationTest, ReadsOpenDimensionsAndPriorities) {
  EXPECT_EQ(ParameterSharding(OnGrid(
                R"(<["x"=2, "y"=2]>)",
                R"(<@mesh, [{"x", ?}p1, {?}], replicated={"y"}>)", "2x4")),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
}

TEST(StableHloManualComputationTest, MeshDeviceIdsNameTheDevices) {
  EXPECT_EQ(
      ParameterSharding(OnGrid(R"(<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>)",
                               R"(<@mesh, [{"x"}, {"y"}]>)", "2x2")),
      "{devices=[2,2]3,2,1,0}");
}

Status StatusOf(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "bad.mlir");
  EXPECT_FALSE(program.ok()) << "parsed:\n" << text;
  return program.ok() ? OkStatus() : program.status();
}

TEST(StableHloManualComputationTest, RefusesAPartiallyManualComputation) {
  const Status status = StatusOf(
      OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{"x"}, {}]>)", "2x4", "\"x\""));
  EXPECT_EQ(status.code(), PHAL_UNIMPLEMENTED);
  EXPECT_THAT(status.message(), HasSubstr("bad.mlir:5:"));
  EXPECT_THAT(status.message(), HasSubstr("not \"y\""));
  EXPECT_THAT(status.message(), HasSubstr("partially manual"));
}

TEST(StableHloManualComputationTest, RefusesJaxsPartiallyManualShardMap) {
  // shard_map(..., mesh=grid, axis_names={"x"}): "y" stays automatic, and
  // JAX constrains the body's values along it.
  const Status status = StatusOf(R"(
module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<2x4xf32>) {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<2x4xf32>
      %3 = stablehlo.multiply %arg1, %2 : tensor<2x4xf32>
      sdy.return %3 : tensor<2x4xf32>
    } : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
)");
  EXPECT_EQ(status.code(), PHAL_UNIMPLEMENTED);
  EXPECT_THAT(status.message(), HasSubstr("bad.mlir:5:"));
  EXPECT_THAT(status.message(), HasSubstr("partially manual"));
}

TEST(StableHloManualComputationTest, RefusesShardingsItCannotConvert) {
  const Status unknown_axis =
      StatusOf(OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{"z"}, {}]>)", "2x4"));
  EXPECT_EQ(unknown_axis.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(unknown_axis.message(), HasSubstr("bad.mlir:5:"));
  EXPECT_THAT(unknown_axis.message(), HasSubstr("no axis \"z\""));
  const Status twice = StatusOf(
      OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{"x"}, {"x"}]>)", "2x2"));
  EXPECT_THAT(twice.message(), HasSubstr("axis \"x\" is used twice"));
  const Status sub_axis = StatusOf(
      OnGrid(R"(<["x"=4]>)", R"(<@mesh, [{"x":(1)2}, {}]>)", "2x4", "\"x\""));
  EXPECT_EQ(sub_axis.code(), PHAL_UNIMPLEMENTED);
  EXPECT_THAT(sub_axis.message(), HasSubstr("sub-axes"));
  const Status no_mesh = StatusOf(
      OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@other, [{"x"}, {}]>)", "2x4"));
  EXPECT_THAT(no_mesh.message(), HasSubstr("no sdy.mesh @other"));
  const Status bad_pieces =
      StatusOf(OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{"x"}, {}]>)", "2x2"));
  EXPECT_THAT(bad_pieces.message(),
              HasSubstr("pieces of f32[2,2] split by {devices=[2,1,2]<=[4] "
                        "last_tile_dim_replicate} make f32[4,2], not "
                        "f32[4,4]"));
  const Status small_mesh = StatusOf(
      OnGrid(R"(<["x"=2]>)", R"(<@mesh, [{"x"}, {}]>)", "2x4", "\"x\""));
  EXPECT_THAT(small_mesh.message(), HasSubstr("the mesh @mesh has 2 devices"));
}

TEST(StableHloManualComputationTest, RefusesOpsOnGlobalArrays) {
  std::string text = kGspmd;
  const std::string call = "%4:2 = call @shmap_body(%1, %3)";
  text.insert(text.find(call),
              "%9 = stablehlo.negate %arg0 : tensor<8xf32>\n    ");
  const Status status = StatusOf(text);
  EXPECT_EQ(status.code(), PHAL_UNIMPLEMENTED);
  EXPECT_THAT(status.message(), HasSubstr("bad.mlir:8:5:"));
  EXPECT_THAT(status.message(),
              HasSubstr("stablehlo.negate works on the global array %arg0"));
}

TEST(StableHloManualComputationTest,
     AGlobalProgramWithoutOneIsForThePartitioner) {
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
module @jit_h attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)",
                                                     "f.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const HloModule& module = *program->module;
  EXPECT_TRUE(module.spmd_global());
  const HloInstruction& parameter =
      *module.entry_computation()->parameter_instruction(0);
  ASSERT_TRUE(parameter.sharding().has_value());
  EXPECT_EQ(parameter.sharding()->ToString(), "{devices=[4]<=[4]}");
  EXPECT_EQ(parameter.shape().dim(0), 8);
}

TEST(StableHloManualComputationTest,
     AConstraintThatSplitsNothingPassesTheValue) {
  // What jax.random.split writes around a key it keeps replicated.
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
module @jit_split attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]>
  func.func public @main(%arg0: tensor<2xui32>) -> tensor<2xui32> {
    %0 = sdy.sharding_constraint %arg0 <@empty_mesh, [{}]> : tensor<2xui32>
    %1 = stablehlo.add %0, %0 : tensor<2xui32>
    return %1 : tensor<2xui32>
  }
}
)",
                                                     "f.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const HloInstruction& root =
      *program->module->entry_computation()->root_instruction();
  EXPECT_EQ(root.opcode(), HloOpcode::kAdd);
  EXPECT_EQ(root.operand(0)->opcode(), HloOpcode::kParameter);
  // One that splits a dimension is a constraint for the partitioner: a
  // copy carrying the sharding.
  StatusOr<StableHloModule> split = ParseStableHlo(R"(
module @jit_h attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)",
                                                   "f.mlir");
  ASSERT_TRUE(split.ok()) << split.status().message();
  EXPECT_TRUE(split->module->spmd_global());
  const HloInstruction& constraint =
      *split->module->entry_computation()->root_instruction();
  EXPECT_EQ(constraint.opcode(), HloOpcode::kCopy);
  ASSERT_TRUE(constraint.sharding().has_value());
  EXPECT_EQ(constraint.sharding()->ToString(), "{devices=[4]<=[4]}");
}

TEST(StableHloManualComputationTest, ReportsMalformedShardyTextWhereItIs) {
  const Status status = StatusOf(
      OnGrid(R"(<["x"=2, "y"=2]>)", R"(<@mesh, [{"x" "y"}, {}]>)", "2x4"));
  EXPECT_EQ(status.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(status.message(), HasSubstr("expected ',' or '}'"));
  EXPECT_THAT(status.message(), HasSubstr("bad.mlir:5:"));
}

}  // namespace
}  // namespace phal
