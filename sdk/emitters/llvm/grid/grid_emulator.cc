#include "sdk/emitters/llvm/grid/grid_emulator.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "sdk/emitters/llvm/grid/grid_fiber.h"
#include "sdk/emitters/llvm/grid/grid_runtime.h"

namespace phal::llvm_emitter::grid {
namespace {

// Shared memory and scratch start at this alignment, beyond the 16 bytes
// the SPMD target promises, so vector accesses never split cache lines.
constexpr size_t kAlignment = 64;
// Checking mode fills fresh shared memory and scratch with this byte, so a
// kernel that reads what it never wrote sees garbage rather than the zeros
// or stale values that would hide the bug.
constexpr uint8_t kUninitializedByte = 0xA5;
// Shadow entries name threads as linear index + 1; 0 is nobody.
constexpr uint32_t kMaxBlockThreads = 65535;

struct AlignedDeleter {
  void operator()(uint8_t* bytes) const {
    ::operator delete[](bytes, std::align_val_t(kAlignment));
  }
};
using AlignedBytes = std::unique_ptr<uint8_t[], AlignedDeleter>;

AlignedBytes AllocateAligned(size_t bytes) {
  return AlignedBytes(new (std::align_val_t(kAlignment)) uint8_t[bytes]);
}

// splitmix64: small, fast and good enough to shuffle thread orders.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t bound) { return static_cast<size_t>(Next() % bound); }

 private:
  uint64_t state_;
};

std::string Triple(const uint32_t index[3]) {
  return "(" + std::to_string(index[0]) + "," + std::to_string(index[1]) + "," +
         std::to_string(index[2]) + ")";
}

std::string Hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

// A range of memory checked accesses may touch, named for reports.
struct Region {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  std::string name;
};

// What every block of one RunGrid shares.
struct GridRun {
  GridKernelEntry entry = nullptr;
  const SpmdLaunch* launch = nullptr;
  const GridOptions* options = nullptr;
  std::vector<void*> args;
  std::vector<Region> regions;  // the buffers, then the scratch buffer
  uint32_t block_threads = 0;
  uint64_t block_count = 0;
  std::atomic<uint64_t> next_block{0};
  // Blocks above the lowest failing one are not started.
  std::atomic<uint64_t> lowest_failed_block{
      std::numeric_limits<uint64_t>::max()};
  std::mutex failure_mutex;
  Status failure;
};

enum class ThreadState : uint8_t {
  kUnstarted,
  kRunning,
  kReady,
  kAtBarrier,
  kAtShuffle,
  kFinished,
};

struct EmulatedThread {
  uint32_t index[3] = {0, 0, 0};
  uint32_t linear = 0;
  ThreadState state = ThreadState::kUnstarted;
  int32_t wait_id = 0;  // the barrier or shuffle it waits at
  Fiber* fiber = nullptr;
};

struct Warp {
  uint32_t lanes = 0;  // lanes the block has in this warp
  uint32_t arrived = 0;
  int32_t delta = 0;
  int32_t shuffle_id = 0;
  uint32_t first_lane = 0;  // the first lane to arrive at the open shuffle
  std::vector<uint64_t> values;
  std::vector<uint64_t> results;
};

// Who touched one byte of shared memory since the last barrier.
struct ByteShadow {
  uint32_t epoch = 0;
  uint16_t writer = 0;
  uint16_t reader = 0;
  uint16_t other_reader = 0;  // a reader other than `reader`
};

class BlockRunner;
thread_local BlockRunner* t_runner = nullptr;

void FiberMain(void* fiber);

// Runs blocks on one host thread: its fibers, shared memory and shadow are
// made once and reused from block to block and launch to launch.
class BlockRunner {
 public:
  static BlockRunner& ForThisThread() {
    thread_local std::unique_ptr<BlockRunner> runner;
    if (runner == nullptr) runner = std::make_unique<BlockRunner>();
    return *runner;
  }

  Status RunBlock(const GridRun& run, uint64_t block);

