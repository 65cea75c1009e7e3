#include "plugins/arm/arm_stream.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "plugins/arm/arm_kernel.h"
#include "plugins/arm/arm_plugin.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::arm {
namespace {

// Launches per submission, and descriptors the batch's pool holds.
constexpr uint32_t kBatchLaunches = 64;
constexpr uint32_t kPoolDescriptors = kBatchLaunches * 32;

}  // namespace

Stream::~Stream() {
  const DeviceFunctions& vk = device_.vk();
  if (recording_) Keep(Flush());
  if (descriptors_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorPool(device_.handle(), descriptors_, nullptr);
  }
  if (fence_ != VK_NULL_HANDLE) {
    vk.vkDestroyFence(device_.handle(), fence_, nullptr);
  }
  if (pool_ != VK_NULL_HANDLE) {
    vk.vkDestroyCommandPool(device_.handle(), pool_, nullptr);
  }
}

Status Stream::Init() {
  const DeviceFunctions& vk = device_.vk();
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = device_.queue_family();
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkCreateCommandPool(device_.handle(), &pool, nullptr, &pool_),
      "vkCreateCommandPool"));
  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkAllocateCommandBuffers(device_.handle(), &allocate, &commands_),
      "vkAllocateCommandBuffers"));
  VkFenceCreateInfo fence{};
  fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  PHAL_RETURN_IF_ERROR(
      VulkanStatus(vk.vkCreateFence(device_.handle(), &fence, nullptr, &fence_),
                   "vkCreateFence"));
  const VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                     kPoolDescriptors};
  VkDescriptorPoolCreateInfo descriptors{};
  descriptors.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  descriptors.maxSets = kBatchLaunches;
  descriptors.poolSizeCount = 1;
  descriptors.pPoolSizes = &size;
  return VulkanStatus(vk.vkCreateDescriptorPool(device_.handle(), &descriptors,
                                                nullptr, &descriptors_),
                      "vkCreateDescriptorPool");
}

Status Stream::Begin() {
  if (recording_) return OkStatus();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  PHAL_RETURN_IF_ERROR(
      VulkanStatus(device_.vk().vkBeginCommandBuffer(commands_, &begin),
                   "vkBeginCommandBuffer"));
  recording_ = true;
  recorded_ = 0;
  return OkStatus();
}

// Every write before it is visible to every read and write after it.
void Stream::Barrier() {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  const VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  device_.vk().vkCmdPipelineBarrier(commands_, stages, stages, 0, 1, &barrier,
                                    0, nullptr, 0, nullptr);
}

