// The SPMD partitioner on global programs: each per-device program, run by
// the reference on every device with the global arguments split by its
// parameters' shardings, assembles (by its root's sharding) into what the
// reference computes on the global program; and the collectives it writes
// are the ones the shardings call for.
#include "core/compiler/spmd_partitioner.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/spmd_sharding.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/sharded_array.h"
#include "core/reference/interpreter.h"
#include "core/reference/spmd_interpreter.h"
#include "core/testing/literal_comparison.h"

namespace phal {
namespace {

using ::phal::testing::FlattenLiteral;
using ::phal::testing::Matches;

Literal RandomArgument(const Shape& shape, std::mt19937& random) {
  Literal literal(shape);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_int_distribution<int64_t> integer(-50, 50);
  const ElementType type = shape.element_type();
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    if (type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64) {
      literal.SetFromDouble(i, real(random));
    } else if (type == PHAL_ELEMENT_TYPE_PRED) {
      literal.SetFromDouble(i, static_cast<double>(integer(random) > 0));
    } else {
      literal.SetFromDouble(i, static_cast<double>(integer(random)));
    }
  }
  return literal;
}

int64_t CountOpcode(const HloModule& module, HloOpcode opcode) {
  int64_t count = 0;
  for (const HloInstruction* instruction :
       module.entry_computation()->instructions()) {
    count += instruction->opcode() == opcode;
  }
  return count;
}

// Partitions `global`, runs both, and compares. Returns the partitioned
// module for further checks.
std::unique_ptr<HloModule> ExpectPartitionedMatches(const HloModule& global) {
  EXPECT_TRUE(global.spmd_global());
  StatusOr<std::unique_ptr<HloModule>> partitioned = PartitionSpmd(global);
  EXPECT_TRUE(partitioned.ok()) << partitioned.status().ToString();
  if (!partitioned.ok()) return nullptr;
  const HloModule& local = **partitioned;
  const int64_t devices = local.num_partitions();
  EXPECT_EQ(devices, global.num_partitions());
  std::mt19937 random(7);
  std::vector<Literal> arguments;
  for (const HloInstruction* parameter :
       global.entry_computation()->parameter_instructions()) {
    arguments.push_back(RandomArgument(parameter->shape(), random));
  }
  StatusOr<Literal> expected = Evaluate(global, arguments);
  EXPECT_TRUE(expected.ok()) << expected.status().ToString();
  if (!expected.ok()) return nullptr;
  std::vector<std::vector<Literal>> pieces(static_cast<std::size_t>(devices));
  const HloComputation& entry = *local.entry_computation();
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction& parameter = *entry.parameter_instruction(i);
    for (int64_t device = 0; device < devices; ++device) {
      StatusOr<Literal> piece =
          ShardOf(arguments[static_cast<std::size_t>(i)],
                  parameter.sharding().value_or(HloSharding::Replicated()),
                  device, parameter.shape());
      EXPECT_TRUE(piece.ok()) << piece.status().ToString();
      if (!piece.ok()) return nullptr;
      pieces[static_cast<std::size_t>(device)].push_back(*std::move(piece));
    }
  }
  StatusOr<std::vector<Literal>> results = EvaluateSpmd(local, pieces);
  EXPECT_TRUE(results.ok()) << results.status().ToString() << "\n"
                            << HloModuleToText(local);
  if (!results.ok()) return nullptr;
  const HloInstruction& root = *entry.root_instruction();
  StatusOr<std::vector<HloSharding>> shardings = LeafShardings(
      root.sharding().value_or(HloSharding::Replicated()), root.shape());
  EXPECT_TRUE(shardings.ok());
  std::vector<Literal> expected_leaves;
  FlattenLiteral(*expected, &expected_leaves);
  std::vector<std::vector<Literal>> device_leaves;
  for (const Literal& result : *results) {
    FlattenLiteral(result, &device_leaves.emplace_back());
  }
  for (std::size_t leaf = 0; leaf < expected_leaves.size(); ++leaf) {
    std::vector<Literal> per_device;
    for (std::vector<Literal>& leaves : device_leaves) {
      per_device.push_back(leaves[leaf]);
    }
    StatusOr<Literal> assembled = AssembleShards(per_device, (*shardings)[leaf],
                                                 expected_leaves[leaf].shape());
    EXPECT_TRUE(assembled.ok()) << assembled.status().ToString();
    if (!assembled.ok()) return nullptr;
    EXPECT_TRUE(Matches(*assembled, expected_leaves[leaf], 1e-4))
        << "result " << leaf << "\n"
        << HloModuleToText(local);
  }
  return std::move(partitioned).value();
}

