// `polyhal devices [--json]`: every device of every loaded plugin.
#include <cinttypes>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "polyhal/polyhal.hpp"

namespace phal::cli {
namespace {

struct DeviceDescription {
  std::string plugin;
  phal_device_properties_t properties{};
  std::vector<phal_memory_space_info_t> memory_spaces;
};

std::string ElementTypes(uint64_t mask) {
  std::string names;
  for (int type = PHAL_ELEMENT_TYPE_PRED; type < PHAL_ELEMENT_TYPE_COUNT;
       ++type) {
    if ((mask & PHAL_ELEMENT_TYPE_BIT(type)) == 0) continue;
    if (!names.empty()) names += " ";
    names += phal_element_type_name(static_cast<phal_element_type_t>(type));
  }
  return names;
}

std::string Uuid(const uint8_t (&bytes)[16]) {
  char text[37];
  std::snprintf(text, sizeof(text),
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                "%02x%02x%02x%02x%02x%02x",
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5],
                bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

std::vector<DeviceDescription> DescribeDevices(const Client& client) {
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  std::vector<DeviceDescription> devices;
  for (const Device& device : client.Devices()) {
    DeviceDescription description;
    Result<phal_device_properties_t> properties = device.Properties();
    if (properties.ok()) description.properties = *properties;
    size_t plugin_index = 0;
    Error(phal_device_get_plugin_index(device.get(), &plugin_index));
    if (plugin_index < plugins.size()) {
      description.plugin = plugins[plugin_index].name;
    }
    for (uint32_t s = 0; s < description.properties.memory_space_count; ++s) {
      phal_memory_space_info_t space{};
      space.struct_size = sizeof(space);
      if (Error(phal_device_get_memory_space(device.get(), s, &space)).ok()) {
        description.memory_spaces.push_back(space);
      }
    }
    devices.push_back(description);
  }
  return devices;
}

void PrintJson(const std::vector<DeviceDescription>& devices) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const DeviceDescription& device : devices) {
    const phal_device_properties_t& p = device.properties;
    nlohmann::ordered_json entry;
    entry["plugin"] = device.plugin;
    entry["ordinal"] = p.ordinal;
    entry["name"] = p.name;
    entry["vendor"] = p.vendor;
    entry["kind"] = DeviceKindName(p.kind);
    entry["driver_version"] = p.driver_version;
    entry["compute_units"] = p.compute_units;
    entry["memory_bytes"] = p.memory_bytes;
    entry["max_allocation_bytes"] = p.max_allocation_bytes;
    entry["min_alignment"] = p.min_alignment;
    entry["uuid"] = Uuid(p.uuid);
    entry["features"] = p.features;
    entry["element_types"] = ElementTypes(p.element_types);
    entry["async_streams"] = (p.flags & PHAL_DEVICE_FLAG_ASYNC_STREAMS) != 0;
    entry["host_addressable"] =
        (p.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE) != 0;
    nlohmann::ordered_json spaces = nlohmann::ordered_json::array();
    for (const phal_memory_space_info_t& space : device.memory_spaces) {
      spaces.push_back({{"name", space.name},
                        {"kind", MemoryKindName(space.kind)},
                        {"capacity_bytes", space.capacity_bytes}});
    }
    entry["memory_spaces"] = spaces;
    list.push_back(entry);
  }
  nlohmann::ordered_json document;
  document["devices"] = list;
  std::printf("%s\n", document.dump(2).c_str());
}

void PrintText(const std::vector<DeviceDescription>& devices) {
  if (devices.empty()) {
    std::printf("no devices (run 'polyhal plugins' to see why)\n");
    return;
  }
  for (size_t i = 0; i < devices.size(); ++i) {
    const phal_device_properties_t& p = devices[i].properties;
    std::printf("[%zu] %s:%u  %s (%s)\n", i, devices[i].plugin.c_str(),
                p.ordinal, p.name, DeviceKindName(p.kind));
    std::printf("    vendor:        %s\n", p.vendor);
    std::printf("    driver:        %s\n", p.driver_version);
    std::printf("    compute units: %u\n", p.compute_units);
    std::printf("    memory:        %.1f GiB (largest buffer %.1f GiB)\n",
                static_cast<double>(p.memory_bytes) / (1 << 30),
                static_cast<double>(p.max_allocation_bytes) / (1 << 30));
    std::printf("    alignment:     %" PRIu64 " bytes\n", p.min_alignment);
    std::printf("    uuid:          %s\n", Uuid(p.uuid).c_str());
    std::printf("    element types: %s\n",
                ElementTypes(p.element_types).c_str());
    std::printf("    features:      %s\n", p.features);
  }
}

}  // namespace

int RunDevices(const Arguments& arguments) {
  ArgumentReader reader("devices", arguments);
  bool json = reader.Flag("--json");
  if (!reader.Done()) return kExitUsage;
  Result<Client> client = OpenClient();
  if (!client.ok()) return kExitFailure;
  std::vector<DeviceDescription> devices = DescribeDevices(*client);
  if (json) {
    PrintJson(devices);
  } else {
    PrintText(devices);
  }
  return kExitSuccess;
}

}  // namespace phal::cli
