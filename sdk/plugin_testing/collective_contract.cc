#include "sdk/plugin_testing/collective_contract.h"

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::plugin_testing {
namespace {

phal_collective_desc_t Desc(uint32_t kind, uint32_t reduction, uint64_t outer,
                            uint64_t block) {
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.kind = kind;
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  desc.reduction = reduction;
  desc.outer_count = outer;
  desc.block_count = block;
  desc.timeout_ms = 30000;
  return desc;
}

// Rank r's values: r * 100 + i, exact in f32 and in their sums.
std::vector<std::vector<float>> RankValues(size_t ranks, size_t count) {
  std::vector<std::vector<float>> values(ranks);
  for (size_t r = 0; r < ranks; ++r) {
    for (size_t i = 0; i < count; ++i) {
      values[r].push_back(static_cast<float>(r * 100 + i));
    }
  }
  return values;
}

}  // namespace

void CollectiveContractTest::SetUp() {
  VirtualDeviceContractTest::SetUp();
  if (IsSkipped() || HasFatalFailure() || !HasCollectives()) return;
  rank_devices_.push_back(device_);
  for (size_t ordinal = 1; ordinal < kDeviceCount; ++ordinal) {
    phal_plugin_device_t* device = nullptr;
    ASSERT_TRUE(IsOk(api().device_open(ordinal, &device)));
    rank_devices_.push_back(device);
  }
  for (phal_plugin_device_t* device : rank_devices_) {
    phal_plugin_stream_t* stream = nullptr;
    ASSERT_TRUE(IsOk(api().stream_create(device, &stream)));
    rank_streams_.push_back(stream);
  }
}

void CollectiveContractTest::TearDown() {
  for (phal_plugin_stream_t* stream : rank_streams_) {
    api().stream_destroy(stream);
  }
  for (phal_plugin_communicator_t* handle : communicators_) {
    api().communicator_destroy(handle);
  }
  for (phal_plugin_buffer_t* buffer : rank_buffers_) api().buffer_free(buffer);
  for (size_t r = 1; r < rank_devices_.size(); ++r) {
    api().device_close(rank_devices_[r]);
  }
  VirtualDeviceContractTest::TearDown();
}

bool CollectiveContractTest::HasCollectives() const {
  return api().struct_size >= PHAL_PLUGIN_API_STRUCT_SIZE_1_8 &&
         api().communicator_create != nullptr &&
         api().stream_collective != nullptr;
}

std::vector<phal_plugin_communicator_t*> CollectiveContractTest::Communicator(
    const std::vector<size_t>& ranks) {
  std::vector<phal_plugin_device_t*> devices;
  for (size_t r : ranks) devices.push_back(rank_devices_[r]);
  std::vector<phal_plugin_communicator_t*> handles(ranks.size(), nullptr);
  EXPECT_TRUE(IsOk(api().communicator_create(
      devices.data(), static_cast<uint32_t>(devices.size()), handles.data())));
  for (phal_plugin_communicator_t* handle : handles) {
    EXPECT_NE(handle, nullptr);
    if (handle != nullptr) communicators_.push_back(handle);
  }
  return handles;
}

void CollectiveContractTest::OnEveryRank(
    size_t ranks, const std::function<void(size_t)>& run) {
  std::vector<std::thread> threads;
  for (size_t r = 0; r < ranks; ++r) threads.emplace_back(run, r);
  for (std::thread& thread : threads) thread.join();
}

std::vector<std::vector<float>> CollectiveContractTest::Run(
    const std::vector<size_t>& ranks,
    const std::vector<phal_plugin_communicator_t*>& handles,
    const phal_collective_desc_t& desc,
    const std::vector<std::vector<float>>& send, size_t recv_count,
    std::vector<phal_status_code_t>* codes) {
  const size_t n = ranks.size();
  std::vector<phal_plugin_buffer_t*> sends(n, nullptr);
  std::vector<phal_plugin_buffer_t*> recvs(n, nullptr);
  for (size_t k = 0; k < n; ++k) {
    phal_plugin_device_t* device = rank_devices_[ranks[k]];
    EXPECT_TRUE(
        IsOk(api().buffer_allocate(device, 0, send[k].size() * 4, &sends[k])));
    EXPECT_TRUE(
        IsOk(api().buffer_allocate(device, 0, recv_count * 4, &recvs[k])));
    rank_buffers_.push_back(sends[k]);
    rank_buffers_.push_back(recvs[k]);
  }
  std::vector<std::vector<float>> received(n,
                                           std::vector<float>(recv_count, -1));
  std::vector<phal_status_code_t> results(n, PHAL_OK);
  OnEveryRank(n, [&](size_t k) {
    phal_plugin_stream_t* stream = rank_streams_[ranks[k]];
    EXPECT_TRUE(IsOk(api().stream_copy_from_host(
        stream, send[k].data(), sends[k], 0, send[k].size() * 4)));
    phal_status_t* queued = api().stream_collective(stream, handles[k], &desc,
                                                    sends[k], 0, recvs[k], 0);
    phal_status_t* copied = api().stream_copy_to_host(
        stream, recvs[k], 0, received[k].data(), recv_count * 4);
    phal_status_t* synced = api().stream_synchronize(stream);
    results[k] = queued != nullptr   ? StatusCode(queued)
                 : synced != nullptr ? StatusCode(synced)
                                     : PHAL_OK;
    FreeStatus(queued);
    FreeStatus(copied);
    FreeStatus(synced);
  });
  if (codes != nullptr) {
    *codes = results;
  } else {
    for (size_t k = 0; k < n; ++k) {
      EXPECT_EQ(results[k], PHAL_OK) << "rank " << k;
    }
  }
  return received;
}

void CollectiveContractTest::ExpectEveryKindFollowsTheLayouts() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  const std::vector<size_t> all = {0, 1, 2, 3};
  const std::vector<phal_plugin_communicator_t*> four = Communicator(all);
  // all-reduce: every rank gets the sum of the four.
  const auto values = RankValues(4, 6);
  auto reduced =
      Run(all, four, Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 6),
          values, 6);
  for (size_t r = 0; r < 4; ++r) {
    for (size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(reduced[r][i], 600.0f + 4.0f * static_cast<float>(i))
          << "all-reduce, rank " << r << ", element " << i;
    }
  }
  // all-gather of 2 rows of 3: recv[o][q][b] = send_q[o][b].
  auto gathered = Run(
      all, four, Desc(PHAL_COLLECTIVE_ALL_GATHER, PHAL_REDUCTION_NONE, 2, 3),
      values, 24);
  for (size_t o = 0; o < 2; ++o) {
    for (size_t q = 0; q < 4; ++q) {
      for (size_t b = 0; b < 3; ++b) {
        EXPECT_EQ(gathered[1][(o * 4 + q) * 3 + b], values[q][o * 3 + b])
            << "all-gather o=" << o << " q=" << q << " b=" << b;
      }
    }
  }
  // reduce-scatter and all-to-all of 1 row of 4 blocks of 2.
  const auto blocks = RankValues(4, 8);
  auto scattered = Run(
      all, four, Desc(PHAL_COLLECTIVE_REDUCE_SCATTER, PHAL_REDUCTION_MAX, 1, 2),
      blocks, 2);
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(scattered[r][0], blocks[3][r * 2]) << "reduce-scatter max";
    EXPECT_EQ(scattered[r][1], blocks[3][r * 2 + 1]) << "reduce-scatter max";
  }
  auto exchanged = Run(
      all, four, Desc(PHAL_COLLECTIVE_ALL_TO_ALL, PHAL_REDUCTION_NONE, 1, 2),
      blocks, 8);
  for (size_t r = 0; r < 4; ++r) {
    for (size_t q = 0; q < 4; ++q) {
      EXPECT_EQ(exchanged[r][q * 2], blocks[q][r * 2]) << "all-to-all";
      EXPECT_EQ(exchanged[r][q * 2 + 1], blocks[q][r * 2 + 1]) << "all-to-all";
    }
  }
  // permute 0->2, 2->0, 1->3: rank 1 receives zeros.
  phal_collective_desc_t permute =
      Desc(PHAL_COLLECTIVE_PERMUTE, PHAL_REDUCTION_NONE, 1, 6);
  const phal_collective_pair_t pairs[] = {{0, 2}, {2, 0}, {1, 3}};
  permute.pairs = pairs;
  permute.pair_count = 3;
  auto permuted = Run(all, four, permute, values, 6);
  EXPECT_EQ(permuted[2], values[0]);
  EXPECT_EQ(permuted[0], values[2]);
  EXPECT_EQ(permuted[3], values[1]);
  EXPECT_EQ(permuted[1], std::vector<float>(6, 0.0f));
  // broadcast from rank 3 on a communicator of devices 2 and 3 alone.
  const std::vector<size_t> pair = {2, 3};
  const std::vector<phal_plugin_communicator_t*> two = Communicator(pair);
  phal_collective_desc_t broadcast =
      Desc(PHAL_COLLECTIVE_BROADCAST, PHAL_REDUCTION_NONE, 1, 6);
  broadcast.root = 1;
  const auto two_values = RankValues(2, 6);
  auto broadcasted = Run(pair, two, broadcast, two_values, 6);
  EXPECT_EQ(broadcasted[0], two_values[1]);
  EXPECT_EQ(broadcasted[1], two_values[1]);
}

