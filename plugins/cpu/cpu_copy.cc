// Copies between host memory and buffers, queued on a stream. Every byte of
// a cpu buffer is host memory, so each copy is one memcpy on the worker.
#include "plugins/cpu/cpu_plugin.h"

#include <cstddef>
#include <cstring>

#include "plugins/cpu/cpu_memory.h"
#include "plugins/cpu/cpu_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::cpu {
namespace {

// Bytes up to which a copy on an idle stream runs on the calling thread.
constexpr uint64_t kInlineCopyBytes = 64 << 10;

// Queues the memcpy. A zero-byte copy has no effect to order, so nothing is
// queued (and memcpy never sees the NULL pointers a zero-size copy may
// legitimately carry).
Status EnqueueCopy(Stream& stream, void* destination, const void* source,
                   uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  auto copy = [destination, source, byte_size] {
    std::memcpy(destination, source, byte_size);
    return OkStatus();
  };
  // A small copy on an idle stream runs here (Stream::RunIfIdle).
  if (byte_size <= kInlineCopyBytes && stream.RunIfIdle(copy)) {
    return OkStatus();
  }
  stream.Enqueue(copy, byte_size <= kInlineCopyBytes);
  return OkStatus();
}

}  // namespace

phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                  const void* source,
                                  phal_plugin_buffer_t* buffer, uint64_t offset,
                                  uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(std::byte * target,
                          buffer->RangeStart(offset, byte_size));
    return EnqueueCopy(*stream, target, source, byte_size);
  });
}

phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* buffer, uint64_t offset,
                                void* destination,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(const std::byte* origin,
                          buffer->RangeStart(offset, byte_size));
    return EnqueueCopy(*stream, destination, origin, byte_size);
  });
}

phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* source,
                                uint64_t source_offset,
                                phal_plugin_buffer_t* destination,
                                uint64_t destination_offset,
                                uint64_t byte_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(const std::byte* origin,
                          source->RangeStart(source_offset, byte_size));
    PHAL_ASSIGN_OR_RETURN(
        std::byte * target,
        destination->RangeStart(destination_offset, byte_size));
    return EnqueueCopy(*stream, target, origin, byte_size);
  });
}

}  // namespace phal::cpu
