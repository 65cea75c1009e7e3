// Buffers: hipMalloc memory of the device (host memory on the emulated
// device, whose runtime allocates it). A device address is never a host
// pointer the plugin dereferences.
#ifndef POLYHAL_PLUGINS_AMD_AMD_MEMORY_H_
#define POLYHAL_PLUGINS_AMD_AMD_MEMORY_H_

#include <cstdint>
#include <memory>

#include "plugins/amd/amd_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::amd {

// The address and size never change, so a buffer may be used from many
// threads; its contents are ordered by the streams that touch them.
class Buffer {
 public:
  // `byte_size` bytes of `device`'s memory.
  static StatusOr<std::unique_ptr<Buffer>> Create(const Device& device,
                                                  uint64_t byte_size);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Device& device() const { return device_; }
  // The device address `offset` bytes into the buffer.
  void* address(uint64_t offset = 0) const {
    return static_cast<char*>(address_) + offset;
  }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer.
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  Buffer(const Device& device, uint64_t byte_size)
      : device_(device), byte_size_(byte_size) {}

  const Device& device_;
  uint64_t byte_size_;
  void* address_ = nullptr;
};

}  // namespace phal::amd

// The opaque handle plugin.h declares owns the buffer.
struct phal_plugin_buffer final {
  std::unique_ptr<phal::amd::Buffer> buffer;
};

#endif  // POLYHAL_PLUGINS_AMD_AMD_MEMORY_H_
