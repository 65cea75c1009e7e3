// `mpirun -np N polyhal run MODULE --distributed mpi`: JAX's SPMD and
// sharded models over four MPI processes of one cpu device each, over two
// of two devices each and on the reference per rank match XLA's outputs;
// MPI reduces the all-reduces that cross ranks itself, in each of
// PHAL_MPI_REDUCTIONS's modes; a 20-step data-parallel training loop over
// four processes matches the same loop in one process and repeats bit for
// bit; ranks that run
// different programs, a job of the wrong size, a rank that never reaches
// a collective and a killed rank all end the job non-zero, naming the
// ranks, within the collective timeout. Skipped where the CLI is built
// without MPI or mpirun is not installed. Every mpirun is bounded.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/distributed_test_support.h"
#include "core/io/npy.h"
#include "core/testing/command_output.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"
#include "core/testing/temp_dir.h"

namespace phal {
namespace {

using testing::ExpectOutputsMatchXla;
using ::testing::HasSubstr;
using testing::kJaxModelDir;
using testing::kPolyhal;
using testing::ModelInputFlags;
using ::testing::Not;
using testing::RunCommand;

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

  // `file` of model `name` over `ranks` ranks of `plugin` (`env` set for
  // every rank), written to `out`; the mpirun's output on failure.
  testing::CommandOutput RunModel(const std::string& name,
                                  const std::string& file, int ranks,
                                  const std::string& plugin,
                                  const std::string& env,
                                  const std::string& out) {
    return RunCommand(env + " " +
                      Mpirun(ranks, kPolyhal + " run " + kJaxModelDir + file +
                                        " --distributed mpi --plugin " +
                                        plugin + ModelInputFlags(name) +
                                        " --output-dir " + out));
  }

