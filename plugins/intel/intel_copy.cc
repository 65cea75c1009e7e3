// Copies between host memory and buffers, and between buffers, enqueued on
// a stream's command queue without waiting. A copy between buffers of two
// devices (two OpenCL contexts) is staged through host memory and waits.
#include "plugins/intel/intel_plugin.h"

#include <vector>

#include "plugins/intel/intel_memory.h"
#include "plugins/intel/intel_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

Status CheckDevice(const Stream& stream, const Buffer& buffer) {
  if (stream.device() != buffer.device()) {
    return InvalidArgument(
        "intel plugin: a host copy names a buffer of another device than "
        "its stream's");
  }
  return OkStatus();
}

// A blocking transfer on a queue of its own, for copies across contexts.
Status BlockingTransfer(const Buffer& buffer, bool write, uint64_t offset,
                        void* host, uint64_t byte_size) {
  const Device& device = *buffer.device();
  cl_int error = CL_SUCCESS;
  cl_command_queue queue =
      Cl().CreateCommandQueue(device.context(), device.id(), 0, &error);
  if (queue == nullptr) return ClError("clCreateCommandQueue", error);
  error = write
              ? Cl().EnqueueWriteBuffer(queue, buffer.memory(), CL_TRUE, offset,
                                        byte_size, host, 0, nullptr, nullptr)
              : Cl().EnqueueReadBuffer(queue, buffer.memory(), CL_TRUE, offset,
                                       byte_size, host, 0, nullptr, nullptr);
  Cl().ReleaseCommandQueue(queue);
  if (error != CL_SUCCESS)
    return ClError("a staged copy between devices", error);
  return OkStatus();
}

}  // namespace

phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                  const void* source,
                                  phal_plugin_buffer_t* buffer, uint64_t offset,
                                  uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckDevice(*stream, *buffer));
    PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, byte_size));
    if (byte_size == 0) return OkStatus();
    const cl_int error =
        Cl().EnqueueWriteBuffer(stream->queue(), buffer->memory(), CL_FALSE,
                                offset, byte_size, source, 0, nullptr, nullptr);
    if (error != CL_SUCCESS) return ClError("clEnqueueWriteBuffer", error);
    return OkStatus();
  });
}

phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* buffer, uint64_t offset,
                                void* destination,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckDevice(*stream, *buffer));
    PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, byte_size));
    if (byte_size == 0) return OkStatus();
    const cl_int error = Cl().EnqueueReadBuffer(
        stream->queue(), buffer->memory(), CL_FALSE, offset, byte_size,
        destination, 0, nullptr, nullptr);
    if (error != CL_SUCCESS) return ClError("clEnqueueReadBuffer", error);
    return OkStatus();
  });
}

phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* source,
                                uint64_t source_offset,
                                phal_plugin_buffer_t* destination,
                                uint64_t destination_offset,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(source->CheckRange(source_offset, byte_size));
    PHAL_RETURN_IF_ERROR(
        destination->CheckRange(destination_offset, byte_size));
    if (byte_size == 0) return OkStatus();
    if (source->device() == stream->device() &&
        destination->device() == stream->device()) {
      const cl_int error = Cl().EnqueueCopyBuffer(
          stream->queue(), source->memory(), destination->memory(),
          source_offset, destination_offset, byte_size, 0, nullptr, nullptr);
      if (error != CL_SUCCESS) return ClError("clEnqueueCopyBuffer", error);
      return OkStatus();
    }
    // Across contexts: finish what the stream queued, then stage.
    PHAL_RETURN_IF_ERROR(stream->Synchronize());
    std::vector<unsigned char> staging(byte_size);
    PHAL_RETURN_IF_ERROR(BlockingTransfer(*source, false, source_offset,
                                          staging.data(), byte_size));
    return BlockingTransfer(*destination, true, destination_offset,
                            staging.data(), byte_size);
  });
}

}  // namespace phal::intel
