// Buffers: device memory the driver allocates (host memory on the emulated
// device, whose driver allocates it). A device address is never a host
// pointer the layer dereferences.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_MEMORY_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_MEMORY_H_

#include <cstdint>
#include <memory>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_device.h"

namespace phal::gpu_plugin {

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
  GpuAddress address(uint64_t offset = 0) const { return address_ + offset; }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer.
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  Buffer(const Device& device, uint64_t byte_size)
      : device_(device), byte_size_(byte_size) {}

  const Device& device_;
  uint64_t byte_size_;
  GpuAddress address_ = 0;
};

}  // namespace phal::gpu_plugin

// The opaque handle plugin.h declares owns the buffer.
struct phal_plugin_buffer final {
  std::unique_ptr<phal::gpu_plugin::Buffer> buffer;
};

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_MEMORY_H_