  // The runtime functions (grid_runtime.h), on the running thread.
  EmulatedThread& current() { return *current_; }
  uint32_t block_index(unsigned dimension) const {
    return block_index_[dimension];
  }
  const SpmdLaunch& launch() const { return *run_->launch; }
  void Barrier(int32_t barrier_id);
  void* SharedMemory(int64_t bytes);
  uint64_t ShuffleDown(uint64_t bits, int32_t delta, int32_t shuffle_id);
  bool CheckAccess(uintptr_t address, uint64_t bytes, GridAccess access);
  void* Sink(uint64_t bytes);
  bool failed() const { return !error_.ok(); }

  // The body of every fiber: runs unstarted threads until none is left.
  void FiberLoop(Fiber& fiber);

 private:
  void StartBlock(const GridRun& run, uint64_t block);
  Status Schedule();
  StatusOr<Fiber*> IdleFiber();
  void Wait(ThreadState state, int32_t wait_id);
  void Abandon();
  void NextEpoch();
  void Wake(EmulatedThread& thread);
  void YieldIfChecking();
  void Fail(Status status);
  std::string Where(const EmulatedThread& thread) const;
  Status Stuck() const;
  void CheckRace(const EmulatedThread& thread, uint64_t offset, uint64_t bytes,
                 bool write);
  void Report(std::string what, phal_status_code_t code);

  FiberHome home_;
  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::vector<Fiber*> idle_;
  size_t stack_bytes_ = 0;

  const GridRun* run_ = nullptr;
  uint64_t block_linear_ = 0;
  uint32_t block_index_[3] = {0, 0, 0};
  std::vector<EmulatedThread> threads_;
  std::vector<uint32_t> start_order_;
  size_t next_start_ = 0;
  size_t finished_ = 0;
  std::vector<EmulatedThread*> ready_;
  EmulatedThread* current_ = nullptr;
  Random random_{0};
  Status error_;

  std::vector<EmulatedThread*> barrier_waiters_;
  int32_t barrier_id_ = 0;
  uint32_t barrier_first_ = 0;
  std::vector<Warp> warps_;

