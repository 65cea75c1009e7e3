// The memory figures of `polyhal stress`: resident memory and the C
// library allocator's figures, read now or sampled once a second.
#ifndef POLYHAL_CLI_STRESS_MEMORY_SAMPLER_H_
#define POLYHAL_CLI_STRESS_MEMORY_SAMPLER_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace phal::cli::stress {

// Resident memory of this process in bytes (/proc/self/statm); 0 where
// it cannot be read.
uint64_t ResidentBytes();

double Mib(uint64_t bytes);

// What the C library's allocator reports: the bytes its callers hold
// (in use) and the bytes it has taken from the system for them (held: in
// use plus freed memory kept in its arenas). Resident memory growing while
// `in_use` stays flat is the allocator's retention, not a leak. Both are 0
// where the allocator cannot say (not glibc, or a sanitizer's allocator
// in its place).
struct HeapFigures {
  uint64_t in_use = 0;
  uint64_t held = 0;
};

HeapFigures Heap();

// Resident memory and the allocator's figures once a second, from start to
// Stop().
class MemorySampler {
 public:
  MemorySampler() : thread_([this] { Run(); }) {}
  ~MemorySampler() { Stop(); }

  void Stop();
  // Samples in MiB, one per second since the sampler started.
  std::vector<double> samples() const {
    std::lock_guard lock(mutex_);
    return samples_;
  }
  std::vector<double> heap_in_use() const {
    std::lock_guard lock(mutex_);
    return heap_in_use_;
  }
  std::vector<double> heap_held() const {
    std::lock_guard lock(mutex_);
    return heap_held_;
  }

 private:
  void Run();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::vector<double> samples_;
  std::vector<double> heap_in_use_;
  std::vector<double> heap_held_;
  std::thread thread_;
};

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_MEMORY_SAMPLER_H_
