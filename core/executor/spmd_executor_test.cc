// Programs for several processes, compiled and run on the evaluator device
// as every process of their grid at once (ExecuteSpmd): their collectives,
// replica-id and partition-id, staged through host memory, against the
// reference's EvaluateSpmd; peers that never arrive fail with
// DEADLINE_EXCEEDED naming them instead of hanging.
#include "core/executor/spmd_executor.h"

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/reference/collective_rendezvous.h"
#include "core/reference/spmd_interpreter.h"
#include "core/reference/spmd_process.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/source_files.h"

namespace phal::testing {
namespace {

using std::chrono::milliseconds;

// Runs `loaded` as every process of its grid on the evaluator device,
// process k on arguments[k]; returns each process's result leaves.
StatusOr<std::vector<std::vector<Literal>>> RunSpmd(
    const LoadedProgram& loaded,
    const std::vector<std::vector<Literal>>& arguments,
    milliseconds timeout = kDefaultCollectiveTimeout) {
  std::vector<std::vector<phal_plugin_buffer_t*>> buffers;
  std::vector<const LoadedProgram*> programs;
  for (const std::vector<Literal>& process : arguments) {
    std::vector<phal_plugin_buffer_t*>& mine = buffers.emplace_back();
    for (const Literal& argument : process) {
      mine.push_back(UploadToEvaluator(argument));
    }
    programs.push_back(&loaded);
  }
  StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> results =
      ExecuteSpmd(programs, buffers, timeout);
  for (const auto& process : buffers) loaded.FreeBuffers(process);
  if (!results.ok()) return results.status();
  std::vector<std::vector<Literal>> values;
  for (const std::vector<phal_plugin_buffer_t*>& process : *results) {
    values.push_back(DownloadResults(loaded, process));
  }
  return values;
}

// Compiles `text`, runs it as every process of its grid and compares each
// process's results with the reference's; exact (collectives sum in the
// reference's order).
void ExpectMatchesSpmdReference(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr);
  const int64_t processes = module->replica_count() * module->num_partitions();
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  const std::vector<std::vector<Literal>> arguments =
      ProcessArguments(loaded->program(), processes);
  StatusOr<std::vector<Literal>> expected = EvaluateSpmd(*module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  StatusOr<std::vector<std::vector<Literal>>> actual =
      RunSpmd(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ASSERT_EQ(actual->size(), static_cast<std::size_t>(processes));
  for (int64_t k = 0; k < processes; ++k) {
    std::vector<Literal> leaves;
    FlattenLiteral((*expected)[static_cast<std::size_t>(k)], &leaves);
    SCOPED_TRACE("process " + std::to_string(k));
    ExpectLeavesMatch((*actual)[static_cast<std::size_t>(k)], leaves, 0.0,
                      text);
    // The only process of a program for one also runs alone.
    if (processes == 1) {
      StatusOr<std::vector<Literal>> alone = RunOnDevice(*loaded, arguments[0]);
      ASSERT_TRUE(alone.ok()) << alone.status().ToString();
      ExpectLeavesMatch(*alone, leaves, 0.0, text);
    }
  }
}

TEST(SpmdExecutor, EveryCollectiveAndGroupFormOnTwoByTwoMatchesReference) {
  ExpectMatchesSpmdReference(
      ReadTextFile(SourceFile("core/frontend/testdata/collectives.hlo")));
}

TEST(SpmdExecutor, CollectivesBetweenKernelsAndInsideLoopsMatchReference) {
  // Kernels feed the collectives and consume their results; a counted loop
  // all-reduces on every trip; an integer max, a pred "and", a reduction
  // that is no plain op, and a variadic all-reduce.
  ExpectMatchesSpmdReference(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_mixed.hlo")));
}

TEST(SpmdExecutor, CollectivesReadingViewsOfOtherValuesMatchReference) {
  // The all-to-all and the all-gather read reshapes and a bitcast, which
  // share their operands' memory: each reads the bytes in its own shape.
  ExpectMatchesSpmdReference(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_views.hlo")));
}

TEST(SpmdExecutor, OddAndUnevenGroupsMatchReference) {
  // Three processes: groups of one and two, a permutation leaving one
  // process without a source, and a broadcast from the middle process.
  ExpectMatchesSpmdReference(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_odd.hlo")));
}

TEST(SpmdExecutor, AProgramForOneProcessRunsItsCollectivesAlone) {
  ExpectMatchesSpmdReference(R"(
HloModule alone
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4] parameter(0)
  s = f32[4] all-reduce(x), replica_groups={}, to_apply=add
  g = f32[4] all-gather(s), replica_groups={}, dimensions={0}
  r = u32[] replica-id()
  ROOT out = (f32[4], u32[]) tuple(g, r)
}
)");
}

constexpr char kTwoPartitions[] = R"(
HloModule pair, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] negate(x)
  ROOT s = f32[4] all-reduce(y), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
)";

TEST(SpmdExecutor, ExecuteAloneRefusesAProgramForSeveralProcesses) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kTwoPartitions);
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<Literal>> result =
      RunOnDevice(*loaded, {TestData(PHAL_ELEMENT_TYPE_F32, {4})});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), PHAL_FAILED_PRECONDITION);
  EXPECT_NE(result.status().message().find("1 replicas x 2 partitions"),
            std::string::npos)
      << result.status().ToString();
}