  AlignedBytes shared_;
  size_t shared_capacity_ = 0;
  std::vector<ByteShadow> shadow_;
  uint32_t epoch_ = 0;
  AlignedBytes sink_;
  size_t sink_capacity_ = 0;
};

void FiberMain(void* fiber) {
  t_runner->FiberLoop(*static_cast<Fiber*>(fiber));
}

void BlockRunner::FiberLoop(Fiber& fiber) {
  for (;;) {
    if (next_start_ == threads_.size() || failed()) {
      idle_.push_back(&fiber);
      fiber.Suspend(home_);
      continue;
    }
    EmulatedThread& thread = threads_[start_order_[next_start_++]];
    thread.state = ThreadState::kRunning;
    thread.fiber = &fiber;
    current_ = &thread;
    run_->entry(run_->args.data());
    thread.state = ThreadState::kFinished;
    ++finished_;
    // In checking mode the scheduler picks what runs next, so a finished
    // thread gives way to a random ready one.
    if (run_->options->check) {
      idle_.push_back(&fiber);
      fiber.Suspend(home_);
    }
  }
}

void BlockRunner::StartBlock(const GridRun& run, uint64_t block) {
  const SpmdLaunch& launch = *run.launch;
  const GridOptions& options = *run.options;
  if (stack_bytes_ != options.stack_bytes) {
    // Fibers are made for one stack size; a launch asking for another
    // starts a fresh set.
    idle_.clear();
    fibers_.clear();
    stack_bytes_ = options.stack_bytes;
  }
  run_ = &run;
  block_linear_ = block;
  block_index_[0] = static_cast<uint32_t>(block % launch.grid[0]);
  block_index_[1] =
      static_cast<uint32_t>(block / launch.grid[0] % launch.grid[1]);
  block_index_[2] = static_cast<uint32_t>(
      block / (uint64_t{launch.grid[0]} * launch.grid[1]));
  error_ = OkStatus();
  random_ = Random(options.seed ^ (block * 0xD1B54A32D192ED03ull));

  const uint32_t count = run.block_threads;
  threads_.resize(count);
  start_order_.resize(count);
  for (uint32_t linear = 0; linear < count; ++linear) {
    EmulatedThread& thread = threads_[linear];
    thread.linear = linear;
    thread.index[0] = linear % launch.block[0];
    thread.index[1] = linear / launch.block[0] % launch.block[1];
    thread.index[2] = linear / (launch.block[0] * launch.block[1]);
    thread.state = ThreadState::kUnstarted;
    thread.fiber = nullptr;
    start_order_[linear] = linear;
  }
  if (options.check) {
    for (uint32_t i = count; i > 1; --i) {
      std::swap(start_order_[i - 1], start_order_[random_.Below(i)]);
    }
  }
  next_start_ = 0;
  finished_ = 0;
  ready_.clear();
  barrier_waiters_.clear();
  current_ = nullptr;

  const unsigned warp_size = options.limits.warp_size;
  warps_.clear();
  if (warp_size > 0) {
    warps_.resize((count + warp_size - 1) / warp_size);
    for (size_t w = 0; w < warps_.size(); ++w) {
      warps_[w].lanes = std::min<uint32_t>(
          warp_size, count - static_cast<uint32_t>(w) * warp_size);
      warps_[w].values.resize(warp_size);
      warps_[w].results.resize(warp_size);
    }
  }

  const size_t shared_bytes = launch.shared_bytes;
  if (shared_capacity_ < std::max<size_t>(shared_bytes, 1)) {
    shared_capacity_ = std::max<size_t>(shared_bytes, 1);
    shared_ = AllocateAligned(shared_capacity_);
  }
  if (options.check) {
    std::memset(shared_.get(), kUninitializedByte, shared_bytes);
    if (shadow_.size() < shared_bytes) shadow_.resize(shared_bytes);
    NextEpoch();
  }
}

StatusOr<Fiber*> BlockRunner::IdleFiber() {
  if (!idle_.empty()) {
    Fiber* fiber = idle_.back();
    idle_.pop_back();
    return fiber;
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Fiber> fiber,
                        Fiber::Create(stack_bytes_));
  fiber->Reset(&FiberMain, fiber.get());
  fibers_.push_back(std::move(fiber));
  return fibers_.back().get();
}

Status BlockRunner::RunBlock(const GridRun& run, uint64_t block) {
  t_runner = this;
  StartBlock(run, block);
  Status status = Schedule();
  // Threads left waiting (the block failed) are abandoned: their fibers
  // start afresh for the next block.
  for (EmulatedThread& thread : threads_) {
    if (thread.state == ThreadState::kUnstarted ||
        thread.state == ThreadState::kFinished) {
      continue;
    }
    thread.fiber->Reset(&FiberMain, thread.fiber);
    idle_.push_back(thread.fiber);
  }
  run_ = nullptr;
  return status;
}

Status BlockRunner::Schedule() {
  const bool check = run_->options->check;
  for (;;) {
    if (failed()) return error_;
    if (!ready_.empty()) {
      const size_t pick = check ? random_.Below(ready_.size()) : 0;
      std::swap(ready_[pick], ready_.back());
      EmulatedThread* thread = ready_.back();
      ready_.pop_back();
      thread->state = ThreadState::kRunning;
      current_ = thread;
      thread->fiber->Resume(home_);
      continue;
    }
    if (next_start_ < threads_.size()) {
      PHAL_ASSIGN_OR_RETURN(Fiber * fiber, IdleFiber());
      fiber->Resume(home_);
      continue;
    }
    if (finished_ == threads_.size()) return OkStatus();
    return Stuck();
  }
}

void BlockRunner::Wait(ThreadState state, int32_t wait_id) {
  EmulatedThread& thread = *current_;
  thread.state = state;
  thread.wait_id = wait_id;
  thread.fiber->Suspend(home_);
}

// A thread of a failed block stops here: the scheduler ends the block and
// never resumes the fiber, which starts afresh for the next one.
void BlockRunner::Abandon() { current_->fiber->Suspend(home_); }

// Race checks compare epochs: a new one at every block and barrier makes
// every earlier access stale without touching the shadow.
void BlockRunner::NextEpoch() {
  if (++epoch_ != 0) return;
  std::fill(shadow_.begin(), shadow_.end(), ByteShadow{});
  epoch_ = 1;
}

void BlockRunner::Wake(EmulatedThread& thread) {
  thread.state = ThreadState::kReady;
  ready_.push_back(&thread);
}

void BlockRunner::YieldIfChecking() {
  if (!run_->options->check) return;
  EmulatedThread& thread = *current_;
  Wake(thread);
  thread.fiber->Suspend(home_);
}

void BlockRunner::Fail(Status status) {
  if (error_.ok()) error_ = std::move(status);
}

void BlockRunner::Report(std::string what, phal_status_code_t code) {
  Fail(Status(code, "grid emulator: block " + Triple(block_index_) + ": " +
                        std::move(what)));
}

std::string BlockRunner::Where(const EmulatedThread& thread) const {
  return "thread " + Triple(thread.index);
}

void BlockRunner::Barrier(int32_t barrier_id) {
  EmulatedThread& thread = *current_;
  if (barrier_waiters_.empty()) {
    barrier_id_ = barrier_id;
    barrier_first_ = thread.linear;
  } else if (barrier_id != barrier_id_) {
    Report(Where(thread) + " waits at barrier #" + std::to_string(barrier_id) +
               " while " + Where(threads_[barrier_first_]) +
               " waits at barrier #" + std::to_string(barrier_id_) +
               ": a divergent barrier",
           PHAL_FAILED_PRECONDITION);
  }
  if (failed()) {
    Abandon();
    return;
  }
  barrier_waiters_.push_back(&thread);
  if (barrier_waiters_.size() < threads_.size()) {
    Wait(ThreadState::kAtBarrier, barrier_id);
    return;
  }
  // The last thread in opens the barrier.
  NextEpoch();
  for (EmulatedThread* waiter : barrier_waiters_) {
    if (waiter != &thread) Wake(*waiter);
  }
  barrier_waiters_.clear();
  YieldIfChecking();
}

void* BlockRunner::SharedMemory(int64_t bytes) {
  if (static_cast<uint64_t>(bytes) > run_->launch->shared_bytes) {
    Report("the kernel uses " + std::to_string(bytes) +
               " bytes of shared memory, but the launch gives " +
               std::to_string(run_->launch->shared_bytes),
           PHAL_OUT_OF_RANGE);
  }
  return shared_.get();
}

uint64_t BlockRunner::ShuffleDown(uint64_t bits, int32_t delta,
                                  int32_t shuffle_id) {
  EmulatedThread& thread = *current_;
  const unsigned warp_size = run_->options->limits.warp_size;
  if (warp_size == 0) {
    Report("the kernel shuffles, but the device has no warps",
           PHAL_FAILED_PRECONDITION);
    Abandon();
    return bits;
  }
  Warp& warp = warps_[thread.linear / warp_size];
  const uint32_t lane = thread.linear % warp_size;
  if (warp.arrived == 0) {
    warp.delta = delta;
    warp.shuffle_id = shuffle_id;
    warp.first_lane = thread.linear;
  } else if (delta != warp.delta || shuffle_id != warp.shuffle_id) {
    Report(Where(thread) + " shuffles at #" + std::to_string(shuffle_id) +
               " by " + std::to_string(delta) + " while " +
               Where(threads_[warp.first_lane]) + " of its warp shuffles at #" +
               std::to_string(warp.shuffle_id) + " by " +
               std::to_string(warp.delta) + ": a divergent shuffle",
           PHAL_FAILED_PRECONDITION);
  }
  if (failed()) {
    Abandon();
    return bits;
  }
  warp.values[lane] = bits;
  if (++warp.arrived < warp.lanes) {
    Wait(ThreadState::kAtShuffle, shuffle_id);
    return warp.results[lane];
  }
  // The last lane in computes every lane's result; a lane reads its own
  // before it can reach the warp's next shuffle, so one array serves.
  for (uint32_t i = 0; i < warp.lanes; ++i) {
    const uint64_t source = uint64_t{i} + static_cast<uint32_t>(warp.delta);
    warp.results[i] = warp.values[source < warp.lanes ? source : i];
  }
  warp.arrived = 0;
  const uint32_t first = thread.linear - lane;
  for (uint32_t i = 0; i < warp.lanes; ++i) {
    if (first + i != thread.linear) Wake(threads_[first + i]);
  }
  YieldIfChecking();
  return warp.results[lane];
}

Status BlockRunner::Stuck() const {
  const EmulatedThread* at_barrier = nullptr;
  const EmulatedThread* at_shuffle = nullptr;
  const EmulatedThread* finished = nullptr;
  for (const EmulatedThread& thread : threads_) {
    if (thread.state == ThreadState::kAtBarrier && at_barrier == nullptr) {
      at_barrier = &thread;
    } else if (thread.state == ThreadState::kAtShuffle &&
               at_shuffle == nullptr) {
      at_shuffle = &thread;
    } else if (thread.state == ThreadState::kFinished && finished == nullptr) {
      finished = &thread;
    }
  }
  const std::string block = "grid emulator: block " + Triple(block_index_);
  if (at_shuffle != nullptr) {
    // Some lane of its warp is not at the shuffle: it finished, or waits
    // at a barrier that waits in turn for this lane.
    const unsigned warp_size = run_->options->limits.warp_size;
    const uint32_t first = at_shuffle->linear / warp_size * warp_size;
    const uint32_t lanes = warps_[at_shuffle->linear / warp_size].lanes;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      const EmulatedThread& other = threads_[first + lane];
      if (other.state == ThreadState::kFinished) {
        return FailedPrecondition(
            block + ": " + Where(*at_shuffle) + " waits at shuffle #" +
            std::to_string(at_shuffle->wait_id) + ", but " + Where(other) +
            " of its warp finished without reaching it: a divergent shuffle");
      }
      if (other.state == ThreadState::kAtBarrier) {
        return FailedPrecondition(
            block + ": deadlock: " + Where(*at_shuffle) +
            " waits at shuffle #" + std::to_string(at_shuffle->wait_id) +
            " for " + Where(other) + " of its warp, which waits at barrier #" +
            std::to_string(other.wait_id));
      }
    }
  }
  if (at_barrier != nullptr && finished != nullptr) {
    return FailedPrecondition(
        block + ": " + Where(*at_barrier) + " waits at barrier #" +
        std::to_string(at_barrier->wait_id) + ", but " + Where(*finished) +
        " finished without reaching it: a divergent barrier");
  }
  return FailedPrecondition(block + ": deadlock: no thread can continue");
}

