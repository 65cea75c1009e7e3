#include "plugins/arm/arm_vulkan.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace phal::arm {
namespace {

struct Loaded {
  std::once_flag once;
  void* library = nullptr;
  Vulkan vulkan;
  Status status;
};

Loaded& State() {
  static Loaded* loaded = new Loaded();
  return *loaded;
}

const char* ResultName(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_INCOMPLETE:
      return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_FRAGMENTED_POOL:
      return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_INVALID_SHADER_NV:
      return "VK_ERROR_INVALID_SHADER_NV";
    default:
      return "VkResult";
  }
}

Status Load(Loaded& loaded) {
  // PHAL_ARM_VULKAN_LIBRARY names another loader (tests, unusual installs).
  const char* name = std::getenv("PHAL_ARM_VULKAN_LIBRARY");
  if (name == nullptr || *name == '\0') name = "libvulkan.so.1";
  loaded.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (loaded.library == nullptr) {
    const char* error = dlerror();
    return NotFound(
        std::string("no Vulkan loader: ") + name +
        " cannot be opened: " + (error != nullptr ? error : "dlopen failed"));
  }
  Vulkan& vk = loaded.vulkan;
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(loaded.library, "vkGetInstanceProcAddr"));
  if (vk.vkGetInstanceProcAddr == nullptr) {
    return NotFound("the Vulkan loader has no vkGetInstanceProcAddr");
  }
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  vk.api_version = VK_API_VERSION_1_0;
  if (enumerate_version != nullptr) enumerate_version(&vk.api_version);
  if (vk.api_version < VK_API_VERSION_1_2) {
    return FailedPrecondition(
        "the Vulkan loader speaks Vulkan " +
        std::to_string(VK_API_VERSION_MAJOR(vk.api_version)) + "." +
        std::to_string(VK_API_VERSION_MINOR(vk.api_version)) +
        "; the arm plugin needs 1.2");
  }
  auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(
      vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  if (create_instance == nullptr) {
    return NotFound("the Vulkan loader has no vkCreateInstance");
  }
  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "polyhal";
  application.pEngineName = "polyhal arm plugin";
  application.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &application;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      create_instance(&info, nullptr, &vk.instance), "vkCreateInstance"));
#define PHAL_VULKAN_LOAD_INSTANCE(name)                   \
  vk.name = reinterpret_cast<PFN_##name>(                 \
      vk.vkGetInstanceProcAddr(vk.instance, #name));      \
  if (vk.name == nullptr) {                               \
    return NotFound("the Vulkan instance has no " #name); \
  }
  PHAL_VULKAN_INSTANCE_FUNCTIONS(PHAL_VULKAN_LOAD_INSTANCE)
#undef PHAL_VULKAN_LOAD_INSTANCE
  return OkStatus();
}

}  // namespace

StatusOr<const Vulkan*> GetVulkan() {
  Loaded& loaded = State();
  std::call_once(loaded.once, [&] { loaded.status = Load(loaded); });
  if (!loaded.status.ok()) return loaded.status;
  return &loaded.vulkan;
}

Status LoadDeviceFunctions(const Vulkan& vulkan, VkDevice device,
                           DeviceFunctions* out) {
#define PHAL_VULKAN_LOAD_DEVICE(name)                                          \
  out->name =                                                                  \
      reinterpret_cast<PFN_##name>(vulkan.vkGetDeviceProcAddr(device, #name)); \
  if (out->name == nullptr) {                                                  \
    return NotFound("the Vulkan device has no " #name);                        \
  }
  PHAL_VULKAN_DEVICE_FUNCTIONS(PHAL_VULKAN_LOAD_DEVICE)
#undef PHAL_VULKAN_LOAD_DEVICE
  return OkStatus();
}

Status VulkanStatus(VkResult result, const std::string& what) {
  if (result == VK_SUCCESS) return OkStatus();
  const std::string message = "arm plugin: " + what +
                              " failed: " + ResultName(result) + " (" +
                              std::to_string(static_cast<int>(result)) + ")";
  if (result == VK_ERROR_OUT_OF_HOST_MEMORY ||
      result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
      result == VK_ERROR_OUT_OF_POOL_MEMORY ||
      result == VK_ERROR_TOO_MANY_OBJECTS) {
    return ResourceExhausted(message);
  }
  return Internal(message);
}

}  // namespace phal::arm
