#include "plugins/arm/arm_device.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plugins/arm/arm_plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/base/hash.h"
#include "sdk/emitters/source/source_emitter.h"
#include "sdk/emitters/source/spirv_compiler.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::arm {
namespace {

constexpr uint32_t kArmVendor = 0x13B5;

std::string VendorName(uint32_t id) {
  switch (id) {
    case kArmVendor:
      return "Arm";
    case 0x10005:
      return "Mesa";
    case 0x10DE:
      return "NVIDIA";
    case 0x1002:
      return "AMD";
    case 0x8086:
      return "Intel";
    case 0x5143:
      return "Qualcomm";
    case 0x1010:
      return "Imagination";
    default: {
      char text[16];
      std::snprintf(text, sizeof(text), "0x%04x", id);
      return text;
    }
  }
}

// The float controls in the device's feature list, by their Vulkan names.
std::string FloatControlsText(const source_emitter::FloatControls& controls) {
  std::string text;
  if (controls.signed_zero_inf_nan_preserve_f32) {
    text += " shaderSignedZeroInfNanPreserveFloat32";
  }
  if (controls.signed_zero_inf_nan_preserve_f64) {
    text += " shaderSignedZeroInfNanPreserveFloat64";
  }
  if (controls.denorm_preserve_f32) text += " shaderDenormPreserveFloat32";
  if (controls.denorm_preserve_f64) text += " shaderDenormPreserveFloat64";
  return text;
}

// Why a physical device cannot run the GLSL dialect, or "" when it can.
std::string Unusable(const Vulkan& vk, VkPhysicalDevice handle,
                     PhysicalDevice* out) {
  out->handle = handle;
  vk.vkGetPhysicalDeviceProperties(handle, &out->properties);
  const std::string name = out->properties.deviceName;
  if (out->properties.apiVersion < VK_API_VERSION_1_2) {
    return name + ": Vulkan " +
           std::to_string(VK_API_VERSION_MAJOR(out->properties.apiVersion)) +
           "." +
           std::to_string(VK_API_VERSION_MINOR(out->properties.apiVersion)) +
           " (1.2 needed)";
  }
  uint32_t families = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(handle, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(handle, &families, family.data());
  bool compute = false;
  for (uint32_t f = 0; f < families && !compute; ++f) {
    if ((family[f].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0) {
      out->queue_family = f;
      compute = true;
    }
  }
  if (!compute) return name + ": no compute queue";

  VkPhysicalDeviceVulkan12Features features12{};
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  VkPhysicalDeviceVulkan11Features features11{};
  features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  features11.pNext = &features12;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &features11;
  vk.vkGetPhysicalDeviceFeatures2(handle, &features);
  std::string missing;
  const auto need = [&](VkBool32 feature, const char* feature_name) {
    if (feature == VK_FALSE) missing += std::string(" ") + feature_name;
  };
  need(features.features.shaderInt64, "shaderInt64");
  need(features.features.shaderInt16, "shaderInt16");
  need(features12.shaderInt8, "shaderInt8");
  need(features11.storageBuffer16BitAccess, "storageBuffer16BitAccess");
  need(features12.storageBuffer8BitAccess, "storageBuffer8BitAccess");
  if (!missing.empty()) return name + ": lacks" + missing;
  out->fp64 = features.features.shaderFloat64 == VK_TRUE;
  out->fp16_arithmetic = features12.shaderFloat16 == VK_TRUE;

  VkPhysicalDeviceVulkan12Properties properties12{};
  properties12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  VkPhysicalDeviceVulkan11Properties properties11{};
  properties11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
  properties11.pNext = &properties12;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &properties11;
  vk.vkGetPhysicalDeviceProperties2(handle, &properties);
  out->subgroup_size = properties11.subgroupSize;
  source_emitter::FloatControls& controls = out->float_controls;
  controls.signed_zero_inf_nan_preserve_f32 =
      properties12.shaderSignedZeroInfNanPreserveFloat32 == VK_TRUE;
  controls.signed_zero_inf_nan_preserve_f64 =
      out->fp64 &&
      properties12.shaderSignedZeroInfNanPreserveFloat64 == VK_TRUE;
  controls.denorm_preserve_f32 =
      properties12.shaderDenormPreserveFloat32 == VK_TRUE;
  controls.denorm_preserve_f64 =
      out->fp64 && properties12.shaderDenormPreserveFloat64 == VK_TRUE;
  const VkSubgroupFeatureFlags needed =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
      VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  out->subgroup_shuffles =
      (properties11.subgroupSupportedOperations & needed) == needed &&
      (properties11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  std::memcpy(out->uuid, properties11.deviceUUID, VK_UUID_SIZE);
  out->driver = std::string(properties12.driverName);
  if (properties12.driverInfo[0] != '\0') {
    out->driver += std::string(" ") + properties12.driverInfo;
  }
  vk.vkGetPhysicalDeviceMemoryProperties(handle, &out->memory);
  return "";
}

struct Catalogue {
  std::mutex mutex;
  bool listed = false;
  std::vector<PhysicalDevice> devices;
  std::string reason;  // why there are none
};

Catalogue& Devices() {
  static Catalogue* catalogue = new Catalogue();
  return *catalogue;
}

// Lists the usable devices once per instance.
Status ListDevices(const Vulkan& vk, Catalogue& catalogue) {
  if (catalogue.listed) return OkStatus();
  uint32_t count = 0;
  PHAL_RETURN_IF_ERROR(
      VulkanStatus(vk.vkEnumeratePhysicalDevices(vk.instance, &count, nullptr),
                   "vkEnumeratePhysicalDevices"));
  std::vector<VkPhysicalDevice> handles(count);
  if (count > 0) {
    const VkResult result =
        vk.vkEnumeratePhysicalDevices(vk.instance, &count, handles.data());
    if (result != VK_INCOMPLETE) {
      PHAL_RETURN_IF_ERROR(VulkanStatus(result, "vkEnumeratePhysicalDevices"));
    }
    handles.resize(count);
  }
  std::vector<std::string> skipped;
  for (VkPhysicalDevice handle : handles) {
    PhysicalDevice device;
    std::string why = Unusable(vk, handle, &device);
    if (why.empty()) {
      catalogue.devices.push_back(device);
    } else {
      skipped.push_back(std::move(why));
    }
  }
  std::stable_sort(catalogue.devices.begin(), catalogue.devices.end(),
                   [](const PhysicalDevice& a, const PhysicalDevice& b) {
                     return (a.properties.vendorID == kArmVendor) >
                            (b.properties.vendorID == kArmVendor);
                   });
  if (catalogue.devices.empty()) {
    catalogue.reason = handles.empty()
                           ? "the Vulkan loader found no physical device"
                           : "no Vulkan device can run the GLSL kernels:";
    for (const std::string& why : skipped) catalogue.reason += " " + why + ";";
  }
  catalogue.listed = true;
  return OkStatus();
}

// The memory type with all of `required` flags, preferring `preferred`
// too, that `type_bits` allows; UINT32_MAX when there is none.
uint32_t FindMemoryType(const VkPhysicalDeviceMemoryProperties& memory,
                        uint32_t type_bits, VkMemoryPropertyFlags required,
                        VkMemoryPropertyFlags preferred) {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  return fallback;
}

}  // namespace

Device::Device(const Vulkan& vulkan, const PhysicalDevice& physical,
               uint32_t ordinal)
    : vulkan_(vulkan),
      physical_(physical),
      ordinal_(ordinal),
      disk_(DiskCacheConfigFromEnvironment("arm")) {
  vendor_ = VendorName(physical_.properties.vendorID);
  const VkPhysicalDeviceLimits& limits = physical_.properties.limits;
  features_.fp64 = physical_.fp64;
  features_.fp16 = physical_.fp16_arithmetic;
  features_.correctly_rounded_divide_sqrt = false;
  // A power of two from 2, as the emitter's shuffle tree needs.
  const uint32_t subgroup = physical_.subgroup_size;
  if (physical_.subgroup_shuffles && subgroup >= 2 &&
      (subgroup & (subgroup - 1)) == 0) {
    features_.subgroup_size = subgroup;
  }
  features_.max_work_group_size = std::min<uint64_t>(
      {limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0],
       uint64_t{limits.maxComputeWorkGroupSize[1]} *
           limits.maxComputeWorkGroupSize[1]});
  element_types_ = 0;
  for (uint32_t type = PHAL_ELEMENT_TYPE_PRED; type <= PHAL_ELEMENT_TYPE_C128;
       ++type) {
    const bool wide =
        type == PHAL_ELEMENT_TYPE_F64 || type == PHAL_ELEMENT_TYPE_C128;
    if (!wide || features_.fp64) element_types_ |= uint64_t{1} << type;
  }
  const uint32_t api = physical_.properties.apiVersion;
  features_text_ =
      "vulkan " + std::to_string(VK_API_VERSION_MAJOR(api)) + "." +
      std::to_string(VK_API_VERSION_MINOR(api)) + "." +
      std::to_string(VK_API_VERSION_PATCH(api)) +
      " subgroup_size=" + std::to_string(physical_.subgroup_size) +
      (features_.subgroup_size != 0 ? " subgroup_shuffles" : "") +
      " max_workgroup_invocations=" +
      std::to_string(limits.maxComputeWorkGroupInvocations) +
      " max_storage_buffer_range=" +
      std::to_string(limits.maxStorageBufferRange) +
      " shared_memory=" + std::to_string(limits.maxComputeSharedMemorySize) +
      " shaderInt64 shaderInt16 shaderInt8 storageBuffer16BitAccess "
      "storageBuffer8BitAccess" +
      (physical_.fp64 ? " shaderFloat64" : "") +
      (physical_.fp16_arithmetic ? " shaderFloat16" : "") +
      FloatControlsText(physical_.float_controls);
  std::string uuid;
  for (uint8_t byte : physical_.uuid) uuid += std::to_string(byte) + ".";
  compiler_identity_ =
      std::string(physical_.properties.deviceName) + "|" + physical_.driver +
      "|" + std::to_string(physical_.properties.driverVersion) + "|" + uuid +
      "|" + source_emitter::SpirvCompilerIdentity() + "|" +
      physical_.float_controls.Describe() + "|" + PHAL_PLUGIN_VERSION;
}

Device::~Device() {
  if (device_ == VK_NULL_HANDLE) return;
  fn_.vkDeviceWaitIdle(device_);
  if (pipeline_cache_ != VK_NULL_HANDLE) {
    size_t size = 0;
    if (disk_.enabled() &&
        fn_.vkGetPipelineCacheData(device_, pipeline_cache_, &size, nullptr) ==
            VK_SUCCESS &&
        size > 0) {
      std::string data(size, '\0');
      if (fn_.vkGetPipelineCacheData(device_, pipeline_cache_, &size,
                                     data.data()) == VK_SUCCESS) {
        data.resize(size);
        disk_.Store(pipeline_cache_key_, data);
      }
    }
    fn_.vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
  }
  fn_.vkDestroyDevice(device_, nullptr);
}

Status Device::Open() {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = physical_.queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features features12{};
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  features12.shaderInt8 = VK_TRUE;
  features12.storageBuffer8BitAccess = VK_TRUE;
  VkPhysicalDeviceVulkan11Features features11{};
  features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  features11.storageBuffer16BitAccess = VK_TRUE;
  features11.pNext = &features12;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &features11;
  features.features.shaderInt64 = VK_TRUE;
  features.features.shaderInt16 = VK_TRUE;
  features.features.shaderFloat64 = physical_.fp64 ? VK_TRUE : VK_FALSE;
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vulkan_.vkCreateDevice(physical_.handle, &info, nullptr, &device_),
      "vkCreateDevice"));
  PHAL_RETURN_IF_ERROR(LoadDeviceFunctions(vulkan_, device_, &fn_));
  fn_.vkGetDeviceQueue(device_, physical_.queue_family, 0, &queue_);

