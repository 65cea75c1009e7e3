#include "core/reference/spmd_interpreter.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/reference/interpreter_test_util.h"
#include "core/testing/source_files.h"

namespace phal::testing {
namespace {

using std::chrono::milliseconds;

// Reduction computations the tests' collectives apply. twice_plus(a, b) =
// 2a + b is neither commutative nor associative, so its result shows the
// order in which the group's values were combined.
constexpr const char* kReducers =
    "add {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
    " ROOT r = s32[] add(a, b)\n}\n"
    "max {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
    " ROOT r = f32[] maximum(a, b)\n}\n"
    "twice_plus {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
    " two = s32[] constant(2)\n d = s32[] multiply(a, two)\n"
    " ROOT r = s32[] add(d, b)\n}\n";

// A module on `grid` ("replica_count=2, num_partitions=4") with the
// reducers above, `computations` and an entry computation of `entry`.
std::string SpmdModule(const std::string& grid, const std::string& entry,
                       const std::string& computations = "") {
  return "HloModule spmd, " + grid + "\n\n" + kReducers + computations +
         "ENTRY main {\n" + entry + "}\n";
}

std::string Grid(int64_t replicas, int64_t partitions) {
  return "replica_count=" + std::to_string(replicas) +
         ", num_partitions=" + std::to_string(partitions);
}

Literal S32(std::vector<int64_t> dims, const std::vector<int64_t>& values) {
  return Literal::FromValues(kS32, std::move(dims), values);
}

// One argument list per process: process k gets {argument(k)}.
std::vector<std::vector<Literal>> EachProcess(
    int64_t count, const std::function<Literal(int64_t)>& argument) {
  std::vector<std::vector<Literal>> arguments;
  for (int64_t k = 0; k < count; ++k) arguments.push_back({argument(k)});
  return arguments;
}

StatusOr<std::vector<Literal>> TryRunSpmd(
    const std::string& text, const std::vector<std::vector<Literal>>& arguments,
    milliseconds timeout = milliseconds(5000)) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "spmd.hlo");
  if (!module.ok()) return module.status();
  SpmdOptions options;
  options.collective_timeout = timeout;
  return EvaluateSpmd(**module, arguments, options);
}

// Runs `text` on `arguments` and checks that process k's result is
// expected(k) for every process.
void ExpectResults(const std::string& text,
                   const std::vector<std::vector<Literal>>& arguments,
                   const std::function<Literal(int64_t)>& expected) {
  StatusOr<std::vector<Literal>> results = TryRunSpmd(text, arguments);
  ASSERT_TRUE(results.ok()) << results.status().ToString() << "\nin:\n" << text;
  ASSERT_EQ(results->size(), arguments.size());
  for (std::size_t k = 0; k < results->size(); ++k) {
    EXPECT_TRUE(SameLiteral((*results)[k], expected(static_cast<int64_t>(k))))
        << "process " << k << " of\n"
        << text;
  }
}

TEST(SpmdInterpreterTest, ReplicaIdAndPartitionIdGiveEachProcessItsOwnIds) {
  const std::string text = SpmdModule(
      Grid(2, 4),
      " x = s32[] parameter(0)\n r = u32[] replica-id()\n"
      " p = u32[] partition-id()\n ROOT t = (u32[], u32[]) tuple(r, p)\n");
  ExpectResults(text,
                EachProcess(8, [](int64_t) { return Values(kS32, {}, {0}); }),
                [](int64_t k) {
                  return Literal::Tuple({Literal::Scalar(kU32, k / 4),
                                         Literal::Scalar(kU32, k % 4)});
                });
}

TEST(SpmdInterpreterTest, AllReduceOverAllReplicasSumsEveryProcess) {
  for (int64_t n : {2, 4, 8}) {
    const std::string text =
        SpmdModule(Grid(n, 1),
                   " x = s32[1] parameter(0)\n"
                   " ROOT s = s32[1] all-reduce(x), replica_groups={}, "
                   "to_apply=add\n");
    ExpectResults(text,
                  EachProcess(n, [](int64_t k) { return S32({1}, {k + 1}); }),
                  [n](int64_t) { return S32({1}, {n * (n + 1) / 2}); });
  }
}

TEST(SpmdInterpreterTest, AllReduceOverAllPartitionsByGlobalIdsSumsEveryOne) {
  for (int64_t n : {2, 4, 8}) {
    const std::string text =
        SpmdModule(Grid(1, n),
                   " x = s32[1] parameter(0)\n"
                   " ROOT s = s32[1] all-reduce(x), channel_id=1, "
                   "replica_groups={}, use_global_device_ids=true, "
                   "to_apply=add\n");
    ExpectResults(text,
                  EachProcess(n, [](int64_t k) { return S32({1}, {k + 1}); }),
                  [n](int64_t) { return S32({1}, {n * (n + 1) / 2}); });
  }
}