void BlockRunner::CheckRace(const EmulatedThread& thread, uint64_t offset,
                            uint64_t bytes, bool write) {
  const uint16_t self = static_cast<uint16_t>(thread.linear + 1);
  for (uint64_t i = offset; i < offset + bytes; ++i) {
    ByteShadow& shadow = shadow_[i];
    if (shadow.epoch != epoch_) shadow = ByteShadow{epoch_, 0, 0, 0};
    uint16_t other = 0;
    const char* other_did = "";
    if (shadow.writer != 0 && shadow.writer != self) {
      other = shadow.writer;
      other_did = "wrote";
    } else if (write) {
      other = shadow.reader != self ? shadow.reader : shadow.other_reader;
      other_did = "read";
    }
    if (other != 0) {
      Report(std::string("race on shared memory: ") + Where(thread) +
                 (write ? " writes " : " reads ") + std::to_string(bytes) +
                 " bytes at offset " + std::to_string(offset) + ", and byte " +
                 std::to_string(i) + " is one that " +
                 Where(threads_[other - 1]) + " " + other_did +
                 " since the last barrier",
             PHAL_FAILED_PRECONDITION);
      return;
    }
    if (write) {
      shadow.writer = self;
    } else if (shadow.reader == 0) {
      shadow.reader = self;
    } else if (shadow.reader != self && shadow.other_reader == 0) {
      shadow.other_reader = self;
    }
  }
}

