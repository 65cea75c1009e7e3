#include "cli/stress/memory_sampler.h"

#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>

#include "cli/sanitizer_build.h"
#include "cli/stress/clock.h"

namespace phal::cli::stress {

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size_pages = 0;
  uint64_t resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

double Mib(uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

HeapFigures Heap() {
  HeapFigures figures;
#if defined(__GLIBC__) && !PHAL_SANITIZER_BUILD && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = ::mallinfo2();
  figures.in_use = info.uordblks + info.hblkhd;
  figures.held = info.arena + info.hblkhd;
#endif
  return figures;
}

void MemorySampler::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MemorySampler::Run() {
  std::unique_lock lock(mutex_);
  Clock::time_point next = Clock::now();
  while (!stopped_) {
    samples_.push_back(Mib(ResidentBytes()));
    const HeapFigures heap = Heap();
    heap_in_use_.push_back(Mib(heap.in_use));
    heap_held_.push_back(Mib(heap.held));
    next += std::chrono::seconds(1);
    wake_.wait_until(lock, next, [this] { return stopped_; });
  }
}

}  // namespace phal::cli::stress
