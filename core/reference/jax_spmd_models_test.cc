// The SPMD models of samples/models/jax, exported from JAX with four host
// devices, run on the reference as a grid of processes and agree with XLA:
// the global inputs are split per the entry parameters' shardings, every
// device runs the per-device program, and the results are assembled per the
// root's sharding into the global outputs XLA computed. Each model is read
// from XLA's HLO after SPMD partitioning and, where JAX wrote them, from the
// StableHLO shard_map program, with Shardy and with GSPMD.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/sharded_array.h"
#include "core/hlo/verifier.h"
#include "core/reference/spmd_interpreter.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal::testing {
namespace {

constexpr int64_t kDevices = 4;

HloSharding ShardingOf(const HloInstruction& instruction) {
  return instruction.sharding().value_or(HloSharding::Replicated());
}

void ExpectSpmdReferenceMatchesXla(const HloModule& module,
                                   const JaxModel& model) {
  ASSERT_EQ(module.replica_count() * module.num_partitions(), kDevices);
  const HloComputation& entry = *module.entry_computation();
  ASSERT_EQ(entry.num_parameters(),
            static_cast<int64_t>(model.arguments.size()));
  std::vector<std::vector<Literal>> arguments(kDevices);
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction& parameter = *entry.parameter_instruction(i);
    for (int64_t device = 0; device < kDevices; ++device) {
      StatusOr<Literal> piece =
          ShardOf(model.arguments[static_cast<std::size_t>(i)],
                  ShardingOf(parameter), device, parameter.shape());
      ASSERT_TRUE(piece.ok()) << "parameter " << i << ", device " << device
                              << ": " << piece.status().ToString();
      arguments[static_cast<std::size_t>(device)].push_back(*std::move(piece));
    }
  }
  StatusOr<std::vector<Literal>> results = EvaluateSpmd(module, arguments);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  const HloInstruction& root = *entry.root_instruction();
  StatusOr<std::vector<HloSharding>> shardings =
      LeafShardings(ShardingOf(root), root.shape());
  ASSERT_TRUE(shardings.ok()) << shardings.status().ToString();
  ASSERT_EQ(shardings->size(), model.results.size())
      << "the module returns another number of outputs than XLA";
  std::vector<std::vector<Literal>> leaves(model.results.size());
  for (const Literal& result : *results) {
    std::vector<Literal> flat;
    FlattenLiteral(result, &flat);
    ASSERT_EQ(flat.size(), model.results.size());
    for (std::size_t k = 0; k < flat.size(); ++k) {
      leaves[k].push_back(std::move(flat[k]));
    }
  }
  for (std::size_t k = 0; k < model.results.size(); ++k) {
    const Literal& expected = model.results[k];
    StatusOr<Literal> global =
        AssembleShards(leaves[k], (*shardings)[k], expected.shape());
    ASSERT_TRUE(global.ok())
        << "output " << k << ": " << global.status().ToString();
    EXPECT_TRUE(
        Matches(*global, expected, XlaTolerance(expected.element_type())))
        << "output " << k
        << ": XLA computed the expected, the reference the actual";
  }
}

class JaxSpmdModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(JaxSpmdModelTest, ReferenceMatchesXlaOnFourDevices) {
  StatusOr<JaxModel> model = ReadJaxModel(GetParam());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(model->text, GetParam() + ".hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(VerifyModule(**module).ok());
  ExpectSpmdReferenceMatchesXla(**module, *model);
}

INSTANTIATE_TEST_SUITE_P(Models, JaxSpmdModelTest,
                         ::testing::ValuesIn(kJaxSpmdModels));

// The model's StableHLO text with `extension`: ".mlir" (Shardy) or
// ".gspmd.mlir" (GSPMD's boundary custom calls).
class JaxSpmdStableHloModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  void Run(const std::string& extension) {
    StatusOr<JaxModel> model = ReadJaxModel(GetParam(), extension);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    StatusOr<StableHloModule> program =
        ParseStableHlo(model->text, GetParam() + extension);
    ASSERT_TRUE(program.ok()) << program.status().ToString();
    ASSERT_TRUE(VerifyModule(*program->module).ok());
    ExpectSpmdReferenceMatchesXla(*program->module, *model);
    ExpectShardingsOfXlasPartitionedModule(*program->module);
  }

  // The shardings the front end derives are those XLA's partitioner
  // gave the same program.
  void ExpectShardingsOfXlasPartitionedModule(const HloModule& module) {
    StatusOr<JaxModel> partitioned = ReadJaxModel(GetParam());
    ASSERT_TRUE(partitioned.ok()) << partitioned.status().ToString();
    StatusOr<std::unique_ptr<HloModule>> xla =
        ParseHloText(partitioned->text, GetParam() + ".hlo");
    ASSERT_TRUE(xla.ok()) << xla.status().ToString();
    const HloComputation& ours = *module.entry_computation();
    const HloComputation& theirs = *(*xla)->entry_computation();
    ASSERT_EQ(ours.num_parameters(), theirs.num_parameters());
    for (int64_t i = 0; i < ours.num_parameters(); ++i) {
      const HloInstruction& a = *ours.parameter_instruction(i);
      const HloInstruction& b = *theirs.parameter_instruction(i);
      EXPECT_TRUE(a.shape().Compatible(b.shape()))
          << "parameter " << i << ": " << a.shape().ToString() << " vs "
          << b.shape().ToString();
      EXPECT_EQ(ShardingOf(a).ToString(), ShardingOf(b).ToString())
          << "parameter " << i;
    }
    EXPECT_EQ(ShardingOf(*ours.root_instruction()).ToString(),
              ShardingOf(*theirs.root_instruction()).ToString());
  }
};

TEST_P(JaxSpmdStableHloModelTest, ReferenceMatchesXlaOnFourDevices) {
  Run(".mlir");
}

TEST_P(JaxSpmdStableHloModelTest, ReferenceMatchesXlaWithShardyOff) {
  Run(".gspmd.mlir");
}

INSTANTIATE_TEST_SUITE_P(Models, JaxSpmdStableHloModelTest,
                         ::testing::ValuesIn(kJaxSpmdStableHloModels));

}  // namespace
}  // namespace phal::testing
