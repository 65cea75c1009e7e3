#include "plugins/amd/amd_stream.h"

#include <memory>
#include <string>
#include <vector>

#include "plugins/amd/amd_plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::amd {

Stream::~Stream() {
  if (stream_ == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  if (!scope.status().ok()) return;
  // Nobody is left to collect an error of the work.
  static_cast<void>(WaitLocked());
  device_.hip().hipStreamDestroy(stream_);
}

Status Stream::Init() {
  PHAL_RETURN_IF_ERROR(device_.CheckRunnable("create streams"));
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.hip().hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking),
      "hipStreamCreateWithFlags");
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
  // HIP declares the source mutable; it only reads it.
  return device_.Check(
      device_.hip().hipMemcpyHtoDAsync(buffer.address(offset),
                                       const_cast<void*>(source), byte_size,
                                       stream_),
      "hipMemcpyHtoDAsync of " + std::to_string(byte_size) + " bytes");
}

Status Stream::CopyToHost(const Buffer& buffer, uint64_t offset,
                          void* destination, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.hip().hipMemcpyDtoHAsync(destination, buffer.address(offset),
                                       byte_size, stream_),
      "hipMemcpyDtoHAsync of " + std::to_string(byte_size) + " bytes");
}

Status Stream::CopyBuffer(const Buffer& source, uint64_t source_offset,
                          const Buffer& destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  const Hip& hip = device_.hip();
  const std::string bytes = std::to_string(byte_size) + " bytes";
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  if (&source.device() == &device_ && &destination.device() == &device_) {
    return device_.Check(hip.hipMemcpyDtoDAsync(
                             destination.address(destination_offset),
                             source.address(source_offset), byte_size, stream_),
                         "hipMemcpyDtoDAsync of " + bytes);
  }
  const Device& from = source.device();
  const Device& to = destination.device();
  if (&from.hip() == &hip && &to.hip() == &hip &&
      hip.hipMemcpyPeerAsync != nullptr) {
    return device_.Check(
        hip.hipMemcpyPeerAsync(destination.address(destination_offset),
                               to.info().device, source.address(source_offset),
                               from.info().device, byte_size, stream_),
        "hipMemcpyPeerAsync of " + bytes);
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
  const std::string what = " of " + std::to_string(bytes) + " bytes";
  {
    const Device& from = source.device();
    ScopedDevice scope(from);
    PHAL_RETURN_IF_ERROR(scope.status());
    PHAL_RETURN_IF_ERROR(from.Check(
        from.hip().hipMemcpyDtoHAsync(
            staging.data(), source.address(source_offset), bytes, nullptr),
        "hipMemcpyDtoHAsync" + what));
    PHAL_RETURN_IF_ERROR(from.Check(from.hip().hipStreamSynchronize(nullptr),
                                    "hipStreamSynchronize"));
  }
  const Device& to = destination.device();
  ScopedDevice scope(to);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(to.Check(
      to.hip().hipMemcpyHtoDAsync(destination.address(destination_offset),
                                  staging.data(), bytes, nullptr),
      "hipMemcpyHtoDAsync" + what));
  return to.Check(to.hip().hipStreamSynchronize(nullptr),
                  "hipStreamSynchronize");
}

Status Stream::Launch(const LaunchRequest& request,
                      std::unique_ptr<Buffer> scratch) {
  std::vector<void*> arguments = request.arguments;
  if (scratch != nullptr) arguments.push_back(scratch->address());
  // hipModuleLaunchKernel reads each argument through a pointer to it.
  std::vector<void*> parameters;
  for (void*& argument : arguments) parameters.push_back(&argument);
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(device_.Check(
      device_.hip().hipModuleLaunchKernel(
          request.function, request.grid[0], request.grid[1], request.grid[2],
          request.block[0], request.block[1], request.block[2], 0, stream_,
          parameters.data(), nullptr),
      "hipModuleLaunchKernel"));
  if (scratch != nullptr) scratch_.push_back(std::move(scratch));
  return OkStatus();
}

Status Stream::WaitLocked() {
  const Status status = device_.Check(
      device_.hip().hipStreamSynchronize(stream_), "hipStreamSynchronize");
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

phal_status_t* StreamCreate(phal_plugin_device_t* device,
                            phal_plugin_stream_t** out_stream) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    auto stream = std::make_unique<phal_plugin_stream>(*device);
    PHAL_RETURN_IF_ERROR(stream->Init());
    *out_stream = stream.release();
    return OkStatus();
  });
}

void StreamDestroy(phal_plugin_stream_t* stream) noexcept { delete stream; }

phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) noexcept {
  return RunAtAbiBoundary([&] { return stream->Synchronize(); });
}

}  // namespace phal::amd
