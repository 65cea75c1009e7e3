// The worker threads every kernel of a device shares. A launch splits its
// kernel's outer range into chunks; the pool's workers and the launching
// stream's own worker run them, so several streams launching at once share
// the cores instead of oversubscribing them. A worker out of work, and a
// caller waiting for its chunks, first spin for kSpin before sleeping: a
// program's kernels follow each other within microseconds, and waking a
// sleeping thread costs tens of them.
#ifndef POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_
#define POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace phal::cpu {

class ThreadPool {
 public:
  using RangeBody = std::function<void(int64_t begin, int64_t end)>;

  // `thread_count` threads work on a ParallelFor: the caller and
  // thread_count - 1 workers started here.
  explicit ThreadPool(unsigned thread_count);
  // Joins the workers; no ParallelFor may be running.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs body over [0, extent) in chunks of at least `grain` iterations and
  // returns once every chunk has run. Thread-safe; `body` must not throw.
  void ParallelFor(int64_t extent, int64_t grain, const RangeBody& body);

  unsigned thread_count() const {
    return static_cast<unsigned>(workers_.size()) + 1;
  }

 private:
  struct Job;
  static constexpr std::chrono::microseconds kSpin{100};

  void RunWorker();
  static void RunChunks(Job& job);
  // Spins until `done()` holds or kSpin has passed; returns `done()`.
  template <typename Done>
  static bool SpinUntil(const Done& done);

  std::mutex mutex_;
  std::condition_variable job_queued_;
  std::deque<std::shared_ptr<Job>> queue_;
  // queue_.size(), read without the mutex by spinning workers.
  std::atomic<int64_t> queued_{0};
  // Set once, under mutex_, when the pool shuts down; spinning workers read
  // it without the mutex.
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> workers_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_