Status Stream::Flush() {
  if (!recording_) return OkStatus();
  const DeviceFunctions& vk = device_.vk();
  recording_ = false;
  Status status =
      VulkanStatus(vk.vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  if (status.ok()) {
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    {
      std::lock_guard<std::mutex> lock(device_.queue_mutex());
      status =
          VulkanStatus(vk.vkQueueSubmit(device_.queue(), 1, &submit, fence_),
                       "vkQueueSubmit");
    }
    if (status.ok()) {
      status = VulkanStatus(
          vk.vkWaitForFences(device_.handle(), 1, &fence_, VK_TRUE, UINT64_MAX),
          "vkWaitForFences");
      vk.vkResetFences(device_.handle(), 1, &fence_);
    }
  }
  vk.vkResetCommandPool(device_.handle(), pool_, 0);
  vk.vkResetDescriptorPool(device_.handle(), descriptors_, 0);
  keep_alive_.clear();
  recorded_ = 0;
  return status;
}

void Stream::Keep(Status status) {
  if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
}

void Stream::AddError(Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  Keep(std::move(status));
}

Status Stream::Launch(const CompiledKernel& kernel,
                      const std::vector<VkBuffer>& buffers,
                      std::unique_ptr<Buffer> scratch) {
  const source_emitter::LaunchShape& launch = kernel.launch;
  uint64_t groups[3] = {1, 1, 1};
  for (uint32_t d = 0; d < 3; ++d) {
    const uint64_t local = std::max<uint64_t>(1, launch.local_size[d]);
    groups[d] = (launch.global_size[d] + local - 1) / local;
    if (groups[d] == 0) return OkStatus();
  }
  const DeviceFunctions& vk = device_.vk();
  std::lock_guard<std::mutex> lock(mutex_);
  if (recording_ && recorded_ >= kBatchLaunches) Keep(Flush());
  PHAL_RETURN_IF_ERROR(Begin());
  VkDescriptorSetAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocate.descriptorPool = descriptors_;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &kernel.set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkResult result =
      vk.vkAllocateDescriptorSets(device_.handle(), &allocate, &set);
  if (result == VK_ERROR_OUT_OF_POOL_MEMORY ||
      result == VK_ERROR_FRAGMENTED_POOL) {
    Keep(Flush());
    PHAL_RETURN_IF_ERROR(Begin());
    result = vk.vkAllocateDescriptorSets(device_.handle(), &allocate, &set);
  }
  PHAL_RETURN_IF_ERROR(VulkanStatus(result, "vkAllocateDescriptorSets"));
  std::vector<VkDescriptorBufferInfo> infos;
  for (VkBuffer buffer : buffers) infos.push_back({buffer, 0, VK_WHOLE_SIZE});
  if (scratch != nullptr)
    infos.push_back({scratch->handle(), 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vk.vkUpdateDescriptorSets(device_.handle(),
                            static_cast<uint32_t>(writes.size()), writes.data(),
                            0, nullptr);
  vk.vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE,
                       kernel.pipeline);
  vk.vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE,
                             kernel.layout, 0, 1, &set, 0, nullptr);
  const uint8_t zeros[source_emitter::kGlslPushConstantBytes] = {};
  vk.vkCmdPushConstants(commands_, kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT,
                        0, sizeof(zeros), zeros);
  // More groups than the device dispatches at once run as several
  // dispatches with a base group offset (the indices the kernel sees are
  // the global ones).
  const uint32_t* max = device_.limits().maxComputeWorkGroupCount;
  for (uint64_t z = 0; z < groups[2]; z += max[2]) {
    for (uint64_t y = 0; y < groups[1]; y += max[1]) {
      for (uint64_t x = 0; x < groups[0]; x += max[0]) {
        vk.vkCmdDispatchBase(
            commands_, static_cast<uint32_t>(x), static_cast<uint32_t>(y),
            static_cast<uint32_t>(z),
            static_cast<uint32_t>(std::min<uint64_t>(max[0], groups[0] - x)),
            static_cast<uint32_t>(std::min<uint64_t>(max[1], groups[1] - y)),
            static_cast<uint32_t>(std::min<uint64_t>(max[2], groups[2] - z)));
      }
    }
  }
  Barrier();
  if (scratch != nullptr) keep_alive_.push_back(std::move(scratch));
  ++recorded_;
  return OkStatus();
}

Status Stream::CopyBuffer(const Buffer& source, uint64_t source_offset,
                          const Buffer& destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  if (&source.device() != &device_ || &destination.device() != &device_) {
    // Between devices: through host memory, once this stream's work ran.
    if (source.mapped() == nullptr || destination.mapped() == nullptr) {
      return Unimplemented(
          "arm plugin: copies between buffers of two devices need "
          "host-visible memory on both");
    }
    Keep(Flush());
    std::memcpy(destination.mapped() + destination_offset,
                source.mapped() + source_offset, byte_size);
    return OkStatus();
  }
  PHAL_RETURN_IF_ERROR(Begin());
  const VkBufferCopy region = {source_offset, destination_offset, byte_size};
  device_.vk().vkCmdCopyBuffer(commands_, source.handle(), destination.handle(),
                               1, &region);
  Barrier();
  ++recorded_;
  return OkStatus();
}

Status Stream::CopyFromHost(const void* source, const Buffer& buffer,
                            uint64_t offset, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  Keep(Flush());
  if (buffer.mapped() != nullptr) {
    std::memcpy(buffer.mapped() + offset, source, byte_size);
    return OkStatus();
  }
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<Buffer> staging,
      Buffer::Create(device_, byte_size, device_.staging_memory_type()));
  std::memcpy(staging->mapped(), source, byte_size);
  PHAL_RETURN_IF_ERROR(Begin());
  const VkBufferCopy region = {0, offset, byte_size};
  device_.vk().vkCmdCopyBuffer(commands_, staging->handle(), buffer.handle(), 1,
                               &region);
  Barrier();
  keep_alive_.push_back(std::move(staging));
  Keep(Flush());
  return OkStatus();
}

Status Stream::CopyToHost(const Buffer& buffer, uint64_t offset,
                          void* destination, uint64_t byte_size) {
  if (byte_size == 0) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  if (buffer.mapped() != nullptr) {
    Keep(Flush());
    std::memcpy(destination, buffer.mapped() + offset, byte_size);
    return OkStatus();
  }
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<Buffer> staging,
      Buffer::Create(device_, byte_size, device_.staging_memory_type()));
  PHAL_RETURN_IF_ERROR(Begin());
  const VkBufferCopy region = {offset, 0, byte_size};
  device_.vk().vkCmdCopyBuffer(commands_, buffer.handle(), staging->handle(), 1,
                               &region);
  Barrier();
  const Status status = Flush();
  Keep(status);
  if (status.ok()) std::memcpy(destination, staging->mapped(), byte_size);
  return OkStatus();
}

Status Stream::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  Keep(Flush());
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

Status Stream::Drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  Keep(Flush());
  return first_error_;
}

PHAL_DEFINE_STREAM_HANDLE_SLOTS()

}  // namespace phal::arm