bool BlockRunner::CheckAccess(uintptr_t address, uint64_t bytes,
                              GridAccess access) {
  const EmulatedThread& thread = *current_;
  const uintptr_t end = address + bytes;
  if (address >= thread.fiber->stack_begin() &&
      end <= thread.fiber->stack_end()) {
    return true;
  }
  const uintptr_t shared = reinterpret_cast<uintptr_t>(shared_.get());
  const uint64_t shared_bytes = run_->launch->shared_bytes;
  if (address >= shared && end <= shared + shared_bytes) {
    if (access != kGridAtomic && run_->options->check) {
      CheckRace(thread, address - shared, bytes, access == kGridWrite);
    }
    return true;
  }
  for (const Region& region : run_->regions) {
    if (address >= region.begin && end <= region.end) return true;
  }

  // Out of bounds: name the region the access is nearest to.
  std::vector<Region> candidates = run_->regions;
  if (shared_bytes > 0) {
    candidates.push_back(
        Region{shared, shared + shared_bytes,
               "shared memory (" + std::to_string(shared_bytes) + " bytes)"});
  }
  const Region* nearest = nullptr;
  uint64_t nearest_distance = std::numeric_limits<uint64_t>::max();
  for (const Region& region : candidates) {
    const uint64_t distance = address < region.begin  ? region.begin - address
                              : address >= region.end ? address - region.end + 1
                                                      : 0;
    if (distance < nearest_distance) {
      nearest = &region;
      nearest_distance = distance;
    }
  }
  std::string what = Where(thread) + " " +
                     (access == kGridRead    ? "reads "
                      : access == kGridWrite ? "writes "
                                             : "updates atomically ") +
                     std::to_string(bytes) + " bytes at address " +
                     Hex(address);
  if (nearest != nullptr) {
    const int64_t offset = static_cast<int64_t>(address - nearest->begin);
    what += ", offset " + std::to_string(offset) + " of " + nearest->name;
  }
  Report(what + ": out of bounds", PHAL_OUT_OF_RANGE);
  return false;
}