std::unique_ptr<HloModule> Parse(const std::string& text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(module).value() : nullptr;
}

TEST(SpmdMeshTest, ReadsXlaTilingsAsAxes) {
  const SpmdMesh mesh({2, 2});
  // [2,2]<=[2,2]T(1,0): dimension 1 over the major axis ("model" of a
  // data x model mesh), replicated over the minor one.
  StatusOr<HloSharding> sharding = ParseHloSharding(
      "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
  ASSERT_TRUE(sharding.ok());
  std::optional<SpmdSharding> axes = SpmdShardingFromHlo(*sharding, 2, mesh);
  ASSERT_TRUE(axes.has_value());
  EXPECT_EQ(axes->ToString(), "{[],[1]}");
  // Back to an HloSharding that lays the array over the same devices.
  const HloSharding back = SpmdShardingToHlo(*axes, mesh);
  for (int64_t device = 0; device < 4; ++device) {
    Literal global = Literal::FromValues<float>(PHAL_ELEMENT_TYPE_F32, {2, 4},
                                                {0, 1, 2, 3, 4, 5, 6, 7});
    StatusOr<Literal> a = ShardOf(global, *sharding, device,
                                  Shape(PHAL_ELEMENT_TYPE_F32, {2, 2}));
    StatusOr<Literal> b =
        ShardOf(global, back, device, Shape(PHAL_ELEMENT_TYPE_F32, {2, 2}));
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_TRUE(Matches(*a, *b, 0)) << "device " << device;
  }
  // An explicit list no choice of axes reproduces is not expressible.
  StatusOr<HloSharding> odd = ParseHloSharding("{devices=[4]0,2,3,1}");
  ASSERT_TRUE(odd.ok());
  EXPECT_FALSE(SpmdShardingFromHlo(*odd, 1, mesh).has_value());
  // Six devices: a [3,2] tiling picks the mesh order 3, 2.
  StatusOr<HloSharding> six = ParseHloSharding("{devices=[3,2]<=[6]}");
  ASSERT_TRUE(six.ok());
  EXPECT_TRUE(SpmdShardingFromHlo(*six, 2, SpmdMesh({3, 2})).has_value());
}

TEST(SpmdPartitionerTest, HloWithShardingsIsGlobal) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  ROOT n = f32[8,4] negate(x)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->spmd_global());
  EXPECT_EQ(module->num_partitions(), 4);
  // With num_partitions in the header it is a per-device program.
  auto local = Parse(R"(HloModule m, num_partitions=4
ENTRY e {
  x = f32[2,4] parameter(0), sharding={devices=[4,1]<=[4]}
  ROOT n = f32[2,4] negate(x)
})");
  ASSERT_NE(local, nullptr);
  EXPECT_FALSE(local->spmd_global());
}

TEST(SpmdPartitionerTest, DataParallelDenseLayerNeedsNoCollective) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[8,6] parameter(0), sharding={devices=[4,1]<=[4]}
  w = f32[6,5] parameter(1), sharding={replicated}
  b = f32[5] parameter(2), sharding={replicated}
  d = f32[8,5] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[8,5] broadcast(b), dimensions={1}
  s = f32[8,5] add(d, bb)
  ROOT t = f32[8,5] tanh(s), sharding={devices=[4,1]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  CommunicationCost cost = *CommunicationCostOf(*local);
  EXPECT_EQ(cost.collective_count, 0) << HloModuleToText(*local);
  EXPECT_EQ(
      local->entry_computation()->parameter_instruction(0)->shape().dim(0), 2);
}

TEST(SpmdPartitionerTest, MegatronMlpAllReducesOnce) {
  // Column-split first layer, row-split second: one all-reduce of the
  // output, as Megatron-LM does it.
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[4,8] parameter(0), sharding={replicated}
  w1 = f32[8,16] parameter(1), sharding={devices=[1,4]<=[4]}
  w2 = f32[16,8] parameter(2), sharding={devices=[4,1]<=[4]}
  h = f32[4,16] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  g = f32[4,16] tanh(h)
  ROOT y = f32[4,8] dot(g, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={replicated}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllReduce), 1);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllGather), 0);
  // 4x8 f32 = 128 bytes, all-reduced over 4: 2 * 3/4 * 128.
  EXPECT_EQ(CommunicationCostOf(*local)->bytes_sent, 192);
}

