// Devices: every Vulkan 1.2 physical device with a compute queue and the
// integer and storage features the GLSL dialect needs, Arm's (Mali) first,
// then the others in the loader's order (Mesa's lavapipe among them). One
// VkDevice per open, with one compute queue the device's streams share.
#ifndef POLYHAL_PLUGINS_ARM_ARM_DEVICE_H_
#define POLYHAL_PLUGINS_ARM_ARM_DEVICE_H_

#include <cstdint>
#include <mutex>
#include <string>

#include "plugins/arm/arm_vulkan.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/emitters/source/spirv_compiler.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::arm {

// What the plugin reads of a physical device once, when it counts them.
struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  uint32_t queue_family = 0;
  uint32_t subgroup_size = 0;
  // The device shuffles values within subgroups of compute shaders
  // (basic, ballot and relative-shuffle operations).
  bool subgroup_shuffles = false;
  uint8_t uuid[VK_UUID_SIZE] = {};
  std::string driver;  // driver name and information
  bool fp64 = false;
  bool fp16_arithmetic = false;
  // The float controls the device honours (Vulkan 1.2 properties).
  source_emitter::FloatControls float_controls;
};

// Thread-safe: queue submissions are serialised by queue_mutex(); every
// other member is immutable once opened.
class Device {
 public:
  static constexpr uint32_t kDeviceMemorySpace = 0;

  Device(const Vulkan& vulkan, const PhysicalDevice& physical,
         uint32_t ordinal);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Creates the VkDevice and its pipeline cache.
  Status Open();

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  const DeviceFunctions& vk() const { return fn_; }
  VkDevice handle() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return physical_.queue_family; }
  std::mutex& queue_mutex() const { return queue_mutex_; }
  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }
  const VkPhysicalDeviceLimits& limits() const {
    return physical_.properties.limits;
  }

  // Memory for buffers, and host-visible memory for staging; the same type
  // when the device's memory is host-visible (unified memory: Mali,
  // lavapipe), in which case buffers are mapped and copied with memcpy.
  uint32_t buffer_memory_type() const { return buffer_memory_type_; }
  uint32_t staging_memory_type() const { return staging_memory_type_; }
  bool buffers_host_visible() const { return buffers_host_visible_; }
  uint64_t memory_bytes() const { return memory_bytes_; }
  uint64_t max_allocation_bytes() const;

  // What the GLSL dialect needs to know of the device.
  const source_emitter::DeviceFeatures& features() const { return features_; }
  // What every kernel asks of the driver's compiler: all the float controls
  // the device offers.
  const source_emitter::FloatControls& float_controls() const {
    return physical_.float_controls;
  }
  uint64_t element_types() const { return element_types_; }
  // Names the device, driver and shader compiler (cache keys).
  const std::string& compiler_identity() const { return compiler_identity_; }
  const DiskCache& disk_cache() const { return disk_; }

 private:
  const Vulkan& vulkan_;
  PhysicalDevice physical_;
  uint32_t ordinal_;
  VkDevice device_ = VK_NULL_HANDLE;
  DeviceFunctions fn_;
  VkQueue queue_ = VK_NULL_HANDLE;
  mutable std::mutex queue_mutex_;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  uint64_t pipeline_cache_key_ = 0;
  uint32_t buffer_memory_type_ = 0;
  uint32_t staging_memory_type_ = 0;
  bool buffers_host_visible_ = false;
  uint64_t memory_bytes_ = 0;
  std::string vendor_, features_text_;
  source_emitter::DeviceFeatures features_;
  uint64_t element_types_ = 0;
  std::string compiler_identity_;
  DiskCache disk_;
};

// Forgets the listed physical devices (shutdown, after every device has
// closed and before the instance is destroyed).
void ForgetDevices();

}  // namespace phal::arm

struct phal_plugin_device final : phal::arm::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_ARM_ARM_DEVICE_H_
