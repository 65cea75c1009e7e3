// Programs for several processes placed on the ranks of a job
// (DistributedGrid, ExecuteSpmdOnRank), the ranks being threads of this
// process over an in-process transport: every collective and group form,
// on every placement of four processes on one to four ranks, against the
// reference's EvaluateSpmd; the same bits on every run; a rank that never
// arrives named within the timeout; ranks at different collectives told
// apart from late ones.
#include "core/executor/distributed_grid.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/executor/spmd_executor.h"
#include "core/reference/spmd_interpreter.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/in_process_transport.h"
#include "core/testing/source_files.h"

namespace phal::testing {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;

// Runs `programs[r]` (one per rank; null: the rank never runs) as the
// processes rank_of places on rank r, every rank on a thread of its own;
// returns each rank's status and every process's result leaves.
// With `reductions`, the transport runs the all-reduces it can itself.
struct JobRun {
  std::vector<Status> rank_status;
  std::vector<std::vector<Literal>> leaves;  // per process
  int reductions_run = 0;                    // all-reduces the transport ran
};
JobRun RunJob(const std::vector<const LoadedProgram*>& programs,
              const std::vector<int>& rank_of,
              const std::vector<std::vector<Literal>>& arguments,
              milliseconds timeout = milliseconds(20000),
              bool reductions = false, int stopped_rank = -1) {
  const int ranks = static_cast<int>(programs.size());
  InProcessJob job(ranks, reductions);
  job.StopReductionsOf(stopped_rank);
  JobRun run;
  run.rank_status.assign(static_cast<std::size_t>(ranks), OkStatus());
  run.leaves.resize(rank_of.size());
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    if (programs[static_cast<std::size_t>(r)] == nullptr) continue;
    threads.emplace_back([&, r] {
      const LoadedProgram& loaded = *programs[static_cast<std::size_t>(r)];
      const Program& program = loaded.program();
      std::vector<const HloModule*> process_ops;
      for (const auto& op : program.process_ops)
        process_ops.push_back(op.get());
      StatusOr<DistributedGrid> grid = DistributedGrid::Create(
          job.rank(r),
          ProcessGrid{program.replica_count, program.num_partitions}, rank_of,
          timeout, process_ops);
      if (!grid.ok()) {
        run.rank_status[static_cast<std::size_t>(r)] = grid.status();
        return;
      }
      std::vector<const LoadedProgram*> mine;
      std::vector<std::vector<phal_plugin_buffer_t*>> buffers;
      for (int64_t k : grid->local_processes()) {
        mine.push_back(&loaded);
        std::vector<phal_plugin_buffer_t*>& process = buffers.emplace_back();
        for (const Literal& argument : arguments[static_cast<std::size_t>(k)]) {
          process.push_back(UploadToEvaluator(argument));
        }
      }
      StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> results =
          ExecuteSpmdOnRank(mine, buffers, *grid);
      for (const auto& process : buffers) loaded.FreeBuffers(process);
      run.rank_status[static_cast<std::size_t>(r)] = results.status();
      if (!results.ok()) return;
      for (std::size_t i = 0; i < grid->local_processes().size(); ++i) {
        run.leaves[static_cast<std::size_t>(grid->local_processes()[i])] =
            DownloadResults(loaded, (*results)[i]);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  run.reductions_run = job.reductions_run();
  return run;
}

// Every placement of the program's processes this test tries: one rank
// per process, two ranks of two (blocks and interleaved), an uneven split
// and all on one rank.
std::vector<std::vector<int>> Placements(int64_t processes) {
  std::vector<std::vector<int>> placements;
  std::vector<int> each, blocks, interleaved, uneven, one;
  for (int64_t k = 0; k < processes; ++k) {
    each.push_back(static_cast<int>(k));
    blocks.push_back(static_cast<int>(2 * k / processes));
    interleaved.push_back(static_cast<int>(k % 2));
    uneven.push_back(k + 1 == processes ? 1 : 0);
    one.push_back(0);
  }
  placements = {each, one};
  if (processes > 1) {
    placements.push_back(blocks);
    placements.push_back(interleaved);
    placements.push_back(uneven);
  }
  return placements;
}

std::string PlacementText(const std::vector<int>& rank_of) {
  std::string text = "ranks of processes:";
  for (int rank : rank_of) text += " " + std::to_string(rank);
  return text;
}

// Runs `text` on every placement and compares each process's results
// with the reference's (within a few ulps: an all-reduce adds within each
// rank first, and the transport's reductions in an order of their own),
// then runs the first placement again for the same bits.
void ExpectMatchesReferenceOnEveryPlacement(const std::string& text,
                                            bool reductions = false) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr);
  const int64_t processes = module->replica_count() * module->num_partitions();
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  const std::vector<std::vector<Literal>> arguments =
      ProcessArguments(loaded->program(), processes);
  StatusOr<std::vector<Literal>> expected = EvaluateSpmd(*module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  for (const std::vector<int>& rank_of : Placements(processes)) {
    SCOPED_TRACE(PlacementText(rank_of));
    const int ranks = *std::max_element(rank_of.begin(), rank_of.end()) + 1;
    const std::vector<const LoadedProgram*> programs(
        static_cast<std::size_t>(ranks), loaded.get());
    JobRun run =
        RunJob(programs, rank_of, arguments, milliseconds(20000), reductions);
    for (const Status& status : run.rank_status) {
      ASSERT_TRUE(status.ok()) << status.ToString();
    }
    if (reductions && ranks > 1) {
      EXPECT_GT(run.reductions_run, 0)
          << "no all-reduce ran on the transport's reductions";
    }
    for (int64_t k = 0; k < processes; ++k) {
      std::vector<Literal> leaves;
      FlattenLiteral((*expected)[static_cast<std::size_t>(k)], &leaves);
      SCOPED_TRACE("process " + std::to_string(k));
      ExpectLeavesMatch(run.leaves[static_cast<std::size_t>(k)], leaves, 1e-6,
                        text);
    }
    JobRun again =
        RunJob(programs, rank_of, arguments, milliseconds(20000), reductions);
    for (int64_t k = 0; k < processes; ++k) {
      const auto index = static_cast<std::size_t>(k);
      ASSERT_EQ(again.leaves[index].size(), run.leaves[index].size());
      for (std::size_t i = 0; i < run.leaves[index].size(); ++i) {
        EXPECT_EQ(0, std::memcmp(again.leaves[index][i].data(),
                                 run.leaves[index][i].data(),
                                 run.leaves[index][i].byte_size()))
            << "process " << k << " result " << i << " changed between runs";
      }
    }
  }
}

TEST(DistributedGrid, EveryCollectiveAndGroupFormOnEveryPlacement) {
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/frontend/testdata/collectives.hlo")));
}

TEST(DistributedGrid, LoopsReductionsAndVariadicAllReducesOnEveryPlacement) {
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_mixed.hlo")));
}

TEST(DistributedGrid, ViewsAndPermutationsOnEveryPlacement) {
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_views.hlo")));
}

TEST(DistributedGrid, OddGroupsOnEveryPlacement) {
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_odd.hlo")));
}

TEST(DistributedGrid, TransportReductionsOnEveryPlacement) {
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/frontend/testdata/collectives.hlo")), true);
  ExpectMatchesReferenceOnEveryPlacement(
      ReadTextFile(SourceFile("core/executor/testdata/spmd_mixed.hlo")), true);
}

constexpr char kAllReduce[] = R"(
HloModule pair, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4] parameter(0)
  ROOT s = f32[4] all-reduce(x), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
}
)";

