// Buffers: aligned blocks of host memory owned by the device that made them.
#ifndef POLYHAL_PLUGINS_CPU_CPU_MEMORY_H_
#define POLYHAL_PLUGINS_CPU_CPU_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/cpu_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// The size, block and device never change, so a buffer may be used from many
// threads; its contents are ordered by the streams that touch them.
// The block comes from BlockCache::Instance() and goes back there.
class Buffer {
 public:
  Buffer(const Device* device, std::byte* data, uint64_t byte_size,
         uint64_t block_bytes)
      : device_(device),
        data_(data),
        byte_size_(byte_size),
        block_bytes_(block_bytes) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Device* device() const { return device_; }
  std::byte* data() const { return data_; }
  uint64_t byte_size() const { return byte_size_; }

  // The address of byte `offset` when [offset, offset + byte_size) lies
  // inside the buffer, else OUT_OF_RANGE. The core checks ranges before
  // calling; checking again here costs one comparison and turns a core bug
  // into an error instead of a heap overrun.
  StatusOr<std::byte*> RangeStart(uint64_t offset, uint64_t byte_size) const;

 private:
  const Device* device_;
  std::byte* data_;
  uint64_t byte_size_;
  uint64_t block_bytes_;  // byte_size_ rounded up to whole cache lines
};

}  // namespace phal::cpu

struct phal_plugin_buffer final : phal::cpu::Buffer {
  using Buffer::Buffer;
};

#endif  // POLYHAL_PLUGINS_CPU_CPU_MEMORY_H_
