// The Vulkan loader (libvulkan.so.1), opened at run time so the plugin loads
// where Vulkan is absent: every entry point the plugin calls, resolved once
// per process through vkGetInstanceProcAddr and vkGetDeviceProcAddr, and the
// one VkInstance the plugin's devices share.
#ifndef POLYHAL_PLUGINS_ARM_ARM_VULKAN_H_
#define POLYHAL_PLUGINS_ARM_ARM_VULKAN_H_

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

#include "sdk/base/status.h"

namespace phal::arm {

#define PHAL_VULKAN_INSTANCE_FUNCTIONS(X)     \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define PHAL_VULKAN_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                    \
  X(vkGetDeviceQueue)                   \
  X(vkDeviceWaitIdle)                   \
  X(vkCreateBuffer)                     \
  X(vkDestroyBuffer)                    \
  X(vkGetBufferMemoryRequirements)      \
  X(vkAllocateMemory)                   \
  X(vkFreeMemory)                       \
  X(vkBindBufferMemory)                 \
  X(vkMapMemory)                        \
  X(vkUnmapMemory)                      \
  X(vkCreateCommandPool)                \
  X(vkDestroyCommandPool)               \
  X(vkResetCommandPool)                 \
  X(vkAllocateCommandBuffers)           \
  X(vkBeginCommandBuffer)               \
  X(vkEndCommandBuffer)                 \
  X(vkCmdBindPipeline)                  \
  X(vkCmdBindDescriptorSets)            \
  X(vkCmdPushConstants)                 \
  X(vkCmdDispatchBase)                  \
  X(vkCmdPipelineBarrier)               \
  X(vkCmdCopyBuffer)                    \
  X(vkQueueSubmit)                      \
  X(vkCreateFence)                      \
  X(vkDestroyFence)                     \
  X(vkWaitForFences)                    \
  X(vkResetFences)                      \
  X(vkCreateShaderModule)               \
  X(vkDestroyShaderModule)              \
  X(vkCreateDescriptorSetLayout)        \
  X(vkDestroyDescriptorSetLayout)       \
  X(vkCreatePipelineLayout)             \
  X(vkDestroyPipelineLayout)            \
  X(vkCreateComputePipelines)           \
  X(vkDestroyPipeline)                  \
  X(vkCreatePipelineCache)              \
  X(vkDestroyPipelineCache)             \
  X(vkGetPipelineCacheData)             \
  X(vkCreateDescriptorPool)             \
  X(vkDestroyDescriptorPool)            \
  X(vkResetDescriptorPool)              \
  X(vkAllocateDescriptorSets)           \
  X(vkUpdateDescriptorSets)

#define PHAL_VULKAN_DECLARE(name) PFN_##name name = nullptr;

// The instance and its entry points; device entry points are resolved by
// each Device (DeviceFunctions) for its VkDevice.
struct Vulkan {
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t api_version = 0;  // of the loader
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PHAL_VULKAN_INSTANCE_FUNCTIONS(PHAL_VULKAN_DECLARE)
};

struct DeviceFunctions {
  PHAL_VULKAN_DEVICE_FUNCTIONS(PHAL_VULKAN_DECLARE)
};

// The process's Vulkan: the loader opened and an instance created on the
// first call, both kept until the process exits (the plugin loaded again in
// the same process finds them); the reason it is unusable (no loader, no
// Vulkan 1.2 instance) on every call after a failure. Destroying the
// instance would let the loader unload the driver, whose once-per-process
// allocations (lavapipe's, for one) would then be lost, and make every
// later load pay for loading the driver again.
StatusOr<const Vulkan*> GetVulkan();

// `device`'s entry points.
Status LoadDeviceFunctions(const Vulkan& vulkan, VkDevice device,
                           DeviceFunctions* out);

// OK for VK_SUCCESS, else an error naming `what` and the VkResult (out of
// memory results as RESOURCE_EXHAUSTED).
Status VulkanStatus(VkResult result, const std::string& what);

}  // namespace phal::arm

#endif  // POLYHAL_PLUGINS_ARM_ARM_VULKAN_H_
