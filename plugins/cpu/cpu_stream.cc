#include "plugins/cpu/cpu_stream.h"
#include "plugins/cpu/cpu_device.h"
#include "plugins/cpu/cpu_plugin.h"

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "sdk/plugin_support/plugin_host.h"

namespace phal::cpu {
// The out-of-memory messages fit the small-string buffer: building them
// allocates nothing.
Status Stream::CaughtError() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status(PHAL_RESOURCE_EXHAUSTED, "out of memory");
  } catch (const std::exception& error) {
    try {
      return Internal(std::string("cpu plugin: queued work failed: ") +
                      error.what());
    } catch (...) {
      return Status(PHAL_RESOURCE_EXHAUSTED, "out of memory");
    }
  } catch (...) {
    return Status(PHAL_INTERNAL, "unknown error");
  }
}

Stream::Stream() : worker_(&Stream::RunWorker, this) {}

Stream::~Stream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_queued_.notify_one();
  worker_.join();
}

void Stream::Enqueue(Task task, bool small) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(task), small});
    ++enqueued_count_;
  }
  work_queued_.notify_one();
}

bool Stream::BeginInline() {
  std::unique_lock lock(mutex_);
  const auto idle = [&] {
    return stopping_ || (!running_inline_ && queue_.empty() &&
                         finished_count_ == enqueued_count_);
  };
  if (!idle()) {
    const bool one_large_task =
        !running_inline_ && queue_.empty() && !running_small_;
    if (!one_large_task || !work_finished_.wait_for(lock, kIdleWait, idle)) {
      return false;
    }
  }
  if (stopping_) return false;
  running_inline_ = true;
  ++enqueued_count_;
  return true;
}

void Stream::EndInline(Status status) {
  bool worker_waits = false;
  {
    std::lock_guard lock(mutex_);
    running_inline_ = false;
    if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
    ++finished_count_;
    worker_waits = stopping_ || !queue_.empty();
  }
  work_finished_.notify_all();
  // Work another thread queued meanwhile waited for this task; with none,
  // the worker sleeps on (waking it for nothing costs two context switches
  // per launch, which a while loop's small kernels would pay every step).
  if (worker_waits) work_queued_.notify_one();
}

Status Stream::Synchronize() {
  std::unique_lock lock(mutex_);
  const uint64_t target = enqueued_count_;
  if (finished_count_ < target) {
    const auto waiting = sync_targets_.insert(target);
    work_finished_.wait(lock, [&] { return finished_count_ >= target; });
    sync_targets_.erase(waiting);
  }
  return std::exchange(first_error_, Status());
}

Status Stream::PendingError() const {
  std::lock_guard lock(mutex_);
  return first_error_;
}

void Stream::RunWorker() {
  std::unique_lock lock(mutex_);
  while (true) {
    // Queued work waits while a RunIfIdle task runs on its caller's thread.
    work_queued_.wait(lock, [&] {
      return !running_inline_ && (stopping_ || !queue_.empty());
    });
    if (queue_.empty()) return;  // stopping, and everything queued has run
    Status status;
    {
      Task task = std::move(queue_.front().task);
      running_small_ = queue_.front().small;
      queue_.pop_front();
      lock.unlock();
      status = RunCaught(task);
      // `task` (and what it captured) is released here, before relocking.
    }
    lock.lock();
    if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
    ++finished_count_;
    // Waiters are woken when what they wait for may have come: the stream
    // idle, or the work a Synchronize waits for done. Waking them after
    // every task of a loop's many costs two context switches each.
    if (queue_.empty() ||
        (!sync_targets_.empty() && finished_count_ >= *sync_targets_.begin())) {
      work_finished_.notify_all();
    }
  }
}

phal_status_t* StreamCreate(phal_plugin_device_t* device,
                            phal_plugin_stream_t** out_stream) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("create streams"));
    *out_stream = std::make_unique<phal_plugin_stream>().release();
    return OkStatus();
  });
}

void StreamDestroy(phal_plugin_stream_t* stream) noexcept {
  std::unique_ptr<phal_plugin_stream> owned(stream);
  try {
    // plugin.h gives an error nowhere to go once the stream is gone; the log
    // is the last place it can be seen.
    const Status dropped = owned->Synchronize();
    if (!dropped.ok()) {
      const std::string message =
          "cpu plugin: stream destroyed with an unreported error: " +
          dropped.message();
      Log(PHAL_LOG_LEVEL_WARNING, message.c_str());
    }
  } catch (...) {
    Log(PHAL_LOG_LEVEL_WARNING,
        "cpu plugin: stream destroyed with an unreported error");
  }
}

phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) noexcept {
  return RunAtAbiBoundary([&] { return stream->Synchronize(); });
}

}  // namespace phal::cpu