TEST(SpmdPartitionerTest, PartialSumToSplitResultIsReduceScatter) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[8,16] parameter(0), sharding={devices=[1,4]<=[4]}
  w = f32[16,8] parameter(1), sharding={devices=[4,1]<=[4]}
  ROOT y = f32[8,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[4,1]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kReduceScatter), 1);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllReduce), 0);
}

TEST(SpmdPartitionerTest, ReductionsOverSplitDimensions) {
  auto module = Parse(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[8,12] parameter(0), sharding={devices=[2,2]<=[4]}
  zero = f32[] constant(0)
  low = f32[] constant(-inf)
  rows = f32[8] reduce(x, zero), dimensions={1}, to_apply=add
  cols = f32[12] reduce(x, low), dimensions={0}, to_apply=max
  one = f32[] constant(1)
  biased = f32[8] reduce(x, one), dimensions={1}, to_apply=add
  ROOT t = (f32[8], f32[12], f32[8]) tuple(rows, cols, biased)
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
}

TEST(SpmdPartitionerTest, ReshapeTransposeAndBroadcastCarrySplits) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[8,6] parameter(0), sharding={devices=[4,1]<=[4]}
  r = f32[4,2,6] reshape(x)
  t = f32[6,4,2] transpose(r), dimensions={2,0,1}
  m = f32[6,8] reshape(t)
  b = f32[3,6,8] broadcast(m), dimensions={1,2}
  ROOT c = f32[3,6,8] cosine(b), sharding={devices=[1,1,4]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  // The split dimension moves along: nothing is gathered.
  EXPECT_EQ(CommunicationCostOf(*local)->collective_count, 0)
      << HloModuleToText(*local);
}

TEST(SpmdPartitionerTest, FsdpWeightsAreGathered) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[16,8] parameter(0), sharding={devices=[4,1]<=[4]}
  w = f32[8,4] parameter(1), sharding={devices=[4,1]<=[4]}
  ROOT y = f32[16,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[4,1]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllGather), 1);
}

TEST(SpmdPartitionerTest, OpsWithoutRulesRunOnWholeValues) {
  auto module = Parse(R"(HloModule m
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ENTRY e {
  x = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  s = f32[8,4] sort(x), dimensions={0}, to_apply=less
  i = s32[8,4] iota(), iota_dimension=0
  c = f32[8,4] convert(i)
  a = f32[8,4] add(s, c)
  sl = f32[4,4] slice(a), slice={[2:6], [0:4]}
  z = f32[] constant(0)
  ROOT p = f32[6,4] pad(sl, z), padding=1_1x0_0, sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
})");
  ASSERT_NE(module, nullptr);
  ExpectPartitionedMatches(*module);
}

TEST(SpmdPartitionerTest, GatherAndSortKeepTheSplitsTheyLeaveAlone) {
  // An embedding lookup whose table is split by features and whose ids are
  // split by batch, and a sort along an unsplit dimension: no collective.
  auto module = Parse(R"(HloModule m
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ENTRY e {
  table = f32[16,8] parameter(0), sharding={devices=[1,2,2]<=[4] last_tile_dim_replicate}
  ids = s32[4,3] parameter(1), sharding={devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}
  rows = f32[4,3,8] gather(table, ids), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,8}
  sorted = f32[4,3,8] sort(rows), dimensions={1}, to_apply=less
  ROOT out = f32[4,3,8] negate(sorted), sharding={devices=[2,1,2]<=[2,2]T(1,0)}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CommunicationCostOf(*local)->collective_count, 0)
      << HloModuleToText(*local);
}

