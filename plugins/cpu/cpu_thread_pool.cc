#include "plugins/cpu/cpu_thread_pool.h"

#include <algorithm>
#include <atomic>

namespace phal::cpu {

// One ParallelFor: chunks are claimed through `next_chunk`, so whoever is
// free takes the next one, and the caller waits for `finished_chunks`.
struct ThreadPool::Job {
  const RangeBody* body;
  int64_t extent;
  int64_t chunk_size;
  int64_t chunk_count;
  std::atomic<int64_t> next_chunk{0};
  std::atomic<int64_t> finished_chunks{0};
  std::mutex mutex;
  std::condition_variable finished;
};

ThreadPool::ThreadPool(unsigned thread_count) {
  const unsigned workers = std::max(1u, thread_count) - 1;
  workers_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) {
    workers_.emplace_back(&ThreadPool::RunWorker, this);
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  job_queued_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

template <typename Done>
bool ThreadPool::SpinUntil(const Done& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    for (int i = 0; i < 32; ++i) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
  return true;
}

void ThreadPool::RunChunks(Job& job) {
  int64_t finished = 0;
  while (true) {
    const int64_t chunk = job.next_chunk.fetch_add(1);
    if (chunk >= job.chunk_count) break;
    const int64_t begin = chunk * job.chunk_size;
    (*job.body)(begin, std::min(job.extent, begin + job.chunk_size));
    ++finished;
  }
  if (finished == 0) return;
  if (job.finished_chunks.fetch_add(finished) + finished == job.chunk_count) {
    std::lock_guard lock(job.mutex);
    job.finished.notify_all();
  }
}

void ThreadPool::RunWorker() {
  while (true) {
    std::shared_ptr<Job> job;
    SpinUntil([&] { return queued_.load() > 0 || stopping_.load(); });
    {
      std::unique_lock lock(mutex_);
      job_queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      queued_.fetch_sub(1);
    }
    RunChunks(*job);
  }
}

void ThreadPool::ParallelFor(int64_t extent, int64_t grain,
                             const RangeBody& body) {
  if (extent <= 0) return;
  const int64_t threads = thread_count();
  // A few chunks per thread balance uneven rows without much overhead.
  const int64_t target_chunks = threads == 1 ? 1 : threads * 4;
  const int64_t chunk_size =
      std::max(std::max<int64_t>(1, grain),
               (extent + target_chunks - 1) / target_chunks);
  const int64_t chunk_count = (extent + chunk_size - 1) / chunk_size;
  // One chunk is the caller's alone: no job to share, no one to tell.
  if (chunk_count == 1) {
    body(0, extent);
    return;
  }
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->extent = extent;
  job->chunk_size = chunk_size;
  job->chunk_count = chunk_count;
  const int64_t helpers = std::min<int64_t>(
      job->chunk_count - 1, static_cast<int64_t>(workers_.size()));
  if (helpers > 0) {
    {
      std::lock_guard lock(mutex_);
      for (int64_t i = 0; i < helpers; ++i) queue_.push_back(job);
      queued_.fetch_add(helpers);
    }
    job_queued_.notify_all();
  }
  RunChunks(*job);
  auto all_finished = [&] {
    return job->finished_chunks.load() == job->chunk_count;
  };
  if (SpinUntil(all_finished)) return;
  std::unique_lock lock(job->mutex);
  job->finished.wait(lock, all_finished);
}

}  // namespace phal::cpu
