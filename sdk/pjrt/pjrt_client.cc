// The PJRT client, its devices, their descriptions and memories: one
// Polyhal client holding the devices of one Polyhal plugin, chosen by the
// client option "plugin" or POLYHAL_PJRT_PLUGIN (default "cpu").
#include <cstdlib>
#include <memory>
#include <string>

#include "sdk/pjrt/pjrt_entry_points.h"
#include "sdk/pjrt/pjrt_error.h"

namespace phal::pjrt {
namespace {

std::string OptionString(const PJRT_NamedValue* options, size_t count,
                         const std::string& name) {
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& option = options[i];
    if (std::string(option.name, option.name_size) == name &&
        option.type == PJRT_NamedValue_kString) {
      return std::string(option.string_value, option.value_size);
    }
  }
  return "";
}

// Why the plugin gave no device: its manifest's reason, or that none was
// found.
std::string NoDeviceReason(phal_client_t* client, const std::string& plugin) {
  size_t count = 0;
  phal_status_free(phal_client_get_plugin_count(client, &count));
  for (size_t i = 0; i < count; ++i) {
    phal_plugin_info_t info{};
    info.struct_size = sizeof(info);
    if (phal_status_t* status = phal_client_get_plugin_info(client, i, &info)) {
      phal_status_free(status);
      continue;
    }
    if (plugin == info.name) {
      return std::string("the Polyhal plugin '") + plugin +
             "' has no device: " +
             (info.reason[0] != '\0' ? info.reason : "none was found");
    }
  }
  return "no Polyhal plugin called '" + plugin +
         "' was found on the plugin path (PHAL_PLUGIN_PATH); set "
         "POLYHAL_PJRT_PLUGIN to one of `polyhal plugins`";
}

PJRT_Error* OpenDevices(PJRT_Client* client) {
  size_t count = 0;
  if (PJRT_Error* error =
          FromStatus(phal_client_get_device_count(client->client, &count))) {
    return error;
  }
  for (size_t i = 0; i < count; ++i) {
    auto device = std::make_unique<PJRT_Device>();
    if (PJRT_Error* error = FromStatus(
            phal_client_get_device(client->client, i, &device->device))) {
      return error;
    }
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    if (PJRT_Error* error = FromStatus(
            phal_device_get_properties(device->device, &properties))) {
      return error;
    }
    const int id = static_cast<int>(i);
    device->local_hardware_id = id;
    device->memory_bytes = properties.memory_bytes;
    PJRT_DeviceDescription& d = device->description;
    d.id = id;
    d.kind = "polyhal:" + client->plugin;
    d.to_string = "PolyhalDevice(id=" + std::to_string(id) +
                  ", plugin=" + client->plugin + ")";
    d.debug_string = d.to_string + " " + properties.name;
    device->memory.id = id;
    device->memory.debug_string =
        "PolyhalMemory(id=" + std::to_string(id) + ", kind=device)";
    device->memory.devices = {device.get()};
    device->memories = {&device->memory};
    client->devices.push_back(device.get());
    client->memories.push_back(&device->memory);
    client->owned_devices.push_back(std::move(device));
  }
  if (client->devices.empty()) {
    return MakeError(PJRT_Error_Code_NOT_FOUND,
                     NoDeviceReason(client->client, client->plugin));
  }
  return nullptr;
}

PJRT_Error* SetString(const std::string& value, const char** out,
                      size_t* out_size) {
  *out = value.c_str();
  *out_size = value.size();
  return nullptr;
}

}  // namespace

PJRT_Error* Client_Create(PJRT_Client_Create_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_Create_Args, args);
  auto client = std::make_unique<PJRT_Client>();
  client->plugin =
      OptionString(args->create_options, args->num_options, "plugin");
  if (client->plugin.empty()) {
    const char* env = std::getenv("POLYHAL_PJRT_PLUGIN");
    client->plugin = env != nullptr && env[0] != '\0' ? env : "cpu";
  }
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  options.plugin_filter = client->plugin.c_str();
  if (PJRT_Error* error =
          FromStatus(phal_client_create(&options, &client->client))) {
    return error;
  }
  client->platform_version =
      std::string("polyhal ") + phal_get_version_string();
  if (PJRT_Error* error = OpenDevices(client.get())) return error;
  args->client = client.release();
  return nullptr;
}

