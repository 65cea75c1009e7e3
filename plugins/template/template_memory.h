// Buffers: blocks of device memory. The template's device memory is host
// memory, so a buffer is an aligned heap block.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_MEMORY_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::template_plugin {

// The size and block never change, so a buffer may be used from many
// threads; its contents are ordered by the streams that touch them.
// TODO(vendor): hold your driver's allocation here (a device pointer, a
// memory object); keep the range check.
class Buffer {
 public:
  Buffer(std::byte* data, uint64_t byte_size)
      : data_(data), byte_size_(byte_size) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::byte* data() const { return data_; }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer
  // (CheckBufferRange, sdk/plugin_support/buffer_checks.h).
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;
  // The bytes at `offset`, after CheckRange: what the copies
  // (phal::HostQueue) read and write.
  std::byte* HostBytes(uint64_t offset, uint64_t /*byte_size*/) const {
    return data_ + offset;
  }

 private:
  std::byte* data_;
  uint64_t byte_size_;
};

}  // namespace phal::template_plugin

struct phal_plugin_buffer final : phal::template_plugin::Buffer {
  using Buffer::Buffer;
};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_MEMORY_H_