// cross_replica: without a channel, the replicas of each partition.
TEST(SpmdInterpreterTest, AllReduceWithoutChannelSumsEachPartitionsReplicas) {
  const std::string text =
      SpmdModule(Grid(2, 4),
                 " x = s32[2] parameter(0)\n"
                 " ROOT s = s32[2] all-reduce(x), replica_groups={{0,1}}, "
                 "to_apply=add\n");
  ExpectResults(text,
                EachProcess(8,
                            [](int64_t k) {
                              return S32({2}, {k, 10 * k});
                            }),
                [](int64_t k) {
                  const int64_t p = k % 4;  // processes p and 4 + p meet
                  return S32({2}, {2 * p + 4, 10 * (2 * p + 4)});
                });
}

// cross_replica_and_partition: a channel without global ids groups
// replicas, each with all its partitions.
TEST(SpmdInterpreterTest, AllReduceWithChannelSumsReplicasAcrossPartitions) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[1] parameter(0)\n"
                 " ROOT s = s32[1] all-reduce(x), channel_id=1, "
                 "replica_groups={{0},{1}}, to_apply=add\n");
  ExpectResults(text,
                EachProcess(4, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) { return S32({1}, {k < 2 ? 1 + 2 : 3 + 4}); });
}

// flattened_ids: the groups name processes, and need not be of one size.
TEST(SpmdInterpreterTest, AllReduceWithGlobalIdsSumsUnevenProcessGroups) {
  const std::string text =
      SpmdModule(Grid(2, 4),
                 " x = s32[1] parameter(0)\n"
                 " ROOT s = s32[1] all-reduce(x), channel_id=1, "
                 "replica_groups={{0,5},{1,2,3,4,6,7}}, "
                 "use_global_device_ids=true, to_apply=add\n");
  ExpectResults(text, EachProcess(8, [](int64_t k) { return S32({1}, {k}); }),
                [](int64_t k) {
                  return S32({1},
                             {k == 0 || k == 5 ? 5 : 1 + 2 + 3 + 4 + 6 + 7});
                });
}

TEST(SpmdInterpreterTest, AllReduceWithMaximumKeepsTheLargestValue) {
  const std::string text =
      SpmdModule(Grid(4, 1),
                 " x = f32[2] parameter(0)\n"
                 " ROOT m = f32[2] all-reduce(x), replica_groups={}, "
                 "to_apply=max\n");
  ExpectResults(
      text,
      EachProcess(4,
                  [](int64_t k) {
                    return Literal::FromValues(
                        kF32, {2},
                        std::vector<double>{double(k), -1.0 - double(k)});
                  }),
      [](int64_t) {
        return Values(kF32, {2}, {3.0, -1.0});
      });
}

// twice_plus folds left in group order: ((g0 * 2 + g1) * 2 + g2) * 2 + g3.
TEST(SpmdInterpreterTest, AllReduceCombinesTheGroupInGroupOrder) {
  for (auto [groups, expected] :
       {std::pair{"{{0,1,2,3}}", 11}, std::pair{"{{3,2,1,0}}", 34}}) {
    const std::string text =
        SpmdModule(Grid(4, 1),
                   " x = s32[1] parameter(0)\n"
                   " ROOT s = s32[1] all-reduce(x), replica_groups=" +
                       std::string(groups) + ", to_apply=twice_plus\n");
    ExpectResults(
        text, EachProcess(4, [](int64_t k) { return S32({1}, {k}); }),
        [expected = expected](int64_t) { return S32({1}, {expected}); });
  }
}

TEST(SpmdInterpreterTest, AllReduceOfTwoOperandsReducesEachOnItsOwn) {
  const std::string text =
      SpmdModule(Grid(2, 1),
                 " x = s32[1] parameter(0)\n y = s32[1] negate(x)\n"
                 " ROOT s = (s32[1], s32[1]) all-reduce(x, y), "
                 "replica_groups={}, to_apply=add\n");
  ExpectResults(text,
                EachProcess(2, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t) {
                  return Literal::Tuple({S32({1}, {3}), S32({1}, {-3})});
                });
}

TEST(SpmdInterpreterTest, AllGatherConcatenatesTheGroupInGroupOrder) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[1,2] parameter(0)\n"
                 " ROOT g = s32[1,4] all-gather(x), replica_groups={}, "
                 "dimensions={1}\n");
  ExpectResults(text,
                EachProcess(4,
                            [](int64_t k) {
                              return S32({1, 2}, {10 * k, 10 * k + 1});
                            }),
                [](int64_t k) {
                  const int64_t p = k % 2;  // processes p and 2 + p meet
                  return S32({1, 4}, {10 * p, 10 * p + 1, 10 * (2 + p),
                                      10 * (2 + p) + 1});
                });
}

// cross_replica_and_partition lists the processes partition by partition:
// (r0, p0), (r1, p0), (r0, p1), (r1, p1) are processes 0, 2, 1, 3.
TEST(SpmdInterpreterTest, AllGatherWithChannelOrdersPartitionsMajor) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[1] parameter(0)\n"
                 " ROOT g = s32[4] all-gather(x), channel_id=1, "
                 "replica_groups={{0,1}}, dimensions={0}\n");
  ExpectResults(text, EachProcess(4, [](int64_t k) { return S32({1}, {k}); }),
                [](int64_t) {
                  return S32({4}, {0, 2, 1, 3});
                });
}

