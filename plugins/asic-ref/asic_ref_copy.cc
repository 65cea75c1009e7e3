// Copies between host memory and buffers, and between buffers, queued on a
// stream. The simulator does not model the host link, so a copy is a
// memcpy into or out of the DRAM's backing bytes and costs no device
// cycles.
#include <cstring>

#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"
#include "asic_ref_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::asic_ref {
namespace {

Status QueueCopy(Stream& stream, void* destination, const void* source,
                 uint64_t byte_size) {
  stream.Run([&] {
    if (byte_size > 0) std::memcpy(destination, source, byte_size);
    return OkStatus();
  });
  return OkStatus();
}

}  // namespace

phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                  const void* source,
                                  phal_plugin_buffer_t* buffer, uint64_t offset,
                                  uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, byte_size));
    return QueueCopy(*stream, buffer->HostBytes(offset, byte_size), source,
                     byte_size);
  });
}

phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* buffer, uint64_t offset,
                                void* destination,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, byte_size));
    return QueueCopy(*stream, destination, buffer->HostBytes(offset, byte_size),
                     byte_size);
  });
}

phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* source,
                                uint64_t source_offset,
                                phal_plugin_buffer_t* destination,
                                uint64_t destination_offset,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&] {
    PHAL_RETURN_IF_ERROR(source->CheckRange(source_offset, byte_size));
    PHAL_RETURN_IF_ERROR(
        destination->CheckRange(destination_offset, byte_size));
    return QueueCopy(*stream,
                     destination->HostBytes(destination_offset, byte_size),
                     source->HostBytes(source_offset, byte_size), byte_size);
  });
}

}  // namespace phal::asic_ref