void* BlockRunner::Sink(uint64_t bytes) {
  if (sink_capacity_ < bytes) {
    sink_capacity_ = std::max<size_t>(bytes, 256);
    sink_ = AllocateAligned(sink_capacity_);
  }
  return sink_.get();
}

// A pool of host threads for the blocks of every launch, made at the first
// launch with as many threads as the machine has cores. The thread that
// calls RunGrid runs blocks too, so a launch makes progress even while the
// pool is busy with another.
class HostThreadPool {
 public:
  static HostThreadPool& Get() {
    static HostThreadPool pool(
        std::max(1u, std::thread::hardware_concurrency()));
    return pool;
  }

  explicit HostThreadPool(unsigned size) {
    for (unsigned i = 0; i < size; ++i) {
      threads_.emplace_back([this] { Work(); });
    }
  }
  ~HostThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

  // Runs `work` on the caller and on up to `helpers` pool threads, and
  // returns when every one of them has returned. Helpers that have not
  // started by the time the caller's `work` returns are not started.
  void Run(unsigned helpers, const std::function<void()>& work) {
    Job job;
    job.work = &work;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (unsigned i = 0; i < helpers; ++i) queue_.push_back(&job);
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    queue_.erase(std::remove(queue_.begin(), queue_.end(), &job), queue_.end());
    job.done.wait(lock, [&] { return job.running == 0; });
  }

 private:
  struct Job {
    const std::function<void()>* work = nullptr;
    unsigned running = 0;
    std::condition_variable done;
  };

  void Work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      Job* job = queue_.front();
      queue_.pop_front();
      ++job->running;
      lock.unlock();
      (*job->work)();
      lock.lock();
      if (--job->running == 0) job->done.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

void RunBlocks(GridRun& run) {
  BlockRunner& runner = BlockRunner::ForThisThread();
  for (;;) {
    const uint64_t block = run.next_block.fetch_add(1);
    if (block >= run.block_count ||
        block > run.lowest_failed_block.load(std::memory_order_relaxed)) {
      return;
    }
    Status status = runner.RunBlock(run, block);
    if (status.ok()) continue;
    std::lock_guard<std::mutex> lock(run.failure_mutex);
    if (block < run.lowest_failed_block.load(std::memory_order_relaxed)) {
      run.lowest_failed_block.store(block, std::memory_order_relaxed);
      run.failure = std::move(status);
    }
  }
}

Status ValidateLaunch(const SpmdLaunch& launch, const GridOptions& options) {
  const GridLimits& limits = options.limits;
  const uint64_t threads =
      uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  if (threads == 0) {
    return InvalidArgument("grid emulator: a block of no threads");
  }
  if (threads > limits.max_block_size || threads > kMaxBlockThreads) {
    return InvalidArgument("grid emulator: a block of " +
                           std::to_string(threads) +
                           " threads; the device runs at most " +
                           std::to_string(limits.max_block_size));
  }
  if (launch.shared_bytes > limits.max_shared_bytes) {
    return InvalidArgument(
        "grid emulator: " + std::to_string(launch.shared_bytes) +
        " bytes of shared memory per block; the device has " +
        std::to_string(limits.max_shared_bytes));
  }
  if (limits.warp_size > 64 ||
      (limits.warp_size & (limits.warp_size - 1)) != 0) {
    return InvalidArgument("grid emulator: warps of " +
                           std::to_string(limits.warp_size) +
                           " lanes; 0 or a power of two up to 64");
  }
  if (options.stack_bytes < 16 * 1024) {
    return InvalidArgument("grid emulator: thread stacks of " +
                           std::to_string(options.stack_bytes) +
                           " bytes; at least 16 KiB");
  }
  return OkStatus();
}

}  // namespace

