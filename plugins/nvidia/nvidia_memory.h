// Buffers: cuMemAlloc memory in the device's primary context (host memory
// on the emulated device, whose driver allocates it). A device address is
// a CUdeviceptr, never a host pointer the plugin dereferences.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_MEMORY_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_MEMORY_H_

#include <cstdint>
#include <memory>

#include "plugins/nvidia/nvidia_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::nvidia {

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
  CUdeviceptr address() const { return address_; }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer.
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  Buffer(const Device& device, uint64_t byte_size)
      : device_(device), byte_size_(byte_size) {}

  const Device& device_;
  uint64_t byte_size_;
  CUdeviceptr address_ = 0;
};

}  // namespace phal::nvidia

// The opaque handle plugin.h declares owns the buffer.
struct phal_plugin_buffer final {
  std::unique_ptr<phal::nvidia::Buffer> buffer;
};

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_MEMORY_H_