PJRT_Error* Client_Destroy(PJRT_Client_Destroy_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_Destroy_Args, args);
  if (args->client != nullptr) args->client->Release();
  return nullptr;
}

PJRT_Error* Client_PlatformName(PJRT_Client_PlatformName_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_PlatformName_Args, args);
  static const std::string kName = "polyhal";
  return SetString(kName, &args->platform_name, &args->platform_name_size);
}

PJRT_Error* Client_ProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_ProcessIndex_Args, args);
  args->process_index = 0;
  return nullptr;
}

PJRT_Error* Client_PlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_PlatformVersion_Args, args);
  return SetString(args->client->platform_version, &args->platform_version,
                   &args->platform_version_size);
}

PJRT_Error* Client_Devices(PJRT_Client_Devices_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_Devices_Args, args);
  args->devices = args->client->devices.data();
  args->num_devices = args->client->devices.size();
  return nullptr;
}

PJRT_Error* Client_AddressableDevices(
    PJRT_Client_AddressableDevices_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_AddressableDevices_Args, args);
  args->addressable_devices = args->client->devices.data();
  args->num_addressable_devices = args->client->devices.size();
  return nullptr;
}

PJRT_Error* Client_LookupDevice(PJRT_Client_LookupDevice_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_LookupDevice_Args, args);
  const auto& devices = args->client->devices;
  if (args->id < 0 || static_cast<size_t>(args->id) >= devices.size()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "no device with id " + std::to_string(args->id) +
                         " (Polyhal's plugin '" + args->client->plugin +
                         "' has " + std::to_string(devices.size()) + ")");
  }
  args->device = devices[static_cast<size_t>(args->id)];
  return nullptr;
}

PJRT_Error* Client_LookupAddressableDevice(
    PJRT_Client_LookupAddressableDevice_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_LookupAddressableDevice_Args, args);
  for (PJRT_Device* device : args->client->devices) {
    if (device->local_hardware_id == args->local_hardware_id) {
      args->addressable_device = device;
      return nullptr;
    }
  }
  return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                   "no addressable device with local hardware id " +
                       std::to_string(args->local_hardware_id));
}

PJRT_Error* Client_AddressableMemories(
    PJRT_Client_AddressableMemories_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_AddressableMemories_Args, args);
  args->addressable_memories = args->client->memories.data();
  args->num_addressable_memories = args->client->memories.size();
  return nullptr;
}

PJRT_Error* Client_DefaultDeviceAssignment(
    PJRT_Client_DefaultDeviceAssignment_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_DefaultDeviceAssignment_Args, args);
  const int64_t needed =
      static_cast<int64_t>(args->num_replicas) * args->num_partitions;
  const int64_t available = static_cast<int64_t>(args->client->devices.size());
  if (needed <= 0 || needed > available) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     std::to_string(args->num_replicas) + " replicas x " +
                         std::to_string(args->num_partitions) +
                         " partitions need " + std::to_string(needed) +
                         " devices; Polyhal's plugin '" + args->client->plugin +
                         "' has " + std::to_string(available));
  }
  if (args->default_assignment_size < static_cast<size_t>(needed)) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "default_assignment holds " +
                         std::to_string(args->default_assignment_size) +
                         " entries; " + std::to_string(needed) + " are needed");
  }
  for (int64_t k = 0; k < needed; ++k) {
    args->default_assignment[k] = static_cast<int>(k);
  }
  return nullptr;
}

PJRT_Error* DeviceDescription_Id(PJRT_DeviceDescription_Id_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_Id_Args, args);
  args->id = args->device_description->id;
  return nullptr;
}

PJRT_Error* DeviceDescription_ProcessIndex(
    PJRT_DeviceDescription_ProcessIndex_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_ProcessIndex_Args, args);
  args->process_index = args->device_description->process_index;
  return nullptr;
}

