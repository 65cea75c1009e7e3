// `polyhal run MODULE --distributed tcp --coordinator HOST:PORT
// --num-processes N --process-id K`: N processes no launcher started find
// each other over TCP. JAX's SPMD and sharded models over four processes of
// one cpu device each, two of two devices each, the reference per process,
// and two "hosts" (network namespaces) match XLA's outputs; a killed
// process fails its peers at once, naming it; a process that never starts
// is named within the timeout; a build without MPI runs all of it. Every
// process is bounded.

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/distributed_test_support.h"
#include "core/testing/command_output.h"
#include "core/testing/free_port.h"
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

// A shell command that starts `processes` processes of `run` (to which
// each adds its --distributed tcp flags; process k's command is prefixed
// with prefix(k)), waits for all and exits non-zero when any did, after
// printing every process's output.
std::string Launch(int processes, const std::string& run,
                   const std::string& coordinator,
                   const std::function<std::string(int)>& prefix = nullptr) {
  std::string script = "dir=$(mktemp -d); pids=;";
  for (int k = 0; k < processes; ++k) {
    script += (prefix ? prefix(k) : std::string("timeout 120 ")) + run +
              " --distributed tcp --coordinator " + coordinator +
              " --num-processes " + std::to_string(processes) +
              " --process-id " + std::to_string(k) + " > $dir/" +
              std::to_string(k) + " 2>&1 & pids=\"$pids $!\";";
  }
  script +=
      " rc=0; for p in $pids; do wait $p || rc=1; done; cat $dir/*; "
      "rm -rf $dir; exit $rc";
  return "bash -c '" + script + "'";
}

// Runs the model over `processes` processes of `plugin` and compares the
// outputs with XLA's; returns every process's output.
std::string ExpectMatchesXla(const std::string& name, const std::string& file,
                             int processes, const std::string& plugin,
                             const std::string& env = "") {
  SCOPED_TRACE(file + " on " + std::to_string(processes) + " processes of " +
               plugin + " " + env);
  testing::TempDir out;
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  testing::CommandOutput run = RunCommand(
      env + " " +
      Launch(processes,
             kPolyhal + " run " + kJaxModelDir + file + " --plugin " + plugin +
                 ModelInputFlags(name) + " --output-dir " + out.path(),
             coordinator));
  EXPECT_EQ(run.exit_code, 0) << run.text;
  if (run.exit_code == 0) ExpectOutputsMatchXla(name, out.path());
  return run.text;
}

TEST(TcpRun, FourProcessesOfOneCpuDeviceMatchXla) {
  ExpectMatchesXla("spmd_collectives", "spmd_collectives.hlo", 4, "cpu");
  ExpectMatchesXla("sharded_attention", "sharded_attention.mlir", 4, "cpu");
}

TEST(TcpRun, TwoProcessesOfTwoCpuDevicesAndTheReferenceMatchXla) {
  ExpectMatchesXla("sharded_transformer_step", "sharded_transformer_step.hlo",
                   2, "cpu", "PHAL_VIRTUAL_DEVICES=2");
  ExpectMatchesXla("spmd_exchange", "spmd_exchange.mlir", 4, "reference");
}

// The emulated nvidia devices of several processes run the collectives
// that span processes on communicators they join (ABI 1.12: an NCCL unique
// id handed over the transport; the emulator's NCCL meets in shared
// memory), and those within one process on the devices' own communicators.
TEST(TcpRun, EmulatedNvidiaDevicesJoinNcclCommunicatorsOverTheProcesses) {
  const std::string env = "PHAL_GPU_EMULATION=1 PHAL_LOG=debug";
  const std::string four = ExpectMatchesXla(
      "spmd_collectives", "spmd_collectives.hlo", 4, "nvidia", env);
  EXPECT_THAT(four, HasSubstr("communicators joined over several processes"));
  EXPECT_THAT(four, Not(HasSubstr("(0 communicators joined")));
  const std::string two = ExpectMatchesXla(
      "sharded_transformer_step", "sharded_transformer_step.hlo", 2, "nvidia",
      env + " PHAL_VIRTUAL_DEVICES=2");
  EXPECT_THAT(two, HasSubstr("collectives of the program run on the plugins"));
}

