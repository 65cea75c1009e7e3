#include "sdk/gpu_plugin/gpu_stream.h"

#include <memory>
#include <string>
#include <vector>

#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::gpu_plugin {

Stream::~Stream() {
  if (stream_ == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  if (!scope.status().ok()) return;
  // Nobody is left to collect an error of the work.
  static_cast<void>(WaitLocked());
  device_.driver().DestroyStream(stream_);
}

Status Stream::Init() {
  PHAL_RETURN_IF_ERROR(device_.CheckRunnable("create streams"));
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.driver().CreateStream(&stream_);
}

void Stream::Keep(Status status) {
  if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
}

void Stream::AddError(Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  Keep(std::move(status));
}

Status Stream::CopyFromHost(const void* source, const Buffer& buffer,
                            uint64_t offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.driver().CopyHostToDevice(buffer.address(offset), source,
                                           byte_size, stream_);
}

Status Stream::CopyToHost(const Buffer& buffer, uint64_t offset,
                          void* destination, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.driver().CopyDeviceToHost(destination, buffer.address(offset),
                                           byte_size, stream_);
}

Status Stream::CopyBuffer(const Buffer& source, uint64_t source_offset,
                          const Buffer& destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  const GpuDriver& driver = device_.driver();
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  const Device& from = source.device();
  const Device& to = destination.device();
  if (&from == &device_ && &to == &device_) {
    return driver.CopyDeviceToDevice(destination.address(destination_offset),
                                     source.address(source_offset), byte_size,
                                     stream_);
  }
  if (&from.driver() == &driver && &to.driver() == &driver &&
      driver.HasPeerCopy()) {
    return driver.CopyPeer(destination.address(destination_offset), to.place(),
                           source.address(source_offset), from.place(),
                           byte_size, stream_);
  }
  return CopyThroughHostLocked(source, source_offset, destination,
                               destination_offset, byte_size);
}

Status Stream::CopyThroughHostLocked(const Buffer& source,
                                     uint64_t source_offset,
                                     const Buffer& destination,
                                     uint64_t destination_offset,
                                     uint64_t bytes) {
  Keep(WaitLocked());
  std::vector<unsigned char> staging(bytes);
  {
    const Device& from = source.device();
    ScopedDevice scope(from);
    PHAL_RETURN_IF_ERROR(scope.status());
    PHAL_RETURN_IF_ERROR(from.driver().CopyDeviceToHost(
        staging.data(), source.address(source_offset), bytes, nullptr));
    PHAL_RETURN_IF_ERROR(from.driver().SynchronizeStream(nullptr));
  }
  const Device& to = destination.device();
  ScopedDevice scope(to);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(to.driver().CopyHostToDevice(
      destination.address(destination_offset), staging.data(), bytes, nullptr));
  return to.driver().SynchronizeStream(nullptr);
}

Status Stream::Launch(const LaunchRequest& request,
                      std::unique_ptr<Buffer> scratch) {
  std::vector<GpuAddress> arguments = request.arguments;
  if (scratch != nullptr) arguments.push_back(scratch->address());
  // The runtimes read each argument through a pointer to it.
  std::vector<void*> parameters;
  for (GpuAddress& argument : arguments) parameters.push_back(&argument);
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(device_.driver().Launch(request.function, request.grid,
                                               request.block, 0, stream_,
                                               parameters.data()));
  if (scratch != nullptr) scratch_.push_back(std::move(scratch));
  return OkStatus();
}

Status Stream::QueueWith(const std::function<Status(GpuStream)>& queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return queue(stream_);
}

Status Stream::WaitLocked() {
  const Status status = device_.driver().SynchronizeStream(stream_);
  scratch_.clear();
  return status;
}

Status Stream::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  Keep(WaitLocked());
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

Status Stream::Drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  Keep(WaitLocked());
  return first_error_;
}

Status Stream::PendingError() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

PHAL_DEFINE_STREAM_HANDLE_SLOTS()

}  // namespace phal::gpu_plugin