  // Memory: device-local for buffers, host-visible and coherent for
  // staging; one type serves both on unified-memory devices.
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const uint32_t unified = FindMemoryType(
      physical_.memory, ~0u, host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (unified != UINT32_MAX) {
    buffer_memory_type_ = staging_memory_type_ = unified;
    buffers_host_visible_ = true;
  } else {
    buffer_memory_type_ = FindMemoryType(
        physical_.memory, ~0u, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    staging_memory_type_ = FindMemoryType(physical_.memory, ~0u, host,
                                          VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (buffer_memory_type_ == UINT32_MAX ||
        staging_memory_type_ == UINT32_MAX) {
      return FailedPrecondition(
          std::string("arm plugin: ") + physical_.properties.deviceName +
          " has no device-local and host-visible memory types");
    }
  }
  memory_bytes_ =
      physical_.memory
          .memoryHeaps[physical_.memory.memoryTypes[buffer_memory_type_]
                           .heapIndex]
          .size;

  // The pipeline cache, from disk where an earlier process left it.
  pipeline_cache_key_ =
      MixBits(Fnv1a("vulkan pipeline cache|" + compiler_identity_));
  std::optional<std::string> data = disk_.Load(pipeline_cache_key_);
  VkPipelineCacheCreateInfo cache{};
  cache.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  if (data.has_value()) {
    cache.initialDataSize = data->size();
    cache.pInitialData = data->data();
  }
  VkResult result =
      fn_.vkCreatePipelineCache(device_, &cache, nullptr, &pipeline_cache_);
  if (result != VK_SUCCESS && data.has_value()) {
    cache.initialDataSize = 0;
    cache.pInitialData = nullptr;
    result =
        fn_.vkCreatePipelineCache(device_, &cache, nullptr, &pipeline_cache_);
  }
  return VulkanStatus(result, "vkCreatePipelineCache");
}

uint64_t Device::max_allocation_bytes() const {
  return std::min<uint64_t>(memory_bytes_,
                            physical_.properties.limits.maxStorageBufferRange);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = physical_.properties.deviceName;
  full.vendor = vendor_.c_str();
  full.driver_version = physical_.driver.c_str();
  full.features = features_text_.c_str();
  full.kind = physical_.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                  ? PHAL_DEVICE_KIND_CPU
                  : PHAL_DEVICE_KIND_GPU;
  full.ordinal = ordinal_;
  full.compute_units = 1;
  full.memory_space_count = 1;
  full.memory_bytes = memory_bytes_;
  full.max_allocation_bytes = max_allocation_bytes();
  full.min_alignment = std::max<uint64_t>(
      16, physical_.properties.limits.minStorageBufferOffsetAlignment);
  full.element_types = element_types_;
  full.flags = 0;
  full.kernel_kinds = source_emitter::SupportedKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace(
      "arm plugin", index, kDeviceMemorySpace,
      buffers_host_visible_ ? "device (host-visible)" : "device",
      buffers_host_visible_ ? PHAL_MEMORY_KIND_UNIFIED
                            : PHAL_MEMORY_KIND_DEVICE,
      memory_bytes_, out);
}

phal_status_t* DeviceCount(size_t* out_count,
                           const char** out_reason) noexcept {
  *out_count = 0;
  if (out_reason != nullptr) *out_reason = nullptr;
  return RunAtAbiBoundary([&]() -> Status {
    static std::string reason;
    StatusOr<const Vulkan*> vulkan = GetVulkan();
    Catalogue& catalogue = Devices();
    std::lock_guard<std::mutex> lock(catalogue.mutex);
    if (!vulkan.ok()) {
      reason = vulkan.status().message();
    } else {
      PHAL_RETURN_IF_ERROR(ListDevices(**vulkan, catalogue));
      reason = catalogue.reason;
      *out_count = catalogue.devices.size();
    }
    if (*out_count == 0 && out_reason != nullptr) *out_reason = reason.c_str();
    return OkStatus();
  });
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(const Vulkan* vulkan, GetVulkan());
    Catalogue& catalogue = Devices();
    PhysicalDevice physical;
    {
      std::lock_guard<std::mutex> lock(catalogue.mutex);
      PHAL_RETURN_IF_ERROR(ListDevices(*vulkan, catalogue));
      PHAL_RETURN_IF_ERROR(
          CheckDeviceOrdinal("arm plugin", ordinal, catalogue.devices.size()));
      physical = catalogue.devices[ordinal];
    }
    auto device = std::make_unique<phal_plugin_device>(
        *vulkan, physical, static_cast<uint32_t>(ordinal));
    PHAL_RETURN_IF_ERROR(device->Open());
    *out_device = device.release();
    return OkStatus();
  });
}

void ForgetDevices() {
  Catalogue& catalogue = Devices();
  std::lock_guard<std::mutex> lock(catalogue.mutex);
  catalogue.devices.clear();
  catalogue.listed = false;
  catalogue.reason.clear();
}

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::arm