TEST(SpmdInterpreterTest, AllGatherOverIotaGroupsOfEightPartitions) {
  const std::string text =
      SpmdModule(Grid(1, 8),
                 " x = s32[1] parameter(0)\n"
                 " ROOT g = s32[4] all-gather(x), channel_id=1, "
                 "replica_groups=[2,4]<=[4,2]T(1,0), "
                 "use_global_device_ids=true, dimensions={0}\n");
  // The groups are {0, 2, 4, 6} and {1, 3, 5, 7}.
  ExpectResults(
      text, EachProcess(8, [](int64_t k) { return S32({1}, {k}); }),
      [](int64_t k) {
        return k % 2 == 0 ? S32({4}, {0, 2, 4, 6}) : S32({4}, {1, 3, 5, 7});
      });
}

TEST(SpmdInterpreterTest, ReduceScatterGivesEachMemberItsPartOfTheSum) {
  const std::string text =
      SpmdModule(Grid(4, 1),
                 " x = s32[4] parameter(0)\n"
                 " ROOT r = s32[1] reduce-scatter(x), replica_groups={}, "
                 "dimensions={0}, to_apply=add\n");
  // The sum is {6, 10, 14, 18}.
  ExpectResults(text,
                EachProcess(4,
                            [](int64_t k) {
                              return S32({4}, {k, k + 1, k + 2, k + 3});
                            }),
                [](int64_t k) { return S32({1}, {6 + 4 * k}); });
}

TEST(SpmdInterpreterTest, ReduceScatterByGlobalIdsFollowsTheGroupsOrder) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[2] parameter(0)\n"
                 " ROOT r = s32[1] reduce-scatter(x), channel_id=1, "
                 "replica_groups={{3,0},{1,2}}, use_global_device_ids=true, "
                 "dimensions={0}, to_apply=add\n");
  // Group {3, 0} sums to {9, 30}, group {1, 2} to {5, 30}; the first
  // member takes part 0.
  ExpectResults(text,
                EachProcess(4,
                            [](int64_t k) {
                              return S32({2}, {k * k, 10 * k});
                            }),
                [](int64_t k) {
                  const std::vector<int64_t> part = {30, 5, 30, 9};
                  return S32({1}, {part[static_cast<std::size_t>(k)]});
                });
}

// cross_partition: all-to-all with a channel exchanges between partitions.
TEST(SpmdInterpreterTest, AllToAllSendsPartIToMemberI) {
  const std::string text =
      SpmdModule(Grid(1, 4),
                 " x = s32[4] parameter(0)\n"
                 " ROOT a = s32[4] all-to-all(x), channel_id=1, "
                 "replica_groups={{0,1,2,3}}, dimensions={0}\n");
  ExpectResults(
      text,
      EachProcess(
          4,
          [](int64_t k) {
            return S32({4}, {10 * k, 10 * k + 1, 10 * k + 2, 10 * k + 3});
          }),
      [](int64_t i) {
        return S32({4}, {i, 10 + i, 20 + i, 30 + i});
      });
}

// cross_replica on 2 x 4: processes p and 4 + p exchange the columns of
// their s32[2,2] operands.
TEST(SpmdInterpreterTest, AllToAllAcrossReplicasSplitsAlongTheDimension) {
  const std::string text =
      SpmdModule(Grid(2, 4),
                 " x = s32[2,2] parameter(0)\n"
                 " ROOT a = s32[2,2] all-to-all(x), replica_groups={{0,1}}, "
                 "dimensions={1}\n");
  ExpectResults(
      text,
      EachProcess(8,
                  [](int64_t k) {
                    return S32({2, 2}, {k, 100 + k, 200 + k, 300 + k});
                  }),
      [](int64_t k) {
        const int64_t p = k % 4;
        const int64_t column = 100 * (k / 4);
        return S32({2, 2}, {p + column, 4 + p + column, 200 + p + column,
                            204 + p + column});
      });
}

TEST(SpmdInterpreterTest, AllToAllTupleFormSendsOperandIToMemberI) {
  const std::string text = SpmdModule(
      Grid(2, 1),
      " x = s32[2] parameter(0)\n five = s32[2] constant({5, 5})\n"
      " y = s32[2] add(x, five)\n"
      " ROOT a = (s32[2], s32[2]) all-to-all(x, y), replica_groups={{0,1}}\n");
  ExpectResults(
      text,
      EachProcess(2,
                  [](int64_t k) {
                    return S32({2}, {10 * k, 10 * k + 1});
                  }),
      [](int64_t k) {
        return k == 0 ? Literal::Tuple({S32({2}, {0, 1}), S32({2}, {10, 11})})
                      : Literal::Tuple({S32({2}, {5, 6}), S32({2}, {15, 16})});
      });
}

