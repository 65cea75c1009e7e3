#include "sdk/plugin_support/host_communicator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "sdk/base/float16.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

// Runs `desc` on `ranks` ranks, rank r sending send[r], each on a thread of
// its own; returns what each received (recv_bytes each) and its status.
template <typename T>
std::vector<std::vector<T>> RunAll(HostCommunicator& communicator,
                                   const CollectiveDesc& desc,
                                   const std::vector<std::vector<T>>& send,
                                   std::size_t recv_count,
                                   std::vector<Status>* statuses = nullptr) {
  const uint32_t ranks = communicator.size();
  std::vector<std::vector<T>> recv(ranks, std::vector<T>(recv_count, T{}));
  std::vector<Status> results(ranks);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      results[r] = communicator.Run(
          r, desc, reinterpret_cast<const std::byte*>(send[r].data()),
          reinterpret_cast<std::byte*>(recv[r].data()));
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (statuses != nullptr) *statuses = results;
  for (const Status& status : results)
    EXPECT_TRUE(status.ok()) << status.ToString();
  return recv;
}

CollectiveDesc Desc(uint32_t kind, uint32_t type, uint32_t reduction,
                    uint64_t outer, uint64_t block) {
  CollectiveDesc desc;
  desc.kind = kind;
  desc.element_type = type;
  desc.reduction = reduction;
  desc.outer_count = outer;
  desc.block_count = block;
  desc.timeout_ms = 20000;
  return desc;
}

TEST(HostCommunicator, AllReduceSumsInRankOrderOnEverySplit) {
  for (uint32_t ranks : {1u, 2u, 3u, 4u}) {
    HostCommunicator communicator(ranks);
    // Sums whose rounding depends on the order: 1e8 + 1 - 1e8.
    std::vector<std::vector<float>> send(ranks, std::vector<float>(7));
    for (uint32_t r = 0; r < ranks; ++r) {
      for (int i = 0; i < 7; ++i) {
        send[r][static_cast<std::size_t>(i)] =
            r == 0 ? 1e8f : (r % 2 == 1 ? 1.0f + static_cast<float>(i) : -1e8f);
      }
    }
    const auto recv =
        RunAll(communicator,
               Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                    PHAL_REDUCTION_SUM, 1, 7),
               send, 7);
    for (int i = 0; i < 7; ++i) {
      float expected = send[0][static_cast<std::size_t>(i)];
      for (uint32_t q = 1; q < ranks; ++q) {
        expected += send[q][static_cast<std::size_t>(i)];
      }
      for (uint32_t r = 0; r < ranks; ++r) {
        EXPECT_EQ(recv[r][static_cast<std::size_t>(i)], expected)
            << ranks << " ranks, rank " << r << ", element " << i;
      }
    }
  }
}

TEST(HostCommunicator, ReductionsFollowStableHloSemantics) {
  HostCommunicator communicator(2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto max =
      RunAll<float>(communicator,
                    Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                         PHAL_REDUCTION_MAX, 1, 3),
                    {{-0.0f, nan, 1.0f}, {0.0f, 2.0f, 3.0f}}, 3);
  EXPECT_FALSE(std::signbit(max[0][0])) << "max(-0, +0) is +0";
  EXPECT_TRUE(std::isnan(max[1][1])) << "NaN propagates";
  EXPECT_EQ(max[0][2], 3.0f);
  auto wrap =
      RunAll<int8_t>(communicator,
                     Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_S8,
                          PHAL_REDUCTION_SUM, 1, 2),
                     {{127, -128}, {1, -1}}, 2);
  EXPECT_EQ(wrap[1][0], -128) << "integers wrap";
  EXPECT_EQ(wrap[1][1], 127);
  auto any =
      RunAll<uint8_t>(communicator,
                      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_PRED,
                           PHAL_REDUCTION_OR, 1, 3),
                      {{0, 1, 0}, {0, 0, 1}}, 3);
  EXPECT_EQ(any[0], (std::vector<uint8_t>{0, 1, 1}));
  // bf16 rounds each step to bf16: 256 + 1 is 256 in 8 bits of mantissa.
  const uint16_t big = FloatToBFloat16(256.0f);
  const uint16_t one = FloatToBFloat16(1.0f);
  auto rounded =
      RunAll<uint16_t>(communicator,
                       Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_BF16,
                            PHAL_REDUCTION_SUM, 1, 1),
                       {{big}, {one}}, 1);
  EXPECT_EQ(BFloat16ToFloat(rounded[0][0]), 256.0f);
}