StatusOr<GridKernel> LoadGridKernel(
    std::string_view object, std::string_view entry_symbol,
    std::span<const RuntimeSymbol> runtime_symbols) {
  std::vector<RuntimeSymbol> symbols(runtime_symbols.begin(),
                                     runtime_symbols.end());
  const std::span<const RuntimeSymbol> grid = GridRuntimeSymbols();
  symbols.insert(symbols.end(), grid.begin(), grid.end());
  StatusOr<HostJitCode> code = LoadHostObject(object, entry_symbol, symbols);
  if (!code.ok()) {
    return Status(code.status().code(),
                  "grid emulator: " + code.status().message());
  }
  return GridKernel{reinterpret_cast<GridKernelEntry>(code->entry), *code};
}

void UnloadGridKernel(const GridKernel& kernel) {
  UnloadHostObject(kernel.code);
}

Status RunGrid(GridKernelEntry entry, const SpmdLaunch& launch,
               std::span<const GridBuffer> buffers,
               const GridOptions& options) {
  const uint64_t block_count =
      uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  if (block_count == 0) return OkStatus();
  PHAL_RETURN_IF_ERROR(ValidateLaunch(launch, options));

  GridRun run;
  run.entry = entry;
  run.launch = &launch;
  run.options = &options;
  run.block_threads = launch.block[0] * launch.block[1] * launch.block[2];
  run.block_count = block_count;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const GridBuffer& buffer = buffers[i];
    const uintptr_t begin = reinterpret_cast<uintptr_t>(buffer.data);
    run.args.push_back(buffer.data);
    run.regions.push_back(Region{
        begin, begin + buffer.bytes,
        "buffer " + std::to_string(i) +
            (buffer.name.empty() ? ""
                                 : " \"" + std::string(buffer.name) + "\"") +
            " (" + std::to_string(buffer.bytes) + " bytes)"});
  }
  AlignedBytes scratch;
  if (launch.scratch_bytes > 0) {
    scratch = AllocateAligned(launch.scratch_bytes);
    if (options.check) {
      std::memset(scratch.get(), kUninitializedByte, launch.scratch_bytes);
    }
    const uintptr_t begin = reinterpret_cast<uintptr_t>(scratch.get());
    run.args.push_back(scratch.get());
    run.regions.push_back(Region{begin, begin + launch.scratch_bytes,
                                 "the scratch buffer (" +
                                     std::to_string(launch.scratch_bytes) +
                                     " bytes)"});
  }

  HostThreadPool& pool = HostThreadPool::Get();
  const unsigned helpers =
      static_cast<unsigned>(std::min<uint64_t>(pool.size(), block_count - 1));
  pool.Run(helpers, [&run] { RunBlocks(run); });
  return run.failure;
}

}  // namespace phal::llvm_emitter::grid

using phal::llvm_emitter::grid::BlockRunner;
using phal::llvm_emitter::grid::GridAccess;
using phal::llvm_emitter::grid::t_runner;