TEST(SpmdPartitionerTest, LoopsKeepTheirStateSplit) {
  // A scan over stacked layers: the carried activations split by batch,
  // the stacked weights by their output features; every iteration works on
  // pieces, and only the layer's output features are joined.
  auto module = Parse(R"(HloModule m
cond {
  s = (s32[], f32[8,4], f32[3,4,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[8,4], f32[3,4,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[8,4] get-tuple-element(s), index=1
  ws = f32[3,4,4] get-tuple-element(s), index=2
  zero = s32[] constant(0)
  w1 = f32[1,4,4] dynamic-slice(ws, i, zero, zero), dynamic_slice_sizes={1,4,4}
  w = f32[4,4] reshape(w1)
  d = f32[8,4] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[8,4] tanh(d)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT r = (s32[], f32[8,4], f32[3,4,4]) tuple(j, t, ws)
}
ENTRY e {
  x = f32[8,4] parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  ws = f32[3,4,4] parameter(1), sharding={devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}
  start = s32[] constant(0)
  init = (s32[], f32[8,4], f32[3,4,4]) tuple(start, x, ws)
  loop = (s32[], f32[8,4], f32[3,4,4]) while(init), condition=cond, body=body
  ROOT out = f32[8,4] get-tuple-element(loop), index=1, sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  // The loop runs on pieces: its state holds [4,4] activations and
  // [3,4,2] weights.
  const HloInstruction* loop = nullptr;
  for (const HloInstruction* instruction :
       local->entry_computation()->instructions()) {
    if (instruction->opcode() == HloOpcode::kWhile) loop = instruction;
  }
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->shape().tuple_shapes()[1].dims(),
            (std::vector<int64_t>{4, 4}))
      << HloModuleToText(*local);
  EXPECT_EQ(loop->shape().tuple_shapes()[2].dims(),
            (std::vector<int64_t>{3, 4, 2}));
}

TEST(SpmdPartitionerTest, PoolingKeepsTheBatchSplit) {
  auto module = Parse(R"(HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[4,8,8,2] parameter(0), sharding={devices=[4,1,1,1]<=[4]}
  low = f32[] constant(-inf)
  ROOT p = f32[4,4,4,2] reduce-window(x, low), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=max, sharding={devices=[4,1,1,1]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CommunicationCostOf(*local)->collective_count, 0);
}

TEST(SpmdPartitionerTest, UnevenSplitsAreDropped) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[6,5] parameter(0), sharding={devices=[4,1]<=[4]}
  y = f32[6,5] parameter(1), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  ROOT s = f32[6,5] multiply(x, y), sharding={devices=[1,4]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  ExpectPartitionedMatches(*module);
}

TEST(SpmdPartitionerTest, TwoByTwoMeshAttentionHeads) {
  // [batch, heads, seq, dim] with batch over "data" and heads over
  // "model" on a 2x2 mesh, as jax writes P("data", "model").
  auto module = Parse(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  q = f32[2,4,8,4] parameter(0), sharding={devices=[2,2,1,1]<=[4]}
  k = f32[2,4,8,4] parameter(1), sharding={devices=[2,2,1,1]<=[4]}
  v = f32[2,4,8,4] parameter(2), sharding={devices=[2,2,1,1]<=[4]}
  s = f32[2,4,8,8] dot(q, k), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_contracting_dims={3}
  low = f32[] constant(-inf)
  m = f32[2,4,8] reduce(s, low), dimensions={3}, to_apply=max
  mb = f32[2,4,8,8] broadcast(m), dimensions={0,1,2}
  d = f32[2,4,8,8] subtract(s, mb)
  e = f32[2,4,8,8] exponential(d)
  zero = f32[] constant(0)
  z = f32[2,4,8] reduce(e, zero), dimensions={3}, to_apply=add
  zb = f32[2,4,8,8] broadcast(z), dimensions={0,1,2}
  p = f32[2,4,8,8] divide(e, zb)
  ROOT o = f32[2,4,8,4] dot(p, v), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_contracting_dims={2}, sharding={devices=[2,2,1,1]<=[4]}
})");
  ASSERT_NE(module, nullptr);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(CommunicationCostOf(*local)->collective_count, 0)
      << HloModuleToText(*local);
}

TEST(SpmdPartitionerTest, JaxShardyHloWithConstraintAndResultMark) {
  // What jax.jit(...).lower(...).as_text(dialect="hlo") prints for a
  // 2x2 data x model mesh.
  auto module = Parse(
      R"(HloModule jit_f, entry_computation_layout={(f32[8,16]{1,0}, f32[16,32]{1,0}, f32[32,16]{1,0})->f32[8]{0}}, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["data"=2, "model"=2]>}}
region_0.1 {
  reduce_sum.3 = f32[] parameter(0)
  reduce_sum.4 = f32[] parameter(1)
  ROOT reduce_sum.5 = f32[] add(reduce_sum.3, reduce_sum.4)
}
ENTRY main.2 {
  x.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{\"data\"}, {}]>"}
  w1.1 = f32[16,32]{1,0} parameter(1), sharding={devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{}, {\"model\"}]>"}
  dot_general.2 = f32[8,32]{1,0} dot(x.1, w1.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  tanh.1 = f32[8,32]{1,0} tanh(dot_general.2)
  sharding_constraint.1 = f32[8,32]{1,0} custom-call(tanh.1), custom_call_target="Sharding", sharding={devices=[2,2]<=[4]}, frontend_attributes={xla.sdy.sharding="#sdy.sharding_per_value<[<@mesh, [{\"data\"}, {\"model\"}]>]>"}
  w2.1 = f32[32,16]{1,0} parameter(2), sharding={devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{\"model\"}, {}]>"}
  dot_general.3 = f32[8,16]{1,0} dot(sharding_constraint.1, w2.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  constant.1 = f32[] constant(0)
  reduce_sum.8 = f32[8]{0} reduce(dot_general.3, constant.1), dimensions={1}, to_apply=region_0.1
  reduce_sum.9 = f32[8]{0} custom-call(reduce_sum.8), custom_call_target="xla.sdy.FuncResultSharding", custom_call_has_side_effect=true, frontend_attributes={xla.sdy.sharding="#sdy.sharding_per_value<[<@mesh, [{\"data\"}]>]>"}
  tuple.1 = (f32[8]{0}) tuple(reduce_sum.9)
  ROOT get-tuple-element.1 = f32[8]{0} get-tuple-element(tuple.1), index=0, sharding={devices=[2,2]<=[4] last_tile_dim_replicate}
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->num_partitions(), 4);
  auto local = ExpectPartitionedMatches(*module);
  ASSERT_NE(local, nullptr);
  // The row-split second layer leaves partial sums over "model", summed
  // once (after the row reduction, which keeps them partial).
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllReduce), 1)
      << HloModuleToText(*local);
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitionerTest, StableHloShardyProgram) {
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {"model"}]> : tensor<8x32xf32>
    %2 = stablehlo.tanh %1 : tensor<8x32xf32>
    return %2 : tensor<8x32xf32>
  }
}
)",
                                                     "test.mlir");
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  ASSERT_TRUE(program->module->spmd_global());
  auto local = ExpectPartitionedMatches(*program->module);
  ASSERT_NE(local, nullptr);
  // The result joins the "model" pieces.
  EXPECT_EQ(CountOpcode(*local, HloOpcode::kAllGather), 1);
}

TEST(SpmdPartitionerTest, RefusesWhatItCannotSplit) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[8] parameter(0), sharding={devices=[4]<=[4]}
  ROOT y = f32[8] copy(x), sharding={devices=[2,2]<=[4] last_tile_dims={manual}}
})");
  ASSERT_NE(module, nullptr);
  StatusOr<std::unique_ptr<HloModule>> partitioned = PartitionSpmd(*module);
  ASSERT_FALSE(partitioned.ok());
  EXPECT_NE(partitioned.status().message().find("manual"), std::string::npos);
  // Custom calls other than sharding marks are refused where they stand.
  StatusOr<std::unique_ptr<HloModule>> other = ParseHloText(R"(HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  ROOT y = f32[8] custom-call(x), custom_call_target="my_kernel"
})",
                                                            "m.hlo");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("m.hlo:4:"), std::string::npos)
      << other.status().message();
}

TEST(SpmdPartitionerTest, CountsXlaStyleCollectives) {
  auto module = Parse(R"(HloModule m, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  r = f32[4,8] all-reduce(x), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
  g = f32[8,8] all-gather(x), channel_id=2, replica_groups={{0,1},{2,3}}, dimensions={0}, use_global_device_ids=true
  ROOT t = (f32[4,8], f32[8,8]) tuple(r, g)
})");
  ASSERT_NE(module, nullptr);
  StatusOr<CommunicationCost> cost = CommunicationCostOf(*module);
  ASSERT_TRUE(cost.ok());
  EXPECT_EQ(cost->collective_count, 2);
  // all-reduce of 128 bytes over 4: 192; all-gather of 128 over 2: 128.
  EXPECT_EQ(cost->bytes_sent, 192 + 128);
}

}  // namespace
}  // namespace phal
