// phal_buffer: a typed, dense row-major array on one device.
#ifndef POLYHAL_CORE_RUNTIME_BUFFER_H_
#define POLYHAL_CORE_RUNTIME_BUFFER_H_

#include <memory>
#include <mutex>
#include <vector>

#include "core/runtime/stream.h"

struct phal_buffer {
  phal_device* device = nullptr;
  phal_plugin_buffer_t* handle = nullptr;
  phal_element_type_t element_type = PHAL_ELEMENT_TYPE_INVALID;
  std::vector<int64_t> dims;
  uint64_t byte_size = 0;
  uint32_t memory_space = 0;

  // Remembers that work touching this buffer was queued on `stream`.
  void NoteStreamUse(const std::shared_ptr<phal::StreamState>& stream);
  // Waits for the queued work of every stream that used the buffer.
  void WaitForStreamUsers();

 private:
  std::mutex users_mutex_;
  std::vector<std::weak_ptr<phal::StreamState>> stream_users_;
};

namespace phal {
// Frees the plugin buffer once no queued work uses it.
void DestroyBuffer(phal_buffer* buffer);
// OUT_OF_RANGE unless [offset, offset + byte_size) lies in the buffer.
Status CheckRange(const phal_buffer* buffer, uint64_t offset,
                  uint64_t byte_size, const char* what);
// INVALID_ARGUMENT when both ranges are in one buffer and overlap.
Status CheckNoOverlap(const phal_buffer* source, uint64_t source_offset,
                      const phal_buffer* destination,
                      uint64_t destination_offset, uint64_t byte_size);
}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_BUFFER_H_