void CollectiveContractTest::ExpectDisagreeingRanksFail() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  const std::vector<size_t> pair = {0, 1};
  const std::vector<phal_plugin_communicator_t*> two = Communicator(pair);
  // Both ranks send 8 values; rank 1 says it reduces them as products.
  phal_collective_desc_t sum =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 8);
  phal_collective_desc_t product = sum;
  product.reduction = PHAL_REDUCTION_PRODUCT;
  const auto values = RankValues(2, 8);
  std::vector<phal_plugin_buffer_t*> sends(2), recvs(2);
  for (size_t k = 0; k < 2; ++k) {
    ASSERT_TRUE(
        IsOk(api().buffer_allocate(rank_devices_[k], 0, 32, &sends[k])));
    ASSERT_TRUE(
        IsOk(api().buffer_allocate(rank_devices_[k], 0, 32, &recvs[k])));
    rank_buffers_.push_back(sends[k]);
    rank_buffers_.push_back(recvs[k]);
  }
  std::vector<phal_status_code_t> results(2, PHAL_OK);
  OnEveryRank(2, [&](size_t k) {
    phal_status_t* queued = api().stream_collective(rank_streams_[k], two[k],
                                                    k == 0 ? &sum : &product,
                                                    sends[k], 0, recvs[k], 0);
    phal_status_t* synced = api().stream_synchronize(rank_streams_[k]);
    results[k] = queued != nullptr   ? StatusCode(queued)
                 : synced != nullptr ? StatusCode(synced)
                                     : PHAL_OK;
    FreeStatus(queued);
    FreeStatus(synced);
  });
  EXPECT_EQ(results[0], PHAL_FAILED_PRECONDITION);
  EXPECT_EQ(results[1], PHAL_FAILED_PRECONDITION);
}