TEST(SpmdInterpreterTest, CollectivePermuteShiftsAroundARingOfEight) {
  const std::string text =
      SpmdModule(Grid(8, 1),
                 " x = s32[1] parameter(0)\n"
                 " ROOT c = s32[1] collective-permute(x), source_target_pairs="
                 "{{0,1},{1,2},{2,3},{3,4},{4,5},{5,6},{6,7},{7,0}}\n");
  ExpectResults(text,
                EachProcess(8, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) { return S32({1}, {(k + 7) % 8 + 1}); });
}

TEST(SpmdInterpreterTest, CollectivePermuteGivesZerosToProcessesNoOneSendsTo) {
  const std::string text = SpmdModule(Grid(4, 1),
                                      " x = s32[1] parameter(0)\n"
                                      " ROOT c = s32[1] collective-permute(x), "
                                      "source_target_pairs={{0,3},{2,1}}\n");
  ExpectResults(text,
                EachProcess(4, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) {
                  const std::vector<int64_t> received = {0, 3, 0, 1};
                  return S32({1}, {received[static_cast<std::size_t>(k)]});
                });
}

// cross_partition: the pair {0, 1} names partitions, in every replica.
TEST(SpmdInterpreterTest, CollectivePermuteWithChannelMovesBetweenPartitions) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[1] parameter(0)\n"
                 " ROOT c = s32[1] collective-permute(x), channel_id=1, "
                 "source_target_pairs={{0,1}}\n");
  ExpectResults(text,
                EachProcess(4, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) {
                  const std::vector<int64_t> received = {0, 1, 0, 3};
                  return S32({1}, {received[static_cast<std::size_t>(k)]});
                });
}

TEST(SpmdInterpreterTest, CollectiveBroadcastSendsTheFirstMembersValue) {
  const std::string text =
      SpmdModule(Grid(4, 1),
                 " x = s32[1] parameter(0)\n"
                 " ROOT b = s32[1] collective-broadcast(x), "
                 "replica_groups={{1,0},{3}}\n");
  // Process 2 is in no group: it gets zeros.
  ExpectResults(text,
                EachProcess(4, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) {
                  const std::vector<int64_t> received = {2, 2, 0, 4};
                  return S32({1}, {received[static_cast<std::size_t>(k)]});
                });
}

TEST(SpmdInterpreterTest, CollectiveBroadcastWithChannelBroadcastsPartitions) {
  const std::string text =
      SpmdModule(Grid(2, 2),
                 " x = s32[1] parameter(0)\n"
                 " ROOT b = s32[1] collective-broadcast(x), channel_id=1, "
                 "replica_groups={{1,0}}\n");
  ExpectResults(text,
                EachProcess(4, [](int64_t k) { return S32({1}, {k + 1}); }),
                [](int64_t k) { return S32({1}, {k < 2 ? 2 : 4}); });
}

// Every collective on a ring of n replicas, x_k = {k n, k n + 1, ...,
// k n + n - 1}: process i gathers 0 .. n^2 - 1, receives element i of the
// sum (n^2 (n - 1) / 2 + n i), element i of every x_j (j n + i), its left
// neighbour's x and process 0's x.
TEST(SpmdInterpreterTest, EveryCollectiveOnTwoFourAndEightProcesses) {
  for (int64_t n : {2, 4, 8}) {
    std::string ring = "{";
    for (int64_t k = 0; k < n; ++k) {
      ring += (k > 0 ? ",{" : "{") + std::to_string(k) + "," +
              std::to_string((k + 1) % n) + "}";
    }
    ring += "}";
    const std::string x = "s32[" + std::to_string(n) + "]";
    const std::string text = SpmdModule(
        Grid(n, 1),
        " x = " + x + " parameter(0)\n g = s32[" + std::to_string(n * n) +
            "] all-gather(x), replica_groups={}, dimensions={0}\n"
            " r = s32[1] reduce-scatter(x), replica_groups={}, "
            "dimensions={0}, to_apply=add\n a = " +
            x + " all-to-all(x), replica_groups={}, dimensions={0}\n p = " + x +
            " collective-permute(x), source_target_pairs=" + ring +
            "\n b = " + x + " collective-broadcast(x), replica_groups={}\n" +
            " ROOT t = (s32[" + std::to_string(n * n) + "], s32[1], " + x +
            ", " + x + ", " + x + ") tuple(g, r, a, p, b)\n");
    const auto row = [n](int64_t k) {
      std::vector<int64_t> values;
      for (int64_t i = 0; i < n; ++i) values.push_back(k * n + i);
      return S32({n}, values);
    };
    ExpectResults(text, EachProcess(n, row), [n, &row](int64_t i) {
      std::vector<int64_t> gathered;
      std::vector<int64_t> column;
      for (int64_t j = 0; j < n * n; ++j) gathered.push_back(j);
      for (int64_t j = 0; j < n; ++j) column.push_back(j * n + i);
      return Literal::Tuple({S32({n * n}, gathered),
                             S32({1}, {n * n * (n - 1) / 2 + n * i}),
                             S32({n}, column), row((i + n - 1) % n), row(0)});
    });
  }
}

