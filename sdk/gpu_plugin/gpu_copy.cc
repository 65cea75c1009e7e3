// Copies between host memory and buffers, and between buffers, queued on a
// stream (gpu_stream.h says when they run).
#include "sdk/gpu_plugin/gpu_memory.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/gpu_plugin/gpu_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::gpu_plugin {

phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                  const void* source,
                                  phal_plugin_buffer_t* buffer, uint64_t offset,
                                  uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(buffer->buffer->CheckRange(offset, byte_size));
    return stream->CopyFromHost(source, *buffer->buffer, offset, byte_size);
  });
}

phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* buffer, uint64_t offset,
                                void* destination,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(buffer->buffer->CheckRange(offset, byte_size));
    return stream->CopyToHost(*buffer->buffer, offset, destination, byte_size);
  });
}

phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* source,
                                uint64_t source_offset,
                                phal_plugin_buffer_t* destination,
                                uint64_t destination_offset,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(source->buffer->CheckRange(source_offset, byte_size));
    PHAL_RETURN_IF_ERROR(
        destination->buffer->CheckRange(destination_offset, byte_size));
    return stream->CopyBuffer(*source->buffer, source_offset,
                              *destination->buffer, destination_offset,
                              byte_size);
  });
}

}  // namespace phal::gpu_plugin