void CollectiveContractTest::ExpectAMissingRankTimesOut() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  const std::vector<phal_plugin_communicator_t*> two = Communicator({0, 1});
  phal_collective_desc_t desc =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 4);
  desc.timeout_ms = 100;
  phal_plugin_buffer_t* send = Allocate(16);
  phal_plugin_buffer_t* recv = Allocate(16);
  const auto start = std::chrono::steady_clock::now();
  StatusPtr queued(api().stream_collective(rank_streams_[0], two[0], &desc,
                                           send, 0, recv, 0));
  StatusPtr synced(api().stream_synchronize(rank_streams_[0]));
  const auto waited = std::chrono::steady_clock::now() - start;
  phal_status_t* failure = queued != nullptr ? queued.get() : synced.get();
  ASSERT_NE(failure, nullptr) << "a lone rank of two completed";
  EXPECT_EQ(StatusCode(failure), PHAL_DEADLINE_EXCEEDED)
      << StatusMessage(failure);
  EXPECT_NE(std::string(StatusMessage(failure)).find("1"), std::string::npos)
      << "the missing rank 1 is named: " << StatusMessage(failure);
  EXPECT_LT(waited, std::chrono::seconds(20));
}

void CollectiveContractTest::ExpectAbortEndsAWait() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  const std::vector<phal_plugin_communicator_t*> two = Communicator({0, 1});
  phal_collective_desc_t desc =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 4);
  desc.timeout_ms = 0;  // no limit: only the abort ends the wait
  phal_plugin_buffer_t* send = Allocate(16);
  phal_plugin_buffer_t* recv = Allocate(16);
  std::thread aborter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(IsOk(api().communicator_abort(two[1])));
  });
  StatusPtr queued(api().stream_collective(rank_streams_[0], two[0], &desc,
                                           send, 0, recv, 0));
  StatusPtr synced(api().stream_synchronize(rank_streams_[0]));
  aborter.join();
  phal_status_t* failure = queued != nullptr ? queued.get() : synced.get();
  ASSERT_NE(failure, nullptr) << "a lone rank of two completed";
  EXPECT_EQ(StatusCode(failure), PHAL_ABORTED) << StatusMessage(failure);
}

void CollectiveContractTest::ExpectSupportIsAnswered() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  int supported = -1;
  phal_collective_desc_t desc =
      Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 4);
  ASSERT_TRUE(
      IsOk(api().device_supports_collective(device_, &desc, &supported)));
  EXPECT_EQ(supported, 1) << "an f32 sum";
  desc.reduction = PHAL_REDUCTION_AND;
  ASSERT_TRUE(
      IsOk(api().device_supports_collective(device_, &desc, &supported)));
  EXPECT_EQ(supported, 0) << "an and of floats";
}