extern "C" {

int32_t phal_grid_thread_index(int32_t dimension) {
  return static_cast<int32_t>(t_runner->current().index[dimension]);
}

int32_t phal_grid_block_index(int32_t dimension) {
  return static_cast<int32_t>(t_runner->block_index(dimension));
}

int32_t phal_grid_block_size(int32_t dimension) {
  return static_cast<int32_t>(t_runner->launch().block[dimension]);
}

int32_t phal_grid_grid_size(int32_t dimension) {
  return static_cast<int32_t>(t_runner->launch().grid[dimension]);
}

void phal_grid_barrier(int32_t barrier_id) { t_runner->Barrier(barrier_id); }

void* phal_grid_shared_memory(int64_t bytes) {
  return t_runner->SharedMemory(bytes);
}

int32_t phal_grid_shuffle_down_i32(int32_t value, int32_t delta,
                                   int32_t shuffle_id) {
  return static_cast<int32_t>(
      t_runner->ShuffleDown(static_cast<uint32_t>(value), delta, shuffle_id));
}

int64_t phal_grid_shuffle_down_i64(int64_t value, int32_t delta,
                                   int32_t shuffle_id) {
  return static_cast<int64_t>(
      t_runner->ShuffleDown(static_cast<uint64_t>(value), delta, shuffle_id));
}

float phal_grid_shuffle_down_f32(float value, int32_t delta,
                                 int32_t shuffle_id) {
  return std::bit_cast<float>(static_cast<uint32_t>(t_runner->ShuffleDown(
      std::bit_cast<uint32_t>(value), delta, shuffle_id)));
}

double phal_grid_shuffle_down_f64(double value, int32_t delta,
                                  int32_t shuffle_id) {
  return std::bit_cast<double>(
      t_runner->ShuffleDown(std::bit_cast<uint64_t>(value), delta, shuffle_id));
}

void* phal_grid_checked_address(void* address, int64_t bytes, int32_t access) {
  BlockRunner& runner = *t_runner;
  const uint64_t size = static_cast<uint64_t>(bytes);
  if (runner.failed()) return runner.Sink(size);
  if (runner.CheckAccess(reinterpret_cast<uintptr_t>(address), size,
                         static_cast<GridAccess>(access))) {
    return address;
  }
  return runner.Sink(size);
}

int64_t phal_grid_checked_range(void* destination, const void* source,
                                int64_t bytes) {
  BlockRunner& runner = *t_runner;
  if (bytes <= 0) return bytes;
  if (runner.failed()) return 0;
  const uint64_t size = static_cast<uint64_t>(bytes);
  if (!runner.CheckAccess(reinterpret_cast<uintptr_t>(destination), size,
                          phal::llvm_emitter::grid::kGridWrite)) {
    return 0;
  }
  if (source != nullptr &&
      !runner.CheckAccess(reinterpret_cast<uintptr_t>(source), size,
                          phal::llvm_emitter::grid::kGridRead)) {
    return 0;
  }
  return bytes;
}

}  // extern "C"

namespace phal::llvm_emitter::grid {

std::span<const RuntimeSymbol> GridRuntimeSymbols() {
#define PHAL_GRID_SYMBOL(name) \
  RuntimeSymbol { #name, reinterpret_cast < void*>(&name) }
  static const RuntimeSymbol kSymbols[] = {
      PHAL_GRID_SYMBOL(phal_grid_thread_index),
      PHAL_GRID_SYMBOL(phal_grid_block_index),
      PHAL_GRID_SYMBOL(phal_grid_block_size),
      PHAL_GRID_SYMBOL(phal_grid_grid_size),
      PHAL_GRID_SYMBOL(phal_grid_barrier),
      PHAL_GRID_SYMBOL(phal_grid_shared_memory),
      PHAL_GRID_SYMBOL(phal_grid_shuffle_down_i32),
      PHAL_GRID_SYMBOL(phal_grid_shuffle_down_i64),
      PHAL_GRID_SYMBOL(phal_grid_shuffle_down_f32),
      PHAL_GRID_SYMBOL(phal_grid_shuffle_down_f64),
      PHAL_GRID_SYMBOL(phal_grid_checked_address),
      PHAL_GRID_SYMBOL(phal_grid_checked_range),
  };
#undef PHAL_GRID_SYMBOL
  return kSymbols;
}

}  // namespace phal::llvm_emitter::grid