// f32 values of `dims`: `first` for the first `count` elements, `rest`
// for the others.
Literal F32(std::vector<int64_t> dims, int64_t count, double first,
            double rest) {
  std::vector<double> values;
  int64_t size = 1;
  for (int64_t d : dims) size *= d;
  for (int64_t i = 0; i < size; ++i) values.push_back(i < count ? first : rest);
  return Literal::FromValues(kF32, std::move(dims), values);
}

// The front end's test program, every collective form on 2 x 2, with x
// filled with the process id k = 2 r + p.
TEST(SpmdInterpreterTest, RunsEveryFormOfTheCollectivesTestData) {
  const std::string text =
      ReadTextFile(SourceFile("core/frontend/testdata/collectives.hlo"));
  ExpectResults(
      text,
      EachProcess(4,
                  [](int64_t k) {
                    return F32({4, 2}, 8, double(k), 0);
                  }),
      [](int64_t k) {
        const int64_t r = k / 2;
        const int64_t p = k % 2;
        const auto filled = [](std::vector<int64_t> dims, double value) {
          return F32(std::move(dims), 0, 0, value);
        };
        std::vector<Literal> results;
        results.push_back(Literal::Scalar(kU32, r));
        results.push_back(Literal::Scalar(kU32, p));
        // %sum and %sum.iota: the replicas of partition p, {p, 2 + p}.
        results.push_back(filled({4, 2}, double(2 * p + 2)));
        results.push_back(filled({4, 2}, double(2 * p + 2)));
        // %sum.mesh: along mesh axis 'y', {2r, 2r + 1}.
        results.push_back(filled({4, 2}, double(4 * r + 1)));
        // %gathered: x of process p, then of 2 + p.
        results.push_back(F32({8, 2}, 8, double(p), double(2 + p)));
        // %scattered: processes {0, 1} and {2, 3}.
        results.push_back(filled({2, 2}, double(4 * r + 1)));
        // %exchanged: partitions of replica r; rows 2i, 2i + 1 of each.
        results.push_back(F32({4, 2}, 4, double(2 * r), double(2 * r + 1)));
        // %exchanged.tuple: member i takes operand i (x) of {p, 2 + p}.
        results.push_back(Literal::Tuple(
            {filled({4, 2}, double(p)), filled({4, 2}, double(2 + p))}));
        // %shifted: the partitions swap.
        results.push_back(filled({4, 2}, double(k ^ 1)));
        // %broadcast: from replica 1 of partition p.
        results.push_back(filled({4, 2}, double(2 + p)));
        return Literal::Tuple(std::move(results));
      });
}

// Each of three iterations calls a computation whose all-reduce doubles
// the (replicated after the first) value: 1 + 2 = 3, 6, 12.
TEST(SpmdInterpreterTest, CollectivesInsideAWhileLoopMeetOncePerIteration) {
  const std::string computations =
      "sum_all {\n v = s32[] parameter(0)\n"
      " ROOT s = s32[] all-reduce(v), replica_groups={}, to_apply=add\n}\n"
      "cond {\n s = (s32[], s32[]) parameter(0)\n"
      " i = s32[] get-tuple-element(s), index=0\n n = s32[] constant(3)\n"
      " ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n s = (s32[], s32[]) parameter(0)\n"
      " i = s32[] get-tuple-element(s), index=0\n"
      " v = s32[] get-tuple-element(s), index=1\n one = s32[] constant(1)\n"
      " i1 = s32[] add(i, one)\n v1 = s32[] call(v), to_apply=sum_all\n"
      " ROOT t = (s32[], s32[]) tuple(i1, v1)\n}\n";
  const std::string text =
      SpmdModule(Grid(2, 1),
                 " x = s32[] parameter(0)\n z = s32[] constant(0)\n"
                 " t = (s32[], s32[]) tuple(z, x)\n"
                 " w = (s32[], s32[]) while(t), condition=cond, body=body\n"
                 " ROOT r = s32[] get-tuple-element(w), index=1\n",
                 computations);
  ExpectResults(
      text, EachProcess(2, [](int64_t k) { return Values(kS32, {}, {k + 1}); }),
      [](int64_t) { return Values(kS32, {}, {12}); });
}

// Partition 0 runs %sum in a conditional that partition 1 skips.
constexpr const char* kSkippingBranches =
    "reduce_branch {\n v = s32[1] parameter(0)\n"
    " ROOT sum = s32[1] all-reduce(v), channel_id=1, replica_groups={{0,1}}, "
    "use_global_device_ids=true, to_apply=add\n}\n"
    "identity_branch {\n ROOT v = s32[1] parameter(0)\n}\n";

