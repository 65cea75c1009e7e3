#include "sdk/plugin_support/host_queue.h"

#include <cstring>
#include <utility>

namespace phal {

void HostQueue::Run(const std::function<Status()>& work) {
  std::lock_guard<std::mutex> lock(mutex_);
  Status status = work();
  if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
}

Status HostQueue::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

Status HostQueue::Drain() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

void HostQueue::AddError(Status status) {
  Run([&] { return std::move(status); });
}

void HostEvent::Fire(Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  status_ = std::move(status);
}

Status HostEvent::carried_status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void HostQueue::QueueHostCopy(void* destination, const void* source,
                              uint64_t byte_size) {
  Run([&] {
    if (byte_size > 0) std::memcpy(destination, source, byte_size);
    return OkStatus();
  });
}

}  // namespace phal