TEST(HostCommunicator, DataMovementFollowsThePluginLayouts) {
  HostCommunicator communicator(3);
  // Outer 2, blocks of 2: rank r holds r*100 + index.
  std::vector<std::vector<int32_t>> one(3), all(3);
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 4; ++i) one[r].push_back(r * 100 + i);
    for (int i = 0; i < 12; ++i) all[r].push_back(r * 100 + i);
  }
  auto gathered = RunAll(communicator,
                         Desc(PHAL_COLLECTIVE_ALL_GATHER, PHAL_ELEMENT_TYPE_S32,
                              PHAL_REDUCTION_NONE, 2, 2),
                         one, 12);
  EXPECT_EQ(gathered[2], (std::vector<int32_t>{0, 1, 100, 101, 200, 201, 2, 3,
                                               102, 103, 202, 203}));
  auto exchanged =
      RunAll(communicator,
             Desc(PHAL_COLLECTIVE_ALL_TO_ALL, PHAL_ELEMENT_TYPE_S32,
                  PHAL_REDUCTION_NONE, 2, 2),
             all, 12);
  // recv_1[o][q] = send_q[o][1]: elements 2,3 (o=0) and 8,9 (o=1).
  EXPECT_EQ(exchanged[1], (std::vector<int32_t>{2, 3, 102, 103, 202, 203, 8, 9,
                                                108, 109, 208, 209}));
  auto scattered = RunAll(communicator,
                          Desc(PHAL_COLLECTIVE_REDUCE_SCATTER,
                               PHAL_ELEMENT_TYPE_S32, PHAL_REDUCTION_SUM, 2, 2),
                          all, 4);
  // recv_2[o][b] = sum_q send_q[o][2][b] = 300 + 3 * (o * 6 + 4 + b).
  EXPECT_EQ(scattered[2], (std::vector<int32_t>{312, 315, 330, 333}));
  CollectiveDesc permute = Desc(PHAL_COLLECTIVE_PERMUTE, PHAL_ELEMENT_TYPE_S32,
                                PHAL_REDUCTION_NONE, 1, 4);
  permute.pairs = {{0, 1}, {1, 0}};
  auto permuted = RunAll(communicator, permute, one, 4);
  EXPECT_EQ(permuted[0], one[1]);
  EXPECT_EQ(permuted[1], one[0]);
  EXPECT_EQ(permuted[2], (std::vector<int32_t>{0, 0, 0, 0}))
      << "a rank that is no target receives zeros";
  CollectiveDesc broadcast =
      Desc(PHAL_COLLECTIVE_BROADCAST, PHAL_ELEMENT_TYPE_S32,
           PHAL_REDUCTION_NONE, 1, 4);
  broadcast.root = 2;
  auto broadcasted = RunAll(communicator, broadcast, one, 4);
  for (const auto& received : broadcasted) EXPECT_EQ(received, one[2]);
}

TEST(HostCommunicator, AMissingRankFailsWithDeadlineExceededNamingIt) {
  HostCommunicator communicator(3);
  CollectiveDesc desc = Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                             PHAL_REDUCTION_SUM, 1, 1);
  desc.timeout_ms = 50;
  float send = 1.0f;
  float recv = 0.0f;
  std::thread other([&] {
    float mine = 2.0f;
    float theirs = 0.0f;
    communicator
        .Run(1, desc, reinterpret_cast<const std::byte*>(&mine),
             reinterpret_cast<std::byte*>(&theirs))
        .ok();
  });
  const Status status =
      communicator.Run(0, desc, reinterpret_cast<const std::byte*>(&send),
                       reinterpret_cast<std::byte*>(&recv));
  other.join();
  EXPECT_EQ(status.code(), PHAL_DEADLINE_EXCEEDED) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("rank {2} of 3 did not arrive"));
  // The communicator stays failed: ranks no longer agree on the sequence.
  EXPECT_EQ(communicator
                .Run(0, desc, reinterpret_cast<const std::byte*>(&send),
                     reinterpret_cast<std::byte*>(&recv))
                .code(),
            PHAL_DEADLINE_EXCEEDED);
}