std::string SkippingModule(const std::string& other_branch) {
  return SpmdModule(
      Grid(1, 2),
      " x = s32[1] parameter(0)\n p = u32[] partition-id()\n"
      " zero = u32[] constant(0)\n"
      " first = pred[] compare(p, zero), direction=EQ\n"
      " ROOT c = s32[1] conditional(first, x, x), "
      "true_computation=reduce_branch, false_computation=" +
          other_branch + "\n",
      std::string(kSkippingBranches) +
          "forever {\n s = (s32[], s32[1]) parameter(0)\n"
          " ROOT yes = pred[] constant(true)\n}\n"
          "step {\n s = (s32[], s32[1]) parameter(0)\n"
          " i = s32[] get-tuple-element(s), index=0\n"
          " v = s32[1] get-tuple-element(s), index=1\n"
          " one = s32[] constant(1)\n i1 = s32[] add(i, one)\n"
          " ROOT t = (s32[], s32[1]) tuple(i1, v)\n}\n"
          "spin_branch {\n v = s32[1] parameter(0)\n z = s32[] constant(0)\n"
          " t = (s32[], s32[1]) tuple(z, v)\n"
          " w = (s32[], s32[1]) while(t), condition=forever, body=step\n"
          " ROOT r = s32[1] get-tuple-element(w), index=1\n}\n"
          "other_sum_branch {\n v = s32[1] parameter(0)\n"
          " ROOT other_sum = s32[1] all-reduce(v), channel_id=2, "
          "replica_groups={{0,1}}, use_global_device_ids=true, "
          "to_apply=add\n}\n");
}

::testing::AssertionResult FailsWith(
    const StatusOr<std::vector<Literal>>& result, phal_status_code_t code,
    const std::vector<std::string>& fragments) {
  if (result.ok()) return ::testing::AssertionFailure() << "the run passed";
  if (result.status().code() != code) {
    return ::testing::AssertionFailure()
           << "expected " << StatusCodeName(code) << ", got "
           << result.status().ToString();
  }
  for (const std::string& fragment : fragments) {
    if (result.status().message().find(fragment) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "expected \"" << fragment << "\" in "
             << result.status().ToString();
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(SpmdInterpreterTest, AProcessThatSkipsACollectiveFailsItsPeersAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  StatusOr<std::vector<Literal>> result =
      TryRunSpmd(SkippingModule("identity_branch"),
                 EachProcess(2, [](int64_t) { return S32({1}, {1}); }),
                 milliseconds(5000));
  // Partition 1 finished without reaching %sum, so nobody waits the 5 s.
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(4000));
  EXPECT_TRUE(FailsWith(result, PHAL_DEADLINE_EXCEEDED,
                        {"process 0 (replica 0, partition 0)", "%sum",
                         "group {0, 1}", "missing processes {1}"}));
}

TEST(SpmdInterpreterTest, AProcessThatNeverArrivesFailsItsPeersAfterTimeout) {
  const auto start = std::chrono::steady_clock::now();
  StatusOr<std::vector<Literal>> result = TryRunSpmd(
      SkippingModule("spin_branch"),
      EachProcess(2, [](int64_t) { return S32({1}, {1}); }), milliseconds(300));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, milliseconds(300));
  // Partition 1, still looping, is stopped once partition 0 failed.
  EXPECT_LT(elapsed, milliseconds(4000));
  EXPECT_TRUE(FailsWith(result, PHAL_DEADLINE_EXCEEDED,
                        {"process 0", "%sum", "group {0, 1}",
                         "missing processes {1} did not arrive in 300 ms"}));
}

TEST(SpmdInterpreterTest, AFailingProcessFailsItsPeersWithoutWaiting) {
  std::vector<std::vector<Literal>> arguments =
      EachProcess(2, [](int64_t) { return S32({1}, {1}); });
  arguments[1][0] = S32({2}, {1, 2});  // the wrong shape fails partition 1
  const auto start = std::chrono::steady_clock::now();
  StatusOr<std::vector<Literal>> result = TryRunSpmd(
      SkippingModule("identity_branch"), arguments, milliseconds(60000));
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(4000));
  EXPECT_TRUE(FailsWith(result, PHAL_INVALID_ARGUMENT,
                        {"process 1 (replica 0, partition 1)", "s32[2]"}));
}

TEST(SpmdInterpreterTest, ProcessesAtDifferentCollectivesFailAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  StatusOr<std::vector<Literal>> result =
      TryRunSpmd(SkippingModule("other_sum_branch"),
                 EachProcess(2, [](int64_t) { return S32({1}, {1}); }),
                 milliseconds(60000));
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(4000));
  EXPECT_TRUE(FailsWith(result, PHAL_FAILED_PRECONDITION,
                        {"collective #0", "disagree"}));
}

TEST(SpmdInterpreterTest, RejectsArgumentsForAnotherNumberOfProcesses) {
  const std::string text =
      SpmdModule(Grid(2, 2), " ROOT x = s32[1] parameter(0)\n");
  EXPECT_TRUE(FailsWith(
      TryRunSpmd(text, EachProcess(2, [](int64_t) { return S32({1}, {0}); })),
      PHAL_INVALID_ARGUMENT,
      {"2 replicas x 2 partitions = 4 processes", "got arguments for 2"}));
}

