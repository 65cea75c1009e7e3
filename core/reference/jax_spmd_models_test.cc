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
#include "core/testing/spmd_reference.h"

namespace phal::testing {
namespace {

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
      EXPECT_EQ(ShardingOrReplicated(a).ToString(),
                ShardingOrReplicated(b).ToString())
          << "parameter " << i;
    }
    EXPECT_EQ(ShardingOrReplicated(*ours.root_instruction()).ToString(),
              ShardingOrReplicated(*theirs.root_instruction()).ToString());
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
