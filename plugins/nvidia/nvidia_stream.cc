#include "plugins/nvidia/nvidia_stream.h"

#include <memory>
#include <string>
#include <vector>

#include "plugins/nvidia/nvidia_plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::nvidia {

Stream::~Stream() {
  if (stream_ == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
  if (!scope.status().ok()) return;
  // Nobody is left to collect an error of the work.
  static_cast<void>(WaitLocked());
  device_.cuda().cuStreamDestroy(stream_);
}

Status Stream::Init() {
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.cuda().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING),
      "cuStreamCreate");
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
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.cuda().cuMemcpyHtoDAsync(buffer.address() + offset, source,
                                       byte_size, stream_),
      "cuMemcpyHtoDAsync of " + std::to_string(byte_size) + " bytes");
}

Status Stream::CopyToHost(const Buffer& buffer, uint64_t offset,
                          void* destination, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.cuda().cuMemcpyDtoHAsync(destination, buffer.address() + offset,
                                       byte_size, stream_),
      "cuMemcpyDtoHAsync of " + std::to_string(byte_size) + " bytes");
}

Status Stream::CopyBuffer(const Buffer& source, uint64_t source_offset,
                          const Buffer& destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  const Cuda& cuda = device_.cuda();
  const CUdeviceptr from = source.address() + source_offset;
  const CUdeviceptr to = destination.address() + destination_offset;
  const std::string bytes = std::to_string(byte_size) + " bytes";
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  if (&source.device() == &device_ && &destination.device() == &device_) {
    return device_.Check(cuda.cuMemcpyDtoDAsync(to, from, byte_size, stream_),
                         "cuMemcpyDtoDAsync of " + bytes);
  }
  const Device& source_device = source.device();
  const Device& destination_device = destination.device();
  if (&source_device.cuda() == &cuda && &destination_device.cuda() == &cuda &&
      cuda.cuMemcpyPeerAsync != nullptr) {
    return device_.Check(
        cuda.cuMemcpyPeerAsync(to, destination_device.context(), from,
                               source_device.context(), byte_size, stream_),
        "cuMemcpyPeerAsync of " + bytes);
  }
  // Two drivers (a GPU and the emulator) share no address space: the bytes
  // go through host memory once this stream's earlier work has finished.
  Keep(WaitLocked());
  std::vector<unsigned char> staging(byte_size);
  {
    ScopedContext source_scope(source_device);
    PHAL_RETURN_IF_ERROR(source_scope.status());
    const Cuda& source_cuda = source_device.cuda();
    PHAL_RETURN_IF_ERROR(source_device.Check(
        source_cuda.cuMemcpyDtoHAsync(staging.data(), from, byte_size, nullptr),
        "cuMemcpyDtoHAsync of " + bytes));
    PHAL_RETURN_IF_ERROR(source_device.Check(
        source_cuda.cuStreamSynchronize(nullptr), "cuStreamSynchronize"));
  }
  ScopedContext destination_scope(destination_device);
  PHAL_RETURN_IF_ERROR(destination_scope.status());
  const Cuda& destination_cuda = destination_device.cuda();
  PHAL_RETURN_IF_ERROR(
      destination_device.Check(destination_cuda.cuMemcpyHtoDAsync(
                                   to, staging.data(), byte_size, nullptr),
                               "cuMemcpyHtoDAsync of " + bytes));
  return destination_device.Check(destination_cuda.cuStreamSynchronize(nullptr),
                                  "cuStreamSynchronize");
}

Status Stream::Launch(const LaunchRequest& request,
                      std::unique_ptr<Buffer> scratch) {
  std::vector<CUdeviceptr> arguments = request.arguments;
  if (scratch != nullptr) arguments.push_back(scratch->address());
  // cuLaunchKernel reads each argument through a pointer to it.
  std::vector<void*> parameters;
  for (CUdeviceptr& argument : arguments) parameters.push_back(&argument);
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(device_.Check(
      device_.cuda().cuLaunchKernel(
          request.function, request.grid[0], request.grid[1], request.grid[2],
          request.block[0], request.block[1], request.block[2],
          request.dynamic_shared_bytes, stream_, parameters.data(), nullptr),
      "cuLaunchKernel"));
  if (scratch != nullptr) scratch_.push_back(std::move(scratch));
  return OkStatus();
}

Status Stream::WaitLocked() {
  const Status status = device_.Check(
      device_.cuda().cuStreamSynchronize(stream_), "cuStreamSynchronize");
  scratch_.clear();
  return status;
}

Status Stream::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  Keep(WaitLocked());
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

Status Stream::Drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  ScopedContext scope(device_);
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
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("create streams"));
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

}  // namespace phal::nvidia
