#include "core/distributed/tcp_job.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/testing/free_port.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// Forms a job of `size` processes on threads, process r claiming
// ranks[r] (r by default); each result as Connect gave it.
std::vector<StatusOr<std::unique_ptr<TcpJob>>> FormJob(
    int size, std::vector<int> ranks = {}, int claimed_size = 0,
    std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  if (ranks.empty()) {
    for (int r = 0; r < size; ++r) ranks.push_back(r);
  }
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  std::vector<StatusOr<std::unique_ptr<TcpJob>>> jobs;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    jobs.emplace_back(Internal("not run"));
  }
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    threads.emplace_back([&, r] {
      TcpJobOptions options;
      options.coordinator = coordinator;
      options.rank = ranks[r];
      options.size =
          r == ranks.size() - 1 && claimed_size > 0 ? claimed_size : size;
      options.timeout = timeout;
      jobs[r] = TcpJob::Connect(options);
    });
  }
  for (std::thread& thread : threads) thread.join();
  return jobs;
}

TEST(TcpJob, EveryRankGathersEveryRanksBytes) {
  auto jobs = FormJob(4);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  std::vector<std::thread> threads;
  std::vector<StatusOr<std::vector<std::vector<uint8_t>>>> gathered(
      4, Internal("not run"));
  for (int r = 0; r < 4; ++r) {
    threads.emplace_back([&, r] {
      std::vector<uint8_t> mine(100000, static_cast<uint8_t>(r + 1));
      gathered[static_cast<std::size_t>(r)] =
          (*jobs[static_cast<std::size_t>(r)])
              ->AllGather(mine, 7, std::chrono::seconds(20), "gather");
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int r = 0; r < 4; ++r) {
    const auto& all = gathered[static_cast<std::size_t>(r)];
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    ASSERT_EQ(all->size(), 4u);
    for (int q = 0; q < 4; ++q) {
      EXPECT_EQ((*all)[static_cast<std::size_t>(q)],
                std::vector<uint8_t>(100000, static_cast<uint8_t>(q + 1)));
    }
  }
}

// Every rank of `jobs` in `ranks` all-reduces its `values[rank]` over one
// group of them (made by each, as a client does at compile time), twice;
// the first run's results, and whether both runs gave the same bits.
template <typename T>
std::vector<std::vector<T>> AllReduceOnThreads(
    std::vector<StatusOr<std::unique_ptr<TcpJob>>>& jobs,
    const std::vector<int>& ranks, phal_element_type_t type,
    phal_reduction_t reduction, std::vector<std::vector<T>> values,
    bool* repeatable) {
  std::vector<std::vector<T>> results(jobs.size());
  std::vector<std::vector<T>> again(jobs.size());
  std::vector<std::thread> threads;
  for (int r : ranks) {
    threads.emplace_back([&, r] {
      TcpJob& job = **jobs[static_cast<std::size_t>(r)];
      StatusOr<uint64_t> group = job.MakeGroup(ranks, std::chrono::seconds(20));
      ASSERT_TRUE(group.ok()) << group.status().ToString();
      for (auto* out : {&results, &again}) {
        std::vector<T> data = values[static_cast<std::size_t>(r)];
        const Status status =
            job.AllReduce(*group, data.data(), data.size(), type, reduction,
                          std::chrono::seconds(20), "the test's all-reduce");
        ASSERT_TRUE(status.ok()) << status.ToString();
        (*out)[static_cast<std::size_t>(r)] = std::move(data);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  *repeatable = results == again;
  return results;
}

// Rings (above 64 KiB) and single rounds (below), over every rank and over
// a group of some ranks: every rank gets the same bits, on every run, and
// the reduction is right (within rounding for floats, exact for integers,
// which wrap).
TEST(TcpJob, AllReducesGiveEveryRankTheSameBits) {
  auto jobs = FormJob(4);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  for (const std::size_t count : {std::size_t{5}, std::size_t{100003}}) {
    SCOPED_TRACE("count " + std::to_string(count));
    std::vector<std::vector<float>> floats(4);
    std::vector<std::vector<int32_t>> ints(4);
    for (int r = 0; r < 4; ++r) {
      for (std::size_t i = 0; i < count; ++i) {
        floats[static_cast<std::size_t>(r)].push_back(
            0.1f *
                static_cast<float>((i * 7 + static_cast<std::size_t>(r)) % 13) +
            1e-3f * static_cast<float>(r));
        ints[static_cast<std::size_t>(r)].push_back(
            i % 3 == 0 ? INT32_MAX - r : static_cast<int32_t>(i) - 50 * r);
      }
    }
    bool repeatable = false;
    const auto sums =
        AllReduceOnThreads(jobs, {0, 1, 2, 3}, PHAL_ELEMENT_TYPE_F32,
                           PHAL_REDUCTION_SUM, floats, &repeatable);
    EXPECT_TRUE(repeatable);
    for (int r = 0; r < 4; ++r) {
      ASSERT_EQ(sums[static_cast<std::size_t>(r)].size(), count);
      EXPECT_EQ(0, std::memcmp(sums[static_cast<std::size_t>(r)].data(),
                               sums[0].data(), count * sizeof(float)))
          << "rank " << r << " got other bits than rank 0";
    }
    for (std::size_t i = 0; i < count; ++i) {
      const float expected =
          ((floats[0][i] + floats[1][i]) + floats[2][i]) + floats[3][i];
      ASSERT_NEAR(sums[0][i], expected, 1e-5f * std::fabs(expected)) << i;
    }
    const auto wrapped =
        AllReduceOnThreads(jobs, {0, 1, 2, 3}, PHAL_ELEMENT_TYPE_S32,
                           PHAL_REDUCTION_SUM, ints, &repeatable);
    const auto maxima =
        AllReduceOnThreads(jobs, {1, 3}, PHAL_ELEMENT_TYPE_S32,
                           PHAL_REDUCTION_MAX, ints, &repeatable);
    for (std::size_t i = 0; i < count; ++i) {
      uint32_t sum = 0;
      for (int r = 0; r < 4; ++r) {
        sum += static_cast<uint32_t>(ints[static_cast<std::size_t>(r)][i]);
      }
      ASSERT_EQ(wrapped[2][i], static_cast<int32_t>(sum)) << i;
      ASSERT_EQ(maxima[3][i], std::max(ints[1][i], ints[3][i])) << i;
    }
  }
}

TEST(TcpJob, AnAllReduceNamesTheRankThatNeverCame) {
  auto jobs = FormJob(3);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  TcpJob& job = **jobs[0];
  StatusOr<uint64_t> group =
      job.MakeGroup(std::vector<int>{0, 1, 2}, std::chrono::seconds(1));
  ASSERT_TRUE(group.ok());
  std::vector<float> data(100000, 1.0f);
  const Status status = job.AllReduce(
      *group, data.data(), data.size(), PHAL_ELEMENT_TYPE_F32,
      PHAL_REDUCTION_SUM, std::chrono::milliseconds(300), "the all-reduce");
  EXPECT_EQ(status.code(), PHAL_DEADLINE_EXCEEDED) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("ranks {2} did not arrive"));
}

TEST(TcpJob, ReductionsFollowTheirSwitch) {
  setenv("PHAL_TCP_REDUCTIONS", "exact", 1);
  {
    auto jobs = FormJob(1);
    ASSERT_TRUE(jobs[0].ok()) << jobs[0].status().ToString();
    EXPECT_TRUE(
        (*jobs[0])->Supports(PHAL_ELEMENT_TYPE_F32, PHAL_REDUCTION_SUM, 2));
    EXPECT_FALSE(
        (*jobs[0])->Supports(PHAL_ELEMENT_TYPE_F32, PHAL_REDUCTION_SUM, 3));
    EXPECT_TRUE(
        (*jobs[0])->Supports(PHAL_ELEMENT_TYPE_S8, PHAL_REDUCTION_PRODUCT, 3));
    EXPECT_FALSE(
        (*jobs[0])->Supports(PHAL_ELEMENT_TYPE_BF16, PHAL_REDUCTION_SUM, 2));
  }
  setenv("PHAL_TCP_REDUCTIONS", "never", 1);
  auto bad = FormJob(1);
  EXPECT_EQ(bad[0].status().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(bad[0].status().message(),
              HasSubstr("PHAL_TCP_REDUCTIONS is 'never'"));
  unsetenv("PHAL_TCP_REDUCTIONS");
}

// Two threads of each rank exchange at once with tags of their own; the
// messages of one tag between two ranks arrive in order.
TEST(TcpJob, ExchangesOfSeveralThreadsKeepTheirTagsApart) {
  auto jobs = FormJob(2);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  std::vector<std::thread> threads;
  std::vector<Status> statuses(4);
  for (int r = 0; r < 2; ++r) {
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, r, t] {
        HostTransport& job = **jobs[static_cast<std::size_t>(r)];
        for (int round = 0; round < 50; ++round) {
          std::vector<HostTransport::Message> sends = {
              {1 - r,
               std::vector<uint8_t>(8, static_cast<uint8_t>(round + t))}};
          std::vector<HostTransport::Message> receives = {
              {1 - r, std::vector<uint8_t>(8)}};
          Status status = job.Exchange(sends, receives, 100 + t,
                                       std::chrono::seconds(20), "round");
          if (status.ok() &&
              receives[0].bytes !=
                  std::vector<uint8_t>(8, static_cast<uint8_t>(round + t))) {
            status = Internal("round " + std::to_string(round) +
                              " got another round's bytes");
          }
          if (!status.ok()) {
            statuses[static_cast<std::size_t>(2 * r + t)] = status;
            return;
          }
        }
      });
    }
  }
  for (std::thread& thread : threads) thread.join();
  for (const Status& status : statuses)
    EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(TcpJob, ASilentRankTimesOutAndALengthMismatchIsNamed) {
  auto jobs = FormJob(3);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives = {{1, std::vector<uint8_t>(4)},
                                                  {2, std::vector<uint8_t>(4)}};
  const Status silent = (*jobs[0])->Exchange(
      sends, receives, 5, std::chrono::milliseconds(100), "all-reduce %x");
  EXPECT_EQ(silent.code(), PHAL_DEADLINE_EXCEEDED) << silent.ToString();
  EXPECT_THAT(silent.message(),
              HasSubstr("all-reduce %x: ranks {1, 2} did not arrive within"));

  std::vector<HostTransport::Message> long_send = {
      {0, std::vector<uint8_t>(6)}};
  std::vector<HostTransport::Message> none;
  ASSERT_TRUE((*jobs[1])
                  ->Exchange(long_send, none, 6, std::chrono::seconds(20), "")
                  .ok());
  std::vector<HostTransport::Message> short_receive = {
      {1, std::vector<uint8_t>(4)}};
  const Status mismatch = (*jobs[0])->Exchange(
      none, short_receive, 6, std::chrono::seconds(20), "gather");
  EXPECT_EQ(mismatch.code(), PHAL_FAILED_PRECONDITION) << mismatch.ToString();
  EXPECT_THAT(mismatch.message(),
              HasSubstr("rank 1 sent 6 bytes where 4 were expected"));
}

TEST(TcpJob, ARankThatLeavesFailsItsPeersAtOnceNamingIt) {
  auto jobs = FormJob(2);
  for (auto& job : jobs) ASSERT_TRUE(job.ok()) << job.status().ToString();
  (*jobs[1])->Abandon();
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives = {{1, std::vector<uint8_t>(4)}};
  const auto start = std::chrono::steady_clock::now();
  const Status status = (*jobs[0])->Exchange(
      sends, receives, 5, std::chrono::seconds(30), "permute %p");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(status.code(), PHAL_UNAVAILABLE) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("permute %p: rank 1 left the job"));
}

TEST(TcpJob, ProcessesThatDisagreeOrNeverComeAreNamed) {
  // Process 2 claims a job of 4.
  auto wrong_size = FormJob(3, {}, 4);
  ASSERT_FALSE(wrong_size[0].ok());
  EXPECT_THAT(wrong_size[0].status().message(),
              HasSubstr("process 2 says the job has 4 processes, process 0 "
                        "says 3"));
  ASSERT_FALSE(wrong_size[1].ok());
  EXPECT_THAT(wrong_size[1].status().message(),
              HasSubstr("process 0 refused the job"));

  auto twice = FormJob(3, {0, 1, 1});
  ASSERT_FALSE(twice[0].ok());
  EXPECT_THAT(twice[0].status().message(), HasSubstr("claimed twice"));

  // Process 2 of 3 never starts.
  auto missing = FormJob(3, {0, 1}, 0, std::chrono::milliseconds(500));
  ASSERT_FALSE(missing[0].ok());
  EXPECT_EQ(missing[0].status().code(), PHAL_DEADLINE_EXCEEDED);
  EXPECT_THAT(missing[0].status().message(),
              HasSubstr("processes {2} did not join within 500 ms"));
}

TEST(TcpJob, BadAddressesAndRanksAreRefused) {
  TcpJobOptions options;
  options.size = 2;
  for (const char* bad :
       {"localhost", ":80", "host:0", "host:99999", "host:http"}) {
    options.coordinator = bad;
    const auto job = TcpJob::Connect(options);
    ASSERT_FALSE(job.ok()) << bad;
    EXPECT_EQ(job.status().code(), PHAL_INVALID_ARGUMENT) << bad;
    EXPECT_THAT(job.status().message(), HasSubstr("is not HOST:PORT")) << bad;
  }
  options.coordinator = "127.0.0.1:1";
  options.rank = 2;
  const auto outside = TcpJob::Connect(options);
  ASSERT_FALSE(outside.ok());
  EXPECT_THAT(outside.status().message(),
              HasSubstr("the process index must be in [0, 2)"));
}

TEST(TcpJob, AJobOfOneNeedsNoNetwork) {
  TcpJobOptions options;
  options.coordinator = "127.0.0.1:1";
  options.size = 1;
  auto job = TcpJob::Connect(options);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  auto all = (*job)->AllGather({1, 2, 3}, 9, std::chrono::seconds(1), "");
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->size(), 1u);
}

}  // namespace
}  // namespace phal
