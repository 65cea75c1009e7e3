// The worker threads every kernel of a device shares. A launch splits its
// kernel's outer range into chunks; the pool's workers and the launching
// stream's own worker run them, so several streams launching at once share
// the cores instead of oversubscribing them.
#ifndef POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_
#define POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_

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

  void RunWorker();
  static void RunChunks(Job& job);

  std::mutex mutex_;
  std::condition_variable job_queued_;
  std::deque<std::shared_ptr<Job>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_THREAD_POOL_H_
