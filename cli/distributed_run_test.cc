// `mpirun -np N polyhal run MODULE --distributed mpi`: JAX's SPMD and
// sharded models over four MPI processes match XLA's outputs; ranks that
// run different programs, a job of the wrong size and a rank that never
// reaches a collective all end the job non-zero with a message naming the
// ranks, within the collective timeout. Skipped where the CLI is built
// without MPI or mpirun is not installed. Every mpirun is bounded.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/io/npy.h"
#include "core/testing/command_output.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"
#include "core/testing/temp_dir.h"

namespace phal {
namespace {

using ::testing::HasSubstr;
using testing::RunCommand;

const std::string kPolyhal = std::string(PHAL_TEST_BUILD_DIR) + "/bin/polyhal";
const std::string kModels =
    std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/";

// mpirun with `ranks` processes, allowed as root and on more processes than
// cores, bounded to 120 seconds; `program` is what each rank runs (or an
// MPMD list "A : -np 1 B").
std::string Mpirun(int ranks, const std::string& program) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_rmaps_base_oversubscribe=1 timeout 120 mpirun -np " +
         std::to_string(ranks) + " " + program;
}

class DistributedRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RunCommand("command -v mpirun").exit_code != 0) {
      GTEST_SKIP() << "mpirun is not installed (scripts/install-deps.sh "
                      "installs Open MPI)";
    }
    testing::CommandOutput probe = RunCommand(
        kPolyhal + " run /dev/null --distributed mpi --plugin reference");
    if (probe.text.find("needs a build with MPI") != std::string::npos) {
      GTEST_SKIP() << "polyhal is built without MPI";
    }
  }

  void ExpectMatchesXla(const std::string& name, const std::string& file) {
    StatusOr<testing::JaxModel> model = testing::ReadJaxModel(name, ".hlo");
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    testing::TempDir out;
    std::string inputs;
    for (std::size_t i = 0; i < model->arguments.size(); ++i) {
      inputs +=
          " --input " + kModels + name + ".input_" + std::to_string(i) + ".npy";
    }
    testing::CommandOutput run =
        RunCommand(Mpirun(4, kPolyhal + " run " + kModels + file +
                                 " --distributed mpi --plugin reference" +
                                 inputs + " --output-dir " + out.path()));
    ASSERT_EQ(run.exit_code, 0) << run.text;
    for (std::size_t k = 0; k < model->results.size(); ++k) {
      StatusOr<Literal> got =
          ReadNpy(out.path() + "/output_" + std::to_string(k) + ".npy");
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      const Literal& expected = model->results[k];
      EXPECT_TRUE(testing::Matches(
          *got, expected, testing::XlaTolerance(expected.element_type())))
          << file << " output " << k;
    }
  }
};

TEST_F(DistributedRunTest, SpmdModelsOnFourRanksMatchXla) {
  ExpectMatchesXla("spmd_collectives", "spmd_collectives.hlo");
  ExpectMatchesXla("spmd_exchange", "spmd_exchange.mlir");
  ExpectMatchesXla("spmd_grid", "spmd_grid.gspmd.mlir");
}

TEST_F(DistributedRunTest, ShardedModelsArePartitionedThenRunOnFourRanks) {
  ExpectMatchesXla("sharded_attention", "sharded_attention.mlir");
  ExpectMatchesXla("sharded_transformer_step", "sharded_transformer_step.hlo");
}

TEST_F(DistributedRunTest, RanksRunningDifferentProgramsFailAtTheFirstStep) {
  testing::TempDir dir;
  const std::string a = dir.path() + "/a.hlo";
  const std::string b = dir.path() + "/b.hlo";
  std::ofstream(a)
      << "HloModule a, num_partitions=2\nENTRY e {\n"
         "  x = f32[4] parameter(0)\n  ROOT n = f32[4] negate(x)\n}\n";
  std::ofstream(b)
      << "HloModule b, num_partitions=2\nENTRY e {\n"
         "  x = f32[4] parameter(0)\n  ROOT n = f32[4] abs(x)\n}\n";
  const std::string common =
      " --distributed mpi --plugin reference --random-inputs 0";
  testing::CommandOutput run =
      RunCommand(Mpirun(1, kPolyhal + " run " + a + common + " : -np 1 " +
                               kPolyhal + " run " + b + common));
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("ranks {1} loaded another program"));
}

TEST_F(DistributedRunTest, AJobOfAnotherSizeIsRefused) {
  testing::CommandOutput run =
      RunCommand(Mpirun(3, kPolyhal + " run " + kModels +
                               "spmd_collectives.hlo --distributed mpi "
                               "--plugin reference --random-inputs 0"));
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("not --devices 3"));
}

TEST_F(DistributedRunTest, ARankThatNeverArrivesIsNamedWithinTheTimeout) {
  // Partition 0 all-reduces inside a branch partition 1 never takes.
  testing::TempDir dir;
  const std::string path = dir.path() + "/skip.hlo";
  std::ofstream(path)
      << "HloModule skip, num_partitions=2\n"
         "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\n"
         "reduce_branch {\n  x = f32[4] parameter(0)\n"
         "  ROOT r = f32[4] all-reduce(x), channel_id=1, "
         "replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add\n}\n"
         "keep_branch {\n  ROOT x = f32[4] parameter(0)\n}\n"
         "ENTRY e {\n  x = f32[4] parameter(0)\n"
         "  id = u32[] partition-id()\n  zero = u32[] constant(0)\n"
         "  first = pred[] compare(id, zero), direction=EQ\n"
         "  ROOT out = f32[4] conditional(first, x, x), "
         "true_computation=reduce_branch, false_computation=keep_branch\n}\n";
  testing::CommandOutput run = RunCommand(
      "PHAL_COLLECTIVE_TIMEOUT=2 " +
      Mpirun(2, kPolyhal + " run " + path +
                    " --distributed mpi --plugin reference --random-inputs 0"));
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("all-reduce %r"));
  EXPECT_THAT(run.text, HasSubstr("ranks {1} did not arrive within 2000 ms"));
}

}  // namespace
}  // namespace phal