TEST(DistributedGrid, ARankThatNeverArrivesIsNamedWithinTheTimeout) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kAllReduce);
  ASSERT_NE(loaded, nullptr);
  const auto arguments = ProcessArguments(loaded->program(), 4);
  // Two ranks of two processes; rank 1 never runs.
  const auto start = std::chrono::steady_clock::now();
  JobRun run = RunJob({loaded.get(), nullptr}, {0, 0, 1, 1}, arguments,
                      milliseconds(300));
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(run.rank_status[0].code(), PHAL_DEADLINE_EXCEEDED)
      << run.rank_status[0].ToString();
  EXPECT_THAT(run.rank_status[0].message(),
              HasSubstr("ranks {1} did not arrive"));
  EXPECT_THAT(run.rank_status[0].message(), HasSubstr("%s"));
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST(DistributedGrid, ARankThatStopsInsideTheTransportsReductionIsNamed) {
  std::unique_ptr<LoadedProgram> loaded = LoadText(kAllReduce);
  ASSERT_NE(loaded, nullptr);
  const auto arguments = ProcessArguments(loaded->program(), 4);
  // Both ranks pass the header exchange; rank 1 then fails inside the
  // transport's all-reduce and leaves, and rank 0's reduction times out.
  JobRun run = RunJob({loaded.get(), loaded.get()}, {0, 0, 1, 1}, arguments,
                      milliseconds(300), /*reductions=*/true,
                      /*stopped_rank=*/1);
  EXPECT_EQ(run.rank_status[1].code(), PHAL_UNAVAILABLE)
      << run.rank_status[1].ToString();
  EXPECT_EQ(run.rank_status[0].code(), PHAL_DEADLINE_EXCEEDED)
      << run.rank_status[0].ToString();
  EXPECT_THAT(run.rank_status[0].message(),
              HasSubstr("ranks {1} did not arrive"));
}

TEST(DistributedGrid, RanksAtDifferentCollectivesAreToldApart) {
  // The same collective, with another reduction.
  std::string other = kAllReduce;
  other.replace(other.find("add(a, b)"), 3, "multiply");
  std::unique_ptr<LoadedProgram> first = LoadText(kAllReduce);
  std::unique_ptr<LoadedProgram> second = LoadText(other);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const auto arguments = ProcessArguments(first->program(), 4);
  JobRun run = RunJob({first.get(), second.get()}, {0, 0, 1, 1}, arguments,
                      milliseconds(2000));
  EXPECT_EQ(run.rank_status[0].code(), PHAL_FAILED_PRECONDITION)
      << run.rank_status[0].ToString();
  EXPECT_THAT(run.rank_status[0].message(),
              HasSubstr("rank 1 is at another collective"));
}

TEST(DistributedGrid, APlacementOutsideTheJobIsRefused) {
  InProcessJob job(2);
  EXPECT_EQ(DistributedGrid::Create(job.rank(0), ProcessGrid{1, 2}, {0, 2},
                                    milliseconds(100))
                .status()
                .code(),
            PHAL_INVALID_ARGUMENT);
  EXPECT_EQ(DistributedGrid::Create(job.rank(0), ProcessGrid{1, 2}, {0},
                                    milliseconds(100))
                .status()
                .code(),
            PHAL_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace phal::testing