TEST(HostCommunicator, DisagreeingRanksAndAbortFailEveryRank) {
  HostCommunicator communicator(2);
  std::vector<Status> statuses;
  std::vector<float> send = {1.0f, 2.0f};
  std::vector<float> recv(2);
  std::thread other([&] {
    std::vector<float> mine(1);
    std::vector<float> theirs(1);
    const Status status =
        communicator.Run(1,
                         Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                              PHAL_REDUCTION_SUM, 1, 1),
                         reinterpret_cast<const std::byte*>(mine.data()),
                         reinterpret_cast<std::byte*>(theirs.data()));
    EXPECT_EQ(status.code(), PHAL_FAILED_PRECONDITION) << status.ToString();
  });
  const Status status =
      communicator.Run(0,
                       Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                            PHAL_REDUCTION_SUM, 1, 2),
                       reinterpret_cast<const std::byte*>(send.data()),
                       reinterpret_cast<std::byte*>(recv.data()));
  other.join();
  EXPECT_EQ(status.code(), PHAL_FAILED_PRECONDITION) << status.ToString();

  HostCommunicator aborted(2);
  std::thread aborter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    aborted.Abort();
  });
  CollectiveDesc forever =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
           PHAL_REDUCTION_SUM, 1, 2);
  forever.timeout_ms = 0;
  const Status abort_status =
      aborted.Run(0, forever, reinterpret_cast<const std::byte*>(send.data()),
                  reinterpret_cast<std::byte*>(recv.data()));
  aborter.join();
  EXPECT_EQ(abort_status.code(), PHAL_ABORTED) << abort_status.ToString();
}

TEST(HostCommunicator, MeetCountsWithRunAndTimesOutNamingTheMissingRank) {
  HostCommunicator communicator(2);
  CollectiveDesc desc = Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_S32,
                             PHAL_REDUCTION_SUM, 1, 2);
  // Collective 0 is a meeting on both ranks, collective 1 a Run: the Run
  // meets the Run, not the meeting.
  std::vector<Status> statuses(2);
  std::vector<std::vector<int32_t>> recv(2, std::vector<int32_t>(2));
  const std::vector<std::vector<int32_t>> send = {{1, 2}, {10, 20}};
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      statuses[r] = communicator.Meet(r, desc);
      if (!statuses[r].ok()) return;
      statuses[r] = communicator.Run(
          r, desc, reinterpret_cast<const std::byte*>(send[r].data()),
          reinterpret_cast<std::byte*>(recv[r].data()));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (uint32_t r = 0; r < 2; ++r) {
    ASSERT_TRUE(statuses[r].ok()) << statuses[r].ToString();
    EXPECT_EQ(recv[r], (std::vector<int32_t>{11, 22}));
  }

  desc.timeout_ms = 50;
  const Status alone = communicator.Meet(1, desc);
  EXPECT_EQ(alone.code(), PHAL_DEADLINE_EXCEEDED) << alone.ToString();
  EXPECT_THAT(alone.message(), HasSubstr("rank {0} of 2 did not arrive"));
}

TEST(HostCommunicator, RefusesDescriptionsItCannotRun) {
  HostCommunicator communicator(1);
  float value = 1.0f;
  const Status status =
      communicator.Run(0,
                       Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_F32,
                            PHAL_REDUCTION_AND, 1, 1),
                       reinterpret_cast<const std::byte*>(&value),
                       reinterpret_cast<std::byte*>(&value));
  EXPECT_EQ(status.code(), PHAL_INVALID_ARGUMENT) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("and needs integers or pred"));
  phal_collective_desc_t c =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_ELEMENT_TYPE_C64,
           PHAL_REDUCTION_SUM, 1, 1)
          .ToC();
  EXPECT_TRUE(HostCommunicatorSupports(c));
  c.reduction = PHAL_REDUCTION_OR;
  EXPECT_FALSE(HostCommunicatorSupports(c));
}

}  // namespace
}  // namespace phal