PJRT_Error* DeviceDescription_Attributes(
    PJRT_DeviceDescription_Attributes_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_Attributes_Args, args);
  args->num_attributes = 0;
  args->attributes = nullptr;
  return nullptr;
}

PJRT_Error* DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_Kind_Args, args);
  return SetString(args->device_description->kind, &args->device_kind,
                   &args->device_kind_size);
}

PJRT_Error* DeviceDescription_DebugString(
    PJRT_DeviceDescription_DebugString_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_DebugString_Args, args);
  return SetString(args->device_description->debug_string, &args->debug_string,
                   &args->debug_string_size);
}

PJRT_Error* DeviceDescription_ToString(
    PJRT_DeviceDescription_ToString_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_DeviceDescription_ToString_Args, args);
  return SetString(args->device_description->to_string, &args->to_string,
                   &args->to_string_size);
}

PJRT_Error* Device_GetDescription(PJRT_Device_GetDescription_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_GetDescription_Args, args);
  args->device_description = &args->device->description;
  return nullptr;
}

PJRT_Error* Device_IsAddressable(PJRT_Device_IsAddressable_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_IsAddressable_Args, args);
  args->is_addressable = true;
  return nullptr;
}

PJRT_Error* Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_LocalHardwareId_Args, args);
  args->local_hardware_id = args->device->local_hardware_id;
  return nullptr;
}

PJRT_Error* Device_AddressableMemories(
    PJRT_Device_AddressableMemories_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_AddressableMemories_Args, args);
  args->memories = args->device->memories.data();
  args->num_memories = args->device->memories.size();
  return nullptr;
}

PJRT_Error* Device_DefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_DefaultMemory_Args, args);
  args->memory = &args->device->memory;
  return nullptr;
}

PJRT_Error* Device_MemoryStats(PJRT_Device_MemoryStats_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Device_MemoryStats_Args, args);
  PJRT_Device* device = args->device;
  std::lock_guard<std::mutex> lock(device->stats_mutex);
  args->bytes_in_use = device->bytes_in_use;
  args->peak_bytes_in_use = device->peak_bytes_in_use;
  args->peak_bytes_in_use_is_set = true;
  args->num_allocs = device->num_allocs;
  args->num_allocs_is_set = true;
  args->largest_alloc_size = device->largest_alloc_size;
  args->largest_alloc_size_is_set = true;
  args->bytes_limit = static_cast<int64_t>(device->memory_bytes);
  args->bytes_limit_is_set = device->memory_bytes > 0;
  args->bytes_reserved_is_set = false;
  args->peak_bytes_reserved_is_set = false;
  args->bytes_reservable_limit_is_set = false;
  args->largest_free_block_bytes_is_set = false;
  args->pool_bytes_is_set = false;
  args->peak_pool_bytes_is_set = false;
  return nullptr;
}

PJRT_Error* Memory_Id(PJRT_Memory_Id_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_Id_Args, args);
  args->id = args->memory->id;
  return nullptr;
}

PJRT_Error* Memory_Kind(PJRT_Memory_Kind_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_Kind_Args, args);
  return SetString(args->memory->kind, &args->kind, &args->kind_size);
}

PJRT_Error* Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_Kind_Id_Args, args);
  args->kind_id = 0;
  return nullptr;
}

PJRT_Error* Memory_DebugString(PJRT_Memory_DebugString_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_DebugString_Args, args);
  return SetString(args->memory->debug_string, &args->debug_string,
                   &args->debug_string_size);
}

PJRT_Error* Memory_ToString(PJRT_Memory_ToString_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_ToString_Args, args);
  return SetString(args->memory->debug_string, &args->to_string,
                   &args->to_string_size);
}

PJRT_Error* Memory_AddressableByDevices(
    PJRT_Memory_AddressableByDevices_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Memory_AddressableByDevices_Args, args);
  args->devices = args->memory->devices.data();
  args->num_devices = args->memory->devices.size();
  return nullptr;
}

}  // namespace phal::pjrt