void CollectiveContractTest::ExpectJoinedCommunicatorsFollowTheLayouts() {
  if (!HasCollectives()) GTEST_SKIP() << "the plugin has no collective slots";
  const phal_plugin_api_t& table = api();
  if (table.struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_12 ||
      table.communicator_make_id == nullptr ||
      table.communicator_join == nullptr) {
    GTEST_SKIP() << "the plugin has no slots for communicators over several "
                    "processes (ABI 1.12)";
  }
  phal_communicator_id_t id{};
  phal_status_t* made = table.communicator_make_id(device_, &id);
  if (made != nullptr) {
    const phal_status_code_t code = StatusCode(made);
    FreeStatus(made);
    if (code == PHAL_UNIMPLEMENTED) {
      GTEST_SKIP() << "the devices join no communicators over processes";
    }
    FAIL() << "communicator_make_id failed with code " << code;
  }
  const std::vector<size_t> all = {0, 1, 2, 3};
  std::vector<phal_plugin_communicator_t*> handles(4, nullptr);
  OnEveryRank(2, [&](size_t half) {
    phal_plugin_device_t* devices[] = {rank_devices_[half],
                                       rank_devices_[half + 2]};
    const uint32_t ranks[] = {static_cast<uint32_t>(half),
                              static_cast<uint32_t>(half + 2)};
    phal_plugin_communicator_t* out[2] = {nullptr, nullptr};
    EXPECT_TRUE(
        IsOk(table.communicator_join(&id, 4, devices, ranks, 2, 30000, out)));
    handles[half] = out[0];
    handles[half + 2] = out[1];
  });
  for (phal_plugin_communicator_t* handle : handles) {
    ASSERT_NE(handle, nullptr);
    communicators_.push_back(handle);
  }
  const auto values = RankValues(4, 8);
  // Each description with rank r's expected values.
  struct Case {
    std::string name;
    phal_collective_desc_t desc;
    size_t recv_count;
    std::function<float(size_t r, size_t i)> expected;
  };
  std::vector<Case> cases;
  cases.push_back({"all-reduce sum",
                   Desc(PHAL_COLLECTIVE_ALL_REDUCE, PHAL_REDUCTION_SUM, 1, 8),
                   8, [&](size_t, size_t i) {
                     return values[0][i] + values[1][i] + values[2][i] +
                            values[3][i];
                   }});
  cases.push_back({"all-gather",
                   Desc(PHAL_COLLECTIVE_ALL_GATHER, PHAL_REDUCTION_NONE, 1, 8),
                   32, [&](size_t, size_t i) { return values[i / 8][i % 8]; }});
  cases.push_back(
      {"reduce-scatter max",
       Desc(PHAL_COLLECTIVE_REDUCE_SCATTER, PHAL_REDUCTION_MAX, 1, 2), 2,
       [&](size_t r, size_t i) { return values[3][r * 2 + i]; }});
  cases.push_back(
      {"all-to-all",
       Desc(PHAL_COLLECTIVE_ALL_TO_ALL, PHAL_REDUCTION_NONE, 1, 2), 8,
       [&](size_t r, size_t i) { return values[i / 2][r * 2 + i % 2]; }});
  phal_collective_desc_t broadcast =
      Desc(PHAL_COLLECTIVE_BROADCAST, PHAL_REDUCTION_NONE, 1, 8);
  broadcast.root = 3;
  cases.push_back({"broadcast from rank 3", broadcast, 8,
                   [&](size_t, size_t i) { return values[3][i]; }});
  static const phal_collective_pair_t kPairs[] = {{0, 2}, {2, 0}, {1, 3}};
  phal_collective_desc_t permute =
      Desc(PHAL_COLLECTIVE_PERMUTE, PHAL_REDUCTION_NONE, 1, 8);
  permute.pairs = kPairs;
  permute.pair_count = 3;
  cases.push_back(
      {"permute 0->2, 2->0, 1->3", permute, 8, [&](size_t r, size_t i) {
         return r == 0   ? values[2][i]
                : r == 2 ? values[0][i]
                : r == 3 ? values[1][i]
                         : 0.0f;
       }});
  int supported_count = 0;
  for (const Case& test : cases) {
    SCOPED_TRACE(test.name);
    int supported = -1;
    ASSERT_TRUE(IsOk(table.device_supports_joined_collective(
        device_, &test.desc, 4, &supported)));
    ASSERT_TRUE(supported == 0 || supported == 1) << supported;
    if (supported == 0) continue;
    ++supported_count;
    const auto received = Run(all, handles, test.desc, values, test.recv_count);
    for (size_t r = 0; r < 4; ++r) {
      for (size_t i = 0; i < test.recv_count; ++i) {
        EXPECT_EQ(received[r][i], test.expected(r, i))
            << "rank " << r << ", element " << i;
      }
    }
  }
  EXPECT_GT(supported_count, 0)
      << "the plugin joins communicators but runs no collective on them";
}

}  // namespace phal::plugin_testing