TEST(TcpRun, AKilledProcessFailsItsPeersAtOnceNamingIt) {
  // A loop of many all-reduces; process 3 is killed a second in. Its
  // connections close, so its peers fail long before the 60 s timeout.
  const std::string path =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/all_reduce_loop.hlo";
  const auto start = std::chrono::steady_clock::now();
  testing::CommandOutput run = RunCommand(
      "PHAL_COLLECTIVE_TIMEOUT=60 " +
      Launch(4, kPolyhal + " run " + path + " --plugin cpu --random-inputs 0",
             "127.0.0.1:" + std::to_string(testing::FreePort()), [](int k) {
               return std::string(k == 3 ? "timeout -s KILL 1 "
                                         : "timeout 120 ");
             }));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(40))
      << run.text;
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("rank 3 left the job")) << run.text;
}

// The same on emulated nvidia devices, whose all-reduce runs on an NCCL
// communicator joined over the processes: the peers waiting in the
// emulator's NCCL see that process 3 has exited (or meet its closed
// connection first) and name it.
TEST(TcpRun, AKilledProcessFailsItsPeersOnAJoinedCommunicator) {
  const std::string path =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/all_reduce_loop.hlo";
  const auto start = std::chrono::steady_clock::now();
  testing::CommandOutput run = RunCommand(
      "PHAL_GPU_EMULATION=1 PHAL_COLLECTIVE_TIMEOUT=60 " +
      Launch(
          4, kPolyhal + " run " + path + " --plugin nvidia --random-inputs 0",
          "127.0.0.1:" + std::to_string(testing::FreePort()), [](int k) {
            return std::string(k == 3 ? "timeout -s KILL 3 " : "timeout 120 ");
          }));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(40))
      << run.text;
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_TRUE(run.text.find("rank 3 of 4 (emulated NCCL), process ") !=
                  std::string::npos ||
              run.text.find("rank 3 left the job") != std::string::npos)
      << run.text;
}

TEST(TcpRun, AProcessThatNeverStartsIsNamedWithinTheTimeout) {
  // Processes 0 to 2 of a job of 4.
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  const std::string common = " --distributed tcp --coordinator " + coordinator +
                             " --num-processes 4 --plugin cpu " + kJaxModelDir +
                             "spmd_collectives.hlo --random-inputs 0";
  std::string script = "pids=;";
  for (int k = 0; k < 3; ++k) {
    script += " timeout 60 " + kPolyhal + " run --process-id " +
              std::to_string(k) + common + " 2>&1 & pids=\"$pids $!\";";
  }
  script += " rc=0; for p in $pids; do wait $p || rc=1; done; exit $rc";
  testing::CommandOutput run =
      RunCommand("PHAL_COLLECTIVE_TIMEOUT=2 bash -c '" + script + "'");
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("processes {3} did not join within 2000 ms"));
}

TEST(TcpRun, TheFlagsAreCheckedTogether) {
  const std::string module = kJaxModelDir + "spmd_collectives.hlo";
  testing::CommandOutput missing = RunCommand(
      kPolyhal + " run " + module + " --distributed tcp --num-processes 2");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.text,
              HasSubstr("--distributed tcp needs --coordinator HOST:PORT"));
  testing::CommandOutput outside = RunCommand(
      kPolyhal + " run " + module +
      " --distributed tcp --coordinator 127.0.0.1:9 --num-processes 2 "
      "--process-id 2");
  EXPECT_NE(outside.exit_code, 0);
  EXPECT_THAT(outside.text, HasSubstr("--process-id K (0 <= K < N)"));
  testing::CommandOutput stray =
      RunCommand(kPolyhal + " run " + module + " --coordinator 127.0.0.1:9");
  EXPECT_NE(stray.exit_code, 0);
  EXPECT_THAT(stray.text, HasSubstr("go with --distributed tcp"));
}

TEST(TcpRun, TwoHostsBetweenNetworkNamespaces) {
  // Two "hosts" (network namespaces joined by a veth pair), two processes
  // in each, the coordinator on the first host's private address.
  if (!testing::NetnsHostsUp()) {
    GTEST_SKIP() << "cannot make network namespaces here (ip netns needs "
                    "root)";
  }
  testing::TempDir out;
  const std::string name = "sharded_transformer_step";
  const std::string run = kPolyhal + " run " + kJaxModelDir + name +
                          ".hlo --plugin cpu" + ModelInputFlags(name) +
                          " --output-dir " + out.path();
  testing::CommandOutput launched = RunCommand(Launch(
      4, run, "10.77.0.1:" + std::to_string(testing::FreePort()), [](int k) {
        return std::string("timeout 120 ip netns exec ") +
               (k < 2 ? "phal-host-a " : "phal-host-b ");
      }));
  testing::NetnsHostsDown();
  ASSERT_EQ(launched.exit_code, 0) << launched.text;
  ExpectOutputsMatchXla(name, out.path());
}

}  // namespace
}  // namespace phal
