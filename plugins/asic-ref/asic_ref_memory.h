// Buffers: blocks of device memory. The template's device memory is host
// memory, so a buffer is an aligned heap block.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

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

  // OK when [offset, offset + byte_size) lies inside the buffer. The core
  // checks ranges before calling; checking again costs one comparison and
  // turns a core bug into an error instead of a heap overrun.
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  std::byte* data_;
  uint64_t byte_size_;
};

}  // namespace phal::asic_ref

struct phal_plugin_buffer final : phal::asic_ref::Buffer {
  using Buffer::Buffer;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_
