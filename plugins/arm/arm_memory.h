// Buffers: a VkBuffer bound to memory of its own. On devices whose memory is
// host-visible (unified: Mali, lavapipe) the memory stays mapped and host
// copies are memcpy; elsewhere copies go through staging buffers.
#ifndef POLYHAL_PLUGINS_ARM_ARM_MEMORY_H_
#define POLYHAL_PLUGINS_ARM_ARM_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "plugins/arm/arm_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::arm {

// The size and handles never change, so a buffer may be used from many
// threads; its contents are ordered by the streams that touch them.
class Buffer {
 public:
  // A buffer of `byte_size` bytes in memory type `memory_type` of `device`.
  static StatusOr<std::unique_ptr<Buffer>> Create(const Device& device,
                                                  uint64_t byte_size,
                                                  uint32_t memory_type);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  const Device& device() const { return device_; }
  uint64_t byte_size() const { return byte_size_; }
  // The mapped memory, or nullptr when the buffer is not host-visible.
  std::byte* mapped() const { return mapped_; }

  // OK when [offset, offset + byte_size) lies inside the buffer.
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  explicit Buffer(const Device& device) : device_(device) {}

  const Device& device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::byte* mapped_ = nullptr;
  uint64_t byte_size_ = 0;
};

}  // namespace phal::arm

// The opaque handle plugin.h declares owns the buffer.
struct phal_plugin_buffer final {
  std::unique_ptr<phal::arm::Buffer> buffer;
};

#endif  // POLYHAL_PLUGINS_ARM_ARM_MEMORY_H_