TEST(SpmdExecutor, APeerThatNeverArrivesFailsWithinTheTimeoutNamingIt) {
  // Process 0 of two runs; process 1 never starts (a device that failed,
  // or a launch on fewer devices than the program needs).
  std::unique_ptr<LoadedProgram> loaded = LoadText(kTwoPartitions);
  ASSERT_NE(loaded, nullptr);
  reference::CollectiveRendezvous rendezvous(2, milliseconds(200));
  reference::SpmdProcess process(0, ProcessGrid{1, 2}, &rendezvous);
  phal_plugin_buffer_t* argument =
      UploadToEvaluator(TestData(PHAL_ELEMENT_TYPE_F32, {4}));
  const auto start = std::chrono::steady_clock::now();
  StatusOr<std::vector<phal_plugin_buffer_t*>> result =
      loaded->Execute({&argument, 1}, &process);
  const auto waited = std::chrono::steady_clock::now() - start;
  loaded->FreeBuffers({&argument, 1});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), PHAL_DEADLINE_EXCEEDED);
  const std::string& message = result.status().message();
  EXPECT_NE(message.find("all-reduce"), std::string::npos) << message;
  EXPECT_NE(message.find("missing processes {1}"), std::string::npos)
      << message;
  EXPECT_LT(waited, std::chrono::seconds(30));
}

TEST(SpmdExecutor, APeerThatSkipsTheCollectiveFailsItsGroupAtOnce) {
  // Partition 1 takes a branch without the all-reduce and finishes: the
  // other partition is told it will never arrive.
  std::unique_ptr<LoadedProgram> loaded = LoadText(R"(
HloModule skip, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
reduce {
  x = f32[4] parameter(0)
  ROOT s = f32[4] all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
keep {
  ROOT x = f32[4] parameter(0)
}
ENTRY main {
  x = f32[4] parameter(0)
  id = u32[] partition-id()
  zero = u32[] constant(0)
  first = pred[] compare(id, zero), direction=EQ
  ROOT r = f32[4] conditional(first, x, x), true_computation=reduce, false_computation=keep
}
)");
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<std::vector<Literal>>> result =
      RunSpmd(*loaded, ProcessArguments(loaded->program(), 2));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), PHAL_DEADLINE_EXCEEDED);
  const std::string& message = result.status().message();
  EXPECT_NE(message.find("process 0 (replica 0, partition 0)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("{1}"), std::string::npos) << message;
}

TEST(SpmdExecutor, RefusesAWrongNumberOfDevices) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kTwoPartitions);
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<std::vector<Literal>>> result =
      RunSpmd(*loaded, ProcessArguments(loaded->program(), 3));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(result.status().message().find("= 2 devices, got 3"),
            std::string::npos)
      << result.status().ToString();
}

TEST(CollectiveTimeout, ReadsPositiveSecondsAndNamesAnythingElse) {
  const milliseconds fallback(1234);
  setenv("PHAL_COLLECTIVE_TIMEOUT", "2.5", 1);
  StatusOr<milliseconds> timeout = CollectiveTimeoutFromEnv(fallback);
  ASSERT_TRUE(timeout.ok()) << timeout.status().ToString();
  EXPECT_EQ(*timeout, milliseconds(2500));
  for (const char* bad : {"0", "-1", "abc", "3s", "", "inf", "1e7"}) {
    setenv("PHAL_COLLECTIVE_TIMEOUT", bad, 1);
    timeout = CollectiveTimeoutFromEnv(fallback);
    ASSERT_FALSE(timeout.ok()) << bad;
    EXPECT_EQ(timeout.status().code(), PHAL_INVALID_ARGUMENT);
    EXPECT_NE(timeout.status().message().find("PHAL_COLLECTIVE_TIMEOUT='" +
                                              std::string(bad) + "'"),
              std::string::npos)
        << timeout.status().ToString();
  }
  unsetenv("PHAL_COLLECTIVE_TIMEOUT");
  timeout = CollectiveTimeoutFromEnv(fallback);
  ASSERT_TRUE(timeout.ok());
  EXPECT_EQ(*timeout, fallback);
}

}  // namespace
}  // namespace phal::testing