TEST(SpmdInterpreterTest, OneProcessProgramsRunAsBeforeAndAsAGridOfOne) {
  const std::string text =
      SpmdModule(Grid(1, 1),
                 " x = s32[1] parameter(0)\n r = u32[] replica-id()\n"
                 " s = s32[1] all-reduce(x), replica_groups={}, to_apply=add\n"
                 " ROOT t = (u32[], s32[1]) tuple(r, s)\n");
  ExpectResults(
      text, EachProcess(1, [](int64_t) { return S32({1}, {7}); }), [](int64_t) {
        return Literal::Tuple({Literal::Scalar(kU32, 0), S32({1}, {7})});
      });
  const std::string ids = SpmdModule(Grid(1, 1),
                                     " x = s32[1] parameter(0)\n"
                                     " ROOT p = u32[] partition-id()\n");
  EXPECT_TRUE(SameLiteral(EvaluateText(ids, {S32({1}, {7})}),
                          Literal::Scalar(kU32, 0)));
}

TEST(SpmdInterpreterTest, EvaluateRefusesCollectivesAndPointsToEvaluateSpmd) {
  const std::string text =
      SpmdModule(Grid(2, 1),
                 " x = s32[1] parameter(0)\n"
                 " ROOT s = s32[1] all-reduce(x), replica_groups={}, "
                 "to_apply=add\n");
  StatusOr<Literal> result = TryEvaluate(text, {S32({1}, {7})});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), PHAL_FAILED_PRECONDITION);
  EXPECT_NE(result.status().message().find("EvaluateSpmd"), std::string::npos)
      << result.status().ToString();
}

// --- StableHLO programs
// -------------------------------------------------------

// The body of one process, as both a run_parallel program and the entry
// of an SPMD module on two replicas.
constexpr const char* kProgramBody = R"(
        %sum = "stablehlo.all_reduce"(%x) ({
          ^bb0(%a: tensor<i64>, %b: tensor<i64>):
            %s = stablehlo.add %a, %b : tensor<i64>
            stablehlo.return %s : tensor<i64>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
        %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
        %moved = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
        %id = stablehlo.replica_id : tensor<ui32>
        return %sum, %all, %moved, %id : tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>
      }
)";
constexpr const char* kProgramResults =
    "(tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>)";

std::unique_ptr<HloModule> ParseStableHloOrFail(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "spmd.mlir");
  EXPECT_TRUE(program.ok()) << program.status().ToString() << "\nin:\n" << text;
  return program.ok() ? std::move(program->module) : nullptr;
}

// interpreter.run_parallel inlines both processes into one computation;
// EvaluateSpmd runs them as two threads. Both give the hand-computed values.
TEST(SpmdInterpreterTest, AgreesWithRunParallelOnTheSameProgram) {
  const std::string run_parallel =
      std::string(
          "module @m {\n      func.func @program(%x: tensor<2xi64>) "
          "-> ") +
      kProgramResults + " {" + kProgramBody +
      R"(      func.func @main() -> (tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>, tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>) {
        %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
        %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
        %r:8 = "interpreter.run_parallel"(%a, %b) {programs = [[@program], [@program]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>, tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>)
        return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7 : tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>, tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>
      }
    })";
  const std::string spmd =
      std::string(
          "module @m attributes {mhlo.num_replicas = 2 : i32} {\n"
          "      func.func @main(%x: tensor<2xi64>) -> ") +
      kProgramResults + " {" + kProgramBody + "    }";
  const std::vector<Literal> expected = {
      Literal::Tuple({Values(kS64, {2}, {11, 22}),
                      Values(kS64, {4}, {10, 20, 1, 2}),
                      Values(kS64, {2}, {0, 0}), Literal::Scalar(kU32, 0)}),
      Literal::Tuple({Values(kS64, {2}, {11, 22}),
                      Values(kS64, {4}, {10, 20, 1, 2}),
                      Values(kS64, {2}, {1, 2}), Literal::Scalar(kU32, 1)})};

  std::unique_ptr<HloModule> inlined = ParseStableHloOrFail(run_parallel);
  ASSERT_NE(inlined, nullptr);
  StatusOr<Literal> together = Evaluate(*inlined, {});
  ASSERT_TRUE(together.ok()) << together.status().ToString();
  std::unique_ptr<HloModule> module = ParseStableHloOrFail(spmd);
  ASSERT_NE(module, nullptr);
  StatusOr<std::vector<Literal>> apart = EvaluateSpmd(
      *module, {{Values(kS64, {2}, {1, 2})}, {Values(kS64, {2}, {10, 20})}});
  ASSERT_TRUE(apart.ok()) << apart.status().ToString();
  for (std::size_t k = 0; k < 2; ++k) {
    std::vector<Literal> inlined_results;
    for (std::size_t i = 0; i < 4; ++i) {
      inlined_results.push_back(together->tuple_elements()[4 * k + i]);
    }
    EXPECT_TRUE(
        SameLiteral(Literal::Tuple(std::move(inlined_results)), expected[k]))
        << "run_parallel, process " << k;
    EXPECT_TRUE(SameLiteral((*apart)[k], expected[k]))
        << "EvaluateSpmd, process " << k;
  }
}

