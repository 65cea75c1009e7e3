// The ranks of a job as threads of one process: a HostTransport per rank
// over shared mailboxes, so that the distributed executor's tests run
// without MPI (and under TSan). A rank that is never run simply never
// sends: its peers time out as they would at a process that died. With
// reductions, each rank also runs all-reduces itself (HostReductions, as
// MPI's transport does), combining the ranks' values in descending rank
// order, so that a test tells them from the exchange's rank order.
#ifndef POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_
#define POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/executor/host_reduce.h"
#include "core/executor/host_transport.h"
#include "sdk/base/element_types.h"

namespace phal::testing {

class InProcessJob {
 public:
  explicit InProcessJob(int size, bool reductions = false) {
    for (int rank = 0; rank < size; ++rank) {
      ranks_.push_back(std::make_unique<Rank>(this, rank, size, reductions));
    }
  }
  HostTransport& rank(int r) { return *ranks_[static_cast<std::size_t>(r)]; }

  // Rank `rank`'s all-reduces fail at once from now on, as a process that
  // dies inside one would leave its peers waiting.
  void StopReductionsOf(int rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = rank;
  }

  // How many all-reduces the ranks ran themselves, and how many groups
  // they made.
  int reductions_run() const { return reductions_run_.load(); }
  int groups_made() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(groups_.size());
  }

 private:
  class Rank final : public HostTransport, public HostReductions {
   public:
    Rank(InProcessJob* job, int rank, int size, bool reductions)
        : job_(job), rank_(rank), size_(size), reductions_(reductions) {}
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    Status Exchange(std::vector<Message>& sends, std::vector<Message>& receives,
                    int tag, std::chrono::milliseconds timeout,
                    const std::string& what) override {
      return job_->Exchange(rank_, sends, receives, tag, timeout, what);
    }
    HostReductions* reductions() override {
      return reductions_ ? this : nullptr;
    }
    bool Supports(phal_element_type_t type, phal_reduction_t reduction,
                  int) const override {
      return HostReducible(type, reduction);
    }
    StatusOr<uint64_t> MakeGroup(std::span<const int> ranks,
                                 std::chrono::milliseconds) override {
      return job_->MakeGroup(rank_,
                             std::vector<int>(ranks.begin(), ranks.end()));
    }
    Status AllReduce(uint64_t group, void* data, std::size_t count,
                     phal_element_type_t type, phal_reduction_t reduction,
                     std::chrono::milliseconds timeout,
                     const std::string& what) override {
      return job_->AllReduce(rank_, group, data, count, type, reduction,
                             timeout, what);
    }

   private:
    InProcessJob* job_;
    int rank_;
    int size_;
    bool reductions_;
  };

  // Rank `me`'s n-th group over `ranks` is every other member's n-th.
  uint64_t MakeGroup(int me, const std::vector<int>& ranks) {
    std::lock_guard<std::mutex> lock(mutex_);
    const int nth = made_[{me, ranks}]++;
    auto [found, added] =
        group_ids_.emplace(std::make_pair(ranks, nth), groups_.size());
    if (added) groups_.push_back(ranks);
    return found->second;
  }

  // Every rank of the group leaves its values; the last to arrive combines
  // them in descending rank order; each takes the result.
  Status AllReduce(int me, uint64_t group, void* data, std::size_t count,
                   phal_element_type_t type, phal_reduction_t reduction,
                   std::chrono::milliseconds timeout, const std::string& what) {
    const std::size_t bytes = count * ElementTypeByteSize(type);
    std::unique_lock<std::mutex> lock(mutex_);
    if (me == stopped_) return Unavailable(what + ": this rank stopped");
    const std::vector<int>& ranks = groups_[group];
    const int call = calls_[{me, group}]++;
    Round& round = rounds_[{group, call}];
    round.values[me].assign(static_cast<uint8_t*>(data),
                            static_cast<uint8_t*>(data) + bytes);
    if (round.values.size() == ranks.size()) {
      auto it = round.values.rbegin();
      round.result = it->second;
      for (++it; it != round.values.rend(); ++it) {
        ReduceInto(type, reduction, round.result.data(), it->second.data(),
                   count);
      }
      round.done = true;
      reductions_run_.fetch_add(1);
      arrived_.notify_all();
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!rounds_[{group, call}].done) {
      if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
        return DeadlineExceeded(what + ": the all-reduce did not complete");
      }
    }
    Round& finished = rounds_[{group, call}];
    std::memcpy(data, finished.result.data(), bytes);
    if (++finished.taken == ranks.size()) rounds_.erase({group, call});
    return OkStatus();
  }

  struct Round {
    std::map<int, std::vector<uint8_t>> values;  // by rank
    std::vector<uint8_t> result;
    bool done = false;
    std::size_t taken = 0;
  };

  // (from, to, tag) -> the messages in flight, oldest first.
  using Key = std::tuple<int, int, int>;

  Status Exchange(int me, std::vector<HostTransport::Message>& sends,
                  std::vector<HostTransport::Message>& receives, int tag,
                  std::chrono::milliseconds timeout, const std::string& what) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (HostTransport::Message& message : sends) {
      mailboxes_[{me, message.peer, message.tag != 0 ? message.tag : tag}]
          .push_back(message.bytes);
    }
    arrived_.notify_all();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<bool> done(receives.size(), false);
    for (;;) {
      std::vector<int> missing;
      for (std::size_t i = 0; i < receives.size(); ++i) {
        if (done[i]) continue;
        HostTransport::Message& message = receives[i];
        auto found = mailboxes_.find(
            {message.peer, me, message.tag != 0 ? message.tag : tag});
        if (found == mailboxes_.end() || found->second.empty()) {
          missing.push_back(message.peer);
          continue;
        }
        std::vector<uint8_t> bytes = std::move(found->second.front());
        found->second.pop_front();
        if (bytes.size() != message.bytes.size()) {
          return FailedPrecondition(
              what + ": rank " + std::to_string(message.peer) + " sent " +
              std::to_string(bytes.size()) + " bytes where " +
              std::to_string(message.bytes.size()) + " were expected");
        }
        message.bytes = std::move(bytes);
        done[i] = true;
      }
      if (missing.empty()) return OkStatus();
      if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
        return DeadlineExceeded(what + ": ranks " + RankListToString(missing) +
                                " did not arrive within " +
                                std::to_string(timeout.count()) + " ms");
      }
    }
  }

  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<Key, std::deque<std::vector<uint8_t>>> mailboxes_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::map<std::pair<int, std::vector<int>>, int> made_;
  std::map<std::pair<std::vector<int>, int>, uint64_t> group_ids_;
  std::vector<std::vector<int>> groups_;
  std::map<std::pair<int, uint64_t>, int> calls_;
  std::map<std::pair<uint64_t, int>, Round> rounds_;
  std::atomic<int> reductions_run_{0};
  int stopped_ = -1;
};

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_
