// Streams: in-order queues of work, each drained by its own worker thread.
#ifndef POLYHAL_PLUGINS_CPU_CPU_STREAM_H_
#define POLYHAL_PLUGINS_CPU_CPU_STREAM_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// Tasks run one at a time, in the order they were queued, on a thread owned
// by the stream, so queueing never waits for the work itself. Every method
// may be called from many threads at once.
class Stream {
 public:
  // One unit of queued work. A non-OK result becomes the stream's error if
  // it has none yet; later tasks still run (the ABI reports errors, it does
  // not cancel work).
  using Task = std::function<Status()>;

  // Starts the worker; throws std::system_error when no thread can be made.
  Stream();
  // Runs everything still queued, then joins the worker.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Queues `task` behind all earlier work. Throws std::bad_alloc, leaving the
  // queue as it was. `small`: work that RunIfIdle would have run on the
  // launching thread, had the stream been idle.
  void Enqueue(Task task, bool small = false);

  // How long RunIfIdle waits, at most, for a large task to finish.
  static constexpr std::chrono::microseconds kIdleWait{1000};

  // Runs `work` (a callable returning Status) on the calling thread when
  // the stream has nothing queued or running (so it runs exactly when
  // queueing it would), and returns true; otherwise returns false and the
  // caller queues it. For work smaller than the two thread wake-ups a
  // queued task costs. When all the stream has is one large task running,
  // the call waits for it, up to kIdleWait, and then runs the work here:
  // the small kernels between a program's GEMMs run on the launching
  // thread instead of each being handed to the worker. Behind small tasks
  // (a loop's steps) it does not wait: the worker runs them while the
  // launching thread prepares the next. The wait is bounded, so work
  // queued behind an event another thread has yet to record never holds
  // the caller. Its result is recorded as a queued task's is; it is
  // called, not copied, so building it allocates nothing.
  template <typename Work>
  bool RunIfIdle(Work&& work) {
    if (!BeginInline()) return false;
    EndInline(RunCaught(work));
    return true;
  }

  // What `work` returns, or the error an exception it throws stands for:
  // a thrown exception must never leave a stream's thread.
  template <typename Work>
  static Status RunCaught(Work& work) noexcept {
    try {
      return work();
    } catch (...) {
      return CaughtError();
    }
  }
  // Waits until the work queued before the call has run, then returns and
  // clears the first error recorded since the previous Synchronize.
  Status Synchronize();
  // The error Synchronize would return, left in place. Tasks read it to
  // learn whether the work queued before them failed.
  Status PendingError() const;

 private:
  // Marks the stream busy with work on the calling thread, when it is idle
  // or its one large task finishes within kIdleWait.
  bool BeginInline();
  // Records the result of that work and hands the stream back.
  void EndInline(Status status);
  // The error of the exception being handled.
  static Status CaughtError() noexcept;
  void RunWorker();

  mutable std::mutex mutex_;
  std::condition_variable work_queued_;
  std::condition_variable work_finished_;
  struct Queued {
    Task task;
    bool small = false;
  };
  std::deque<Queued> queue_;
  uint64_t enqueued_count_ = 0;
  uint64_t finished_count_ = 0;
  // The counts the threads in Synchronize wait for.
  std::multiset<uint64_t> sync_targets_;
  bool stopping_ = false;
  bool running_inline_ = false;  // a RunIfIdle task is running
  bool running_small_ = false;   // the worker runs a small task
  Status first_error_;
  // Declared last: the worker starts once every member above exists.
  std::thread worker_;
};

}  // namespace phal::cpu

struct phal_plugin_stream final : phal::cpu::Stream {};

#endif  // POLYHAL_PLUGINS_CPU_CPU_STREAM_H_