  void ExpectMatchesXla(const std::string& name, const std::string& file,
                        int ranks = 4, const std::string& plugin = "reference",
                        const std::string& env = "") {
    SCOPED_TRACE(file + " on " + std::to_string(ranks) + " ranks of " + plugin +
                 " " + env);
    testing::TempDir out;
    testing::CommandOutput run =
        RunModel(name, file, ranks, plugin, env, out.path());
    ASSERT_EQ(run.exit_code, 0) << run.text;
    ExpectOutputsMatchXla(name, out.path());
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

TEST_F(DistributedRunTest, FourRanksOfOneCpuDeviceMatchXla) {
  ExpectMatchesXla("spmd_collectives", "spmd_collectives.hlo", 4, "cpu");
  ExpectMatchesXla("spmd_exchange", "spmd_exchange.mlir", 4, "cpu");
  ExpectMatchesXla("sharded_attention", "sharded_attention.mlir", 4, "cpu");
}

TEST_F(DistributedRunTest, TwoRanksOfTwoCpuDevicesMatchXla) {
  const std::string two = "PHAL_VIRTUAL_DEVICES=2";
  ExpectMatchesXla("spmd_grid", "spmd_grid.gspmd.mlir", 2, "cpu", two);
  ExpectMatchesXla("spmd_collectives", "spmd_collectives.hlo", 2, "cpu", two);
  ExpectMatchesXla("sharded_transformer_step", "sharded_transformer_step.hlo",
                   2, "cpu", two);
}

// NCCL across processes with its ids handed over MPI: the collectives of
// four ranks of one emulated nvidia device each run on communicators the
// plugin joins over the ranks (the emulator's NCCL meets in shared memory).
TEST_F(DistributedRunTest, EmulatedNvidiaRanksJoinNcclCommunicatorsOverMpi) {
  testing::TempDir out;
  testing::CommandOutput run =
      RunModel("spmd_exchange", "spmd_exchange.mlir", 4, "nvidia",
               "PHAL_GPU_EMULATION=1 PHAL_LOG=debug", out.path());
  ASSERT_EQ(run.exit_code, 0) << run.text;
  ExpectOutputsMatchXla("spmd_exchange", out.path());
  EXPECT_THAT(run.text,
              HasSubstr("communicators joined over several processes"));
  EXPECT_THAT(run.text, Not(HasSubstr("(0 communicators joined")));
}

TEST_F(DistributedRunTest, MpiReducesAllReducesInEveryModeAndABadModeIsNamed) {
  const std::string name = "spmd_collectives";
  for (const std::string mode : {"all", "exact", "off"}) {
    SCOPED_TRACE("PHAL_MPI_REDUCTIONS=" + mode);
    testing::TempDir out;
    testing::CommandOutput run =
        RunModel(name, name + ".hlo", 4, "cpu",
                 "PHAL_LOG=debug PHAL_MPI_REDUCTIONS=" + mode, out.path());
    ASSERT_EQ(run.exit_code, 0) << run.text;
    ExpectOutputsMatchXla(name, out.path());
    // The f32 sum over four ranks is MPI's in `all` only.
    EXPECT_EQ(run.text.find("reduced by the transport") != std::string::npos,
              mode == "all")
        << run.text;
  }
  testing::TempDir out;
  testing::CommandOutput bad = RunModel(
      name, name + ".hlo", 2, "cpu", "PHAL_MPI_REDUCTIONS=fastest", out.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.text, HasSubstr("PHAL_MPI_REDUCTIONS is 'fastest'"));
}

TEST_F(DistributedRunTest, TrainingLoopOverFourProcessesMatchesOneAndRepeats) {
  // 20 SGD steps of a data-parallel MLP in one program (a while loop that
  // all-reduces the gradients on every trip).
  const std::string name = "spmd_training_loop";
  StatusOr<testing::JaxModel> model = testing::ReadJaxModel(name, ".hlo");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  testing::TempDir first, second, alone;
  for (const std::string* out : {&first.path(), &second.path()}) {
    testing::CommandOutput run =
        RunModel(name, name + ".hlo", 4, "cpu", "", *out);
    ASSERT_EQ(run.exit_code, 0) << run.text;
  }
  testing::CommandOutput one =
      RunCommand("PHAL_VIRTUAL_DEVICES=4 " + kPolyhal + " run " + kJaxModelDir +
                 name + ".hlo --devices 4 --plugin cpu" +
                 ModelInputFlags(name) + " --output-dir " + alone.path());
  ASSERT_EQ(one.exit_code, 0) << one.text;
  for (std::size_t k = 0; k < model->results.size(); ++k) {
    const std::string file = "/output_" + std::to_string(k) + ".npy";
    StatusOr<Literal> a = ReadNpy(first.path() + file);
    StatusOr<Literal> b = ReadNpy(second.path() + file);
    StatusOr<Literal> c = ReadNpy(alone.path() + file);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << file;
    EXPECT_EQ(0, std::memcmp(a->data(), b->data(), a->byte_size()))
        << "output " << k << " differs between two runs";
    EXPECT_TRUE(testing::Matches(*a, *c, 1e-5))
        << "output " << k << " differs from the run in one process";
    EXPECT_TRUE(testing::Matches(
        *a, model->results[k],
        testing::XlaTolerance(model->results[k].element_type())))
        << "output " << k << " differs from XLA's";
  }
}

TEST_F(DistributedRunTest, TwoHostsOverTcpBetweenNetworkNamespaces) {
  // Two "hosts": network namespaces joined by a veth pair, two ranks in
  // each, talking over TCP on addresses that exist inside them only.
  if (!testing::NetnsHostsUp()) {
    GTEST_SKIP() << "cannot make network namespaces here (ip netns needs "
                    "root)";
  }
  testing::TempDir out;
  testing::CommandOutput run = RunCommand(
      "timeout 120 " + testing::kNetnsHosts + " mpirun -np 4 --map-by node " +
      kPolyhal + " run " + kJaxModelDir +
      "sharded_transformer_step.hlo --distributed mpi --plugin cpu" +
      ModelInputFlags("sharded_transformer_step") + " --output-dir " +
      out.path());
  testing::NetnsHostsDown();
  ASSERT_EQ(run.exit_code, 0) << run.text;
  ExpectOutputsMatchXla("sharded_transformer_step", out.path());
}

TEST_F(DistributedRunTest, RanksWithoutADeviceAreRefused) {
  testing::CommandOutput run = RunCommand(
      Mpirun(4, kPolyhal + " run " + kJaxModelDir +
                    "spmd_grid.gspmd.mlir --distributed mpi --plugin cpu "
                    "--devices 2 --random-inputs 0"));
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("ranks {2, 3} have none of the first 2"));
}

TEST_F(DistributedRunTest, AKilledRankEndsTheJobWithinTheTimeout) {
  // A loop of many all-reduces; rank 3 is killed a second in, before or
  // while its peers wait for it at a collective.
  const std::string path =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/all_reduce_loop.hlo";
  const std::string run_loop =
      kPolyhal + " run " + path +
      " --distributed mpi --plugin cpu --random-inputs 0";
  const std::string killed = " : -np 1 timeout -s KILL 1 " + run_loop;
  // As users run it: mpirun ends the job when a rank dies and says which.
  testing::CommandOutput run =
      RunCommand("PHAL_COLLECTIVE_TIMEOUT=3 " + Mpirun(3, run_loop + killed));
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("rank 3")) << run.text;
  // With Open MPI's recovery the peers live on: each names the dead rank
  // once the collective timeout passes (that mode's mpirun exits 0).
  const auto start = std::chrono::steady_clock::now();
  testing::CommandOutput recovering =
      RunCommand("PHAL_COLLECTIVE_TIMEOUT=3 " +
                 Mpirun(3, "--enable-recovery " + run_loop + killed));
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_LT(waited, std::chrono::seconds(60)) << recovering.text;
  EXPECT_THAT(recovering.text,
              HasSubstr("group {0, 1, 2, 3}: ranks {3} did not arrive within "
                        "3000 ms"));
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
      RunCommand(Mpirun(3, kPolyhal + " run " + kJaxModelDir +
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
