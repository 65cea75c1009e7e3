#include "cli/stress/devices.h"

#include <algorithm>

#include "cli/plugin_program.h"

namespace phal::cli::stress {

StatusOr<std::vector<StressDevice>> ChooseDevices(
    const Client& client, const StressOptions& options) {
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  std::vector<StressDevice> devices;
  for (const Device& device : client.Devices()) {
    size_t index = 0;
    PHAL_RETURN_IF_ERROR(StatusFromError(
        Error(phal_device_get_plugin_index(device.get(), &index))));
    const std::string plugin =
        index < plugins.size() ? plugins[index].name : "";
    if (!options.plugins.empty() &&
        std::find(options.plugins.begin(), options.plugins.end(), plugin) ==
            options.plugins.end()) {
      continue;
    }
    Result<phal_device_properties_t> properties = device.Properties();
    PHAL_RETURN_IF_ERROR(StatusFromError(properties.error()));
    devices.push_back({device, plugin + " '" + properties->name + "'",
                       properties->element_types});
  }
  for (const std::string& plugin : options.plugins) {
    bool found = false;
    for (const StressDevice& device : devices) {
      found = found || device.label.rfind(plugin + " '", 0) == 0;
    }
    // The error says why the plugin has no device.
    if (!found) PHAL_RETURN_IF_ERROR(FindPluginDevice(client, plugin).status());
  }
  if (devices.empty()) {
    return NotFound(
        "no plugin has a device to run on; 'polyhal plugins' says why");
  }
  return devices;
}

}  // namespace phal::cli::stress
