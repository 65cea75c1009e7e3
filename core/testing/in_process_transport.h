// The ranks of a job as threads of one process: a HostTransport per rank
// over shared mailboxes, so that the distributed executor's tests run
// without MPI (and under TSan). A rank that is never run simply never
// sends: its peers time out as they would at a process that died.
#ifndef POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_
#define POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "core/executor/host_transport.h"

namespace phal::testing {

class InProcessJob {
 public:
  explicit InProcessJob(int size) {
    for (int rank = 0; rank < size; ++rank) {
      ranks_.push_back(std::make_unique<Rank>(this, rank, size));
    }
  }
  HostTransport& rank(int r) { return *ranks_[static_cast<std::size_t>(r)]; }

 private:
  class Rank final : public HostTransport {
   public:
    Rank(InProcessJob* job, int rank, int size)
        : job_(job), rank_(rank), size_(size) {}
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    Status Exchange(std::vector<Message>& sends, std::vector<Message>& receives,
                    int tag, std::chrono::milliseconds timeout,
                    const std::string& what) override {
      return job_->Exchange(rank_, sends, receives, tag, timeout, what);
    }

   private:
    InProcessJob* job_;
    int rank_;
    int size_;
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

  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<Key, std::deque<std::vector<uint8_t>>> mailboxes_;
  std::vector<std::unique_ptr<Rank>> ranks_;
};

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_IN_PROCESS_TRANSPORT_H_
