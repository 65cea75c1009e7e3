#include "plugins/arm/arm_memory.h"

#include <algorithm>
#include <string>

#include "plugins/arm/arm_plugin.h"
#include "sdk/plugin_support/buffer_checks.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::arm {

StatusOr<std::unique_ptr<Buffer>> Buffer::Create(const Device& device,
                                                 uint64_t byte_size,
                                                 uint32_t memory_type) {
  const DeviceFunctions& vk = device.vk();
  std::unique_ptr<Buffer> buffer(new Buffer(device));
  buffer->byte_size_ = byte_size;
  // A zero-byte buffer still gets memory, so that buffers stay distinct and
  // every kernel binding is a valid range.
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = (std::max<uint64_t>(byte_size, 1) + 15) / 16 * 16;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkCreateBuffer(device.handle(), &info, nullptr, &buffer->buffer_),
      "vkCreateBuffer of " + std::to_string(byte_size) + " bytes"));
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(device.handle(), buffer->buffer_,
                                   &requirements);
  if ((requirements.memoryTypeBits & (1u << memory_type)) == 0) {
    return FailedPrecondition(
        "arm plugin: the device's buffers cannot live in memory type " +
        std::to_string(memory_type));
  }
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = memory_type;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkAllocateMemory(device.handle(), &allocate, nullptr,
                          &buffer->memory_),
      "vkAllocateMemory of " + std::to_string(requirements.size) + " bytes"));
  PHAL_RETURN_IF_ERROR(
      VulkanStatus(vk.vkBindBufferMemory(device.handle(), buffer->buffer_,
                                         buffer->memory_, 0),
                   "vkBindBufferMemory"));
  if (memory_type == device.staging_memory_type()) {
    void* mapped = nullptr;
    PHAL_RETURN_IF_ERROR(
        VulkanStatus(vk.vkMapMemory(device.handle(), buffer->memory_, 0,
                                    VK_WHOLE_SIZE, 0, &mapped),
                     "vkMapMemory"));
    buffer->mapped_ = static_cast<std::byte*>(mapped);
  }
  return buffer;
}

Buffer::~Buffer() {
  const DeviceFunctions& vk = device_.vk();
  if (buffer_ != VK_NULL_HANDLE) {
    vk.vkDestroyBuffer(device_.handle(), buffer_, nullptr);
  }
  if (memory_ != VK_NULL_HANDLE) {
    if (mapped_ != nullptr) vk.vkUnmapMemory(device_.handle(), memory_);
    vk.vkFreeMemory(device_.handle(), memory_, nullptr);
  }
}

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  return CheckBufferRange("arm plugin", offset, byte_size, byte_size_);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckMemorySpace("arm plugin", memory_space,
                                          Device::kDeviceMemorySpace));
    PHAL_RETURN_IF_ERROR(CheckAllocationSize("arm plugin", byte_size,
                                             device->max_allocation_bytes(),
                                             "largest buffer"));
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<Buffer> buffer,
        Buffer::Create(*device, byte_size, device->buffer_memory_type()));
    *out_buffer = new phal_plugin_buffer{std::move(buffer)};
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::arm