// StableHLO's all_to_all with split_dimension != concat_dimension (which
// the front end lowers around HLO's one-dimension all-to-all): member i
// receives column i of every member's row, stacked as rows.
TEST(SpmdInterpreterTest, StableHloAllToAllSplitsAndConcatenatesDimensions) {
  std::unique_ptr<HloModule> module = ParseStableHloOrFail(R"(
    module @m attributes {mhlo.num_partitions = 4 : i32} {
      func.func @main(%x: tensor<1x4xi64>) -> tensor<4x1xi64> {
        %0 = "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<1x4xi64>) -> tensor<4x1xi64>
        return %0 : tensor<4x1xi64>
      }
    })");
  ASSERT_NE(module, nullptr);
  std::vector<std::vector<Literal>> arguments;
  for (int64_t k = 0; k < 4; ++k) {
    arguments.push_back({Literal::FromValues(
        kS64, {1, 4},
        std::vector<int64_t>{4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3})});
  }
  StatusOr<std::vector<Literal>> results = EvaluateSpmd(*module, arguments);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(SameLiteral(
        (*results)[static_cast<std::size_t>(i)],
        Literal::FromValues(kS64, {4, 1},
                            std::vector<int64_t>{i, 4 + i, 8 + i, 12 + i})))
        << "process " << i;
  }
}

TEST(SpmdInterpreterTest, PlainReducersGiveTheBitsTheirComputationsGive) {
  // A reducer that is one op of its parameters is combined without calling
  // it; the same op behind a copy is called per element. Both give the
  // same bits: signed zeros, infinities and NaN in f32 sums, integers
  // wrapping in sums and products, pred "or".
  for (const char* type : {"f32", "f64", "s32", "u16", "s8", "pred"}) {
    for (const char* op : {"add", "multiply", "maximum", "or"}) {
      const std::string t = type;
      const bool boolean = t == "pred";
      if (boolean != (std::string(op) == "or")) continue;
      if (std::string(op) == "maximum" && (t == "f32" || t == "f64")) {
        continue;
      }
      const std::string reducers =
          "plain {\n a = " + t + "[] parameter(0)\n b = " + t +
          "[] parameter(1)\n ROOT r = " + t + "[] " + op +
          "(b, a)\n}\n"
          "called {\n a = " +
          t + "[] parameter(0)\n b = " + t + "[] parameter(1)\n c = " + t +
          "[] " + op + "(b, a)\n ROOT r = " + t + "[] copy(c)\n}\n";
      const std::string entry = " x = " + t +
                                "[7] parameter(0)\n"
                                " p = " +
                                t +
                                "[7] all-reduce(x), replica_groups={}, "
                                "to_apply=plain\n"
                                " c = " +
                                t +
                                "[7] all-reduce(x), replica_groups={}, "
                                "to_apply=called\n"
                                " ROOT t = (" +
                                t + "[7], " + t + "[7]) tuple(p, c)\n";
      const ElementType element = boolean      ? PHAL_ELEMENT_TYPE_PRED
                                  : t == "f32" ? PHAL_ELEMENT_TYPE_F32
                                  : t == "f64" ? PHAL_ELEMENT_TYPE_F64
                                  : t == "s32" ? PHAL_ELEMENT_TYPE_S32
                                  : t == "u16" ? PHAL_ELEMENT_TYPE_U16
                                               : PHAL_ELEMENT_TYPE_S8;
      const auto value = [&](int64_t k) {
        Literal x(Shape(element, {7}));
        const double floats[] = {0.1, -0.0, 1e38, -1e38, 3.5, 0.0, 1.0};
        for (int64_t i = 0; i < 7; ++i) {
          if (IsFloat(element)) {
            double v = floats[i] * static_cast<double>(k + 1);
            if (i == 6 && k == 2) v = std::nan("");
            x.SetFromDouble(i, v);
          } else {
            x.SetFromInt64(
                i, boolean ? (i + k) % 3 == 0 : (i * 9973 + k * 40503) % 30011);
          }
        }
        return x;
      };
      StatusOr<std::vector<Literal>> results = TryRunSpmd(
          SpmdModule(Grid(4, 1), entry, reducers), EachProcess(4, value));
      ASSERT_TRUE(results.ok()) << results.status().ToString();
      for (const Literal& result : *results) {
        EXPECT_TRUE(
            SameLiteral(result.tuple_elements()[0], result.tuple_elements()[1]))
            << type << " " << op;
      }
    }
  }
}

}  // namespace
}  // namespace phal::testing
