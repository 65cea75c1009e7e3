// Buffers: allocations in the simulated device's DRAM (asic_ref_dram.h),
// each a device address the kernels' DMA reads and writes, backed by host
// memory the copies reach.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_

#include <cstdint>

#include "asic_ref_dram.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// The address, size and backing never change, so a buffer may be used
// from many threads; its contents are ordered by the streams that touch
// them.
class Buffer {
 public:
  // Takes the allocation at `address` of `dram`, which outlives the buffer
  // (the core frees buffers before closing their device).
  Buffer(Dram& dram, uint64_t address, uint64_t byte_size)
      : dram_(dram), address_(address), byte_size_(byte_size) {}
  ~Buffer() { dram_.Free(address_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Dram& dram() const { return dram_; }
  // The device address of byte 0.
  uint64_t address() const { return address_; }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer
  // (CheckBufferRange, sdk/plugin_support/buffer_checks.h).
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;
  // The host bytes backing [offset, offset + byte_size), after CheckRange.
  uint8_t* HostBytes(uint64_t offset, uint64_t byte_size) const {
    return dram_.Map(address_ + offset, byte_size);
  }

 private:
  Dram& dram_;
  const uint64_t address_;
  const uint64_t byte_size_;
};

}  // namespace phal::asic_ref

struct phal_plugin_buffer final : phal::asic_ref::Buffer {
  using Buffer::Buffer;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_MEMORY_H_
