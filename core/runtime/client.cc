// phal_client_* and the plugin, device and target listing functions.
#include "core/runtime/client.h"

#include <algorithm>
#include <cstddef>

#include "core/loader/host_services.h"
#include "core/runtime/api_guard.h"
#include "sdk/base/extensible_struct.h"

namespace phal {
namespace {

std::string OptionOrEnv(const phal_client_options_t* options,
                        const char* phal_client_options_t::*member,
                        const char* variable) {
  if (options != nullptr && options->*member != nullptr) {
    return options->*member;
  }
  return GetEnv(variable);
}

// Opens every device of one loaded plugin; a plugin whose devices fail to
// open keeps its other devices and records the reason.
void OpenPluginDevices(phal_client* client, size_t plugin_index) {
  const PluginRecord& record = client->plugins[plugin_index];
  const phal_plugin_api_t* api = client->plugin_apis[plugin_index];
  size_t count = 0;
  const char* reason = nullptr;
  Status status = TakeCStatus(api->device_count(&count, &reason));
  std::string& why = client->plugin_device_reasons[plugin_index];
  if (!status.ok()) {
    why = "device_count failed: " + status.ToString();
    client->logger.Warning("plugin " + record.manifest.name + ": " + why);
    return;
  }
  if (count == 0 && reason != nullptr) why = reason;
  for (size_t ordinal = 0; ordinal < count; ++ordinal) {
    StatusOr<phal_device*> device =
        OpenDevice(client, plugin_index, record.manifest.name, api, ordinal);
    if (!device.ok()) {
      why = "device " + std::to_string(ordinal) +
            " failed to open: " + device.status().message();
      client->logger.Warning("plugin " + record.manifest.name + ": " + why);
      continue;
    }
    client->devices.emplace_back(*device);
    ++client->plugin_device_counts[plugin_index];
  }
}

// Copies the names of the targets a loaded plugin compiles for.
void ListPluginTargets(phal_client* client, size_t plugin_index) {
  const PluginRecord& record = client->plugins[plugin_index];
  const char* const* names = nullptr;
  size_t count = 0;
  Status status = TakeCStatus(
      client->plugin_apis[plugin_index]->target_get_names(&names, &count));
  if (!status.ok()) {
    client->logger.Warning("plugin " + record.manifest.name +
                           ": target_get_names failed: " + status.ToString());
    return;
  }
  std::vector<std::string>& targets = client->plugin_targets[plugin_index];
  for (size_t i = 0; i < count && names != nullptr; ++i) {
    if (names[i] != nullptr && names[i][0] != '\0') targets.push_back(names[i]);
  }
  for (const std::string& target : targets) {
    client->plugin_target_names[plugin_index].push_back(target.c_str());
  }
}

// "a, b, c", or "none" for an empty list.
std::string JoinTargets(const std::vector<std::string>& targets) {
  if (targets.empty()) return "none";
  std::string joined;
  for (const std::string& target : targets) {
    if (!joined.empty()) joined += ", ";
    joined += target;
  }
  return joined;
}

Status OpenClientTargetDevice(phal_client* client, const char* plugin_name,
                              const char* target, phal_device_t** out_device) {
  if (client == nullptr) return NullArgument("client");
  if (plugin_name == nullptr) return NullArgument("plugin_name");
  if (out_device == nullptr) return NullArgument("out_device");
  size_t index = 0;
  while (index < client->plugins.size() &&
         (client->plugins[index].manifest.name != plugin_name ||
          client->plugins[index].state != PHAL_PLUGIN_STATE_LOADED)) {
    ++index;
  }
  if (index == client->plugins.size()) {
    return NotFound("no loaded plugin is named '" + std::string(plugin_name) +
                    "' (polyhal plugins lists them)");
  }
  const std::vector<std::string>& targets = client->plugin_targets[index];
  std::string name = target != nullptr ? target : "";
  if (name.empty() && !targets.empty()) name = targets.front();
  if (!targets.empty() &&
      std::find(targets.begin(), targets.end(), name) == targets.end()) {
    return NotFound("plugin '" + std::string(plugin_name) +
                    "' does not compile for target '" + name +
                    "'; its targets: " + JoinTargets(targets));
  }
  std::lock_guard<std::mutex> lock(client->target_devices_mutex);
  for (const std::unique_ptr<phal_device>& device : client->target_devices) {
    if (device->plugin_index == index && device->target == name) {
      *out_device = device.get();
      return OkStatus();
    }
  }
  PHAL_ASSIGN_OR_RETURN(phal_device * device,
                        OpenTargetDevice(client, index, plugin_name,
                                         client->plugin_apis[index], name));
  client->target_devices.emplace_back(device);
  *out_device = device;
  return OkStatus();
}

// Chooses the table the client calls for each loaded plugin: the plugin's
// own, or with PHAL_VALIDATION=1 a validation layer in front of it.
Status ChoosePluginTables(phal_client* client) {
  const bool validate = ValidationRequested();
  client->plugin_apis.assign(client->plugins.size(), nullptr);
  client->validation_layers.resize(client->plugins.size());
  for (size_t i = 0; i < client->plugins.size(); ++i) {
    const PluginRecord& record = client->plugins[i];
    if (record.state != PHAL_PLUGIN_STATE_LOADED) continue;
    client->plugin_apis[i] = &record.library->api();
    if (!validate) continue;
    PHAL_ASSIGN_OR_RETURN(
        client->validation_layers[i],
        ValidationLayer::Create(record.library->api(), record.manifest.name,
                                client->logger));
    client->plugin_apis[i] = &client->validation_layers[i]->table();
    client->logger.Debug("plugin " + record.manifest.name +
                         ": calls checked by the validation layer");
  }
  return OkStatus();
}

// Lists what each validated plugin still holds and how many breaches its
// layer saw, then removes the layers.
void CloseValidationLayers(phal_client* client) {
  for (size_t i = 0; i < client->validation_layers.size(); ++i) {
    std::unique_ptr<ValidationLayer>& layer = client->validation_layers[i];
    if (layer == nullptr) continue;
    layer->checks().ReportLeaks("phal_client_destroy");
    size_t breaches = layer->checks().violation_count();
    if (breaches > 0) {
      client->logger.Log(
          PHAL_LOG_LEVEL_ERROR,
          "validation layer, plugin '" + client->plugins[i].manifest.name +
              "': " + std::to_string(breaches) +
              " breaches of the ABI contract in this client (each logged "
              "above)");
    }
    layer.reset();
  }
}

void DestroyClient(phal_client* client);

Status CreateClient(const phal_client_options_t* options,
                    phal_client_t** out_client) {
  if (out_client == nullptr) return NullArgument("out_client");
  if (options != nullptr &&
      options->struct_size < PHAL_STRUCT_SIZE(phal_client_options_t, next)) {
    return InvalidArgument(
        "options->struct_size is too small; set it to "
        "sizeof(phal_client_options_t)");
  }
  // Members beyond the caller's struct_size read as absent.
  phal_client_options_t effective{};
  if (options != nullptr) {
    std::memcpy(&effective, options,
                std::min<size_t>(options->struct_size, sizeof(effective)));
  }
  Logger logger(effective.log_callback, effective.log_user_data);
  auto client = std::make_unique<phal_client>(logger);
  std::string path =
      OptionOrEnv(options ? &effective : nullptr,
                  &phal_client_options_t::plugin_path, "PHAL_PLUGIN_PATH");
  std::string filter =
      OptionOrEnv(options ? &effective : nullptr,
                  &phal_client_options_t::plugin_filter, "PHAL_PLUGINS");
  SearchPath search = MakeSearchPath(path);
  client->plugins = DiscoverPlugins(search, filter, client->logger);
  client->plugin_device_counts.assign(client->plugins.size(), 0);
  client->plugin_device_reasons.assign(client->plugins.size(), "");
  client->plugin_targets.resize(client->plugins.size());
  client->plugin_target_names.resize(client->plugins.size());
  PHAL_RETURN_IF_ERROR(ChoosePluginTables(client.get()));
  RegisterPluginLogSink(&client->logger);
  for (size_t i = 0; i < client->plugins.size(); ++i) {
    if (client->plugins[i].state == PHAL_PLUGIN_STATE_LOADED) {
      OpenPluginDevices(client.get(), i);
      ListPluginTargets(client.get(), i);
    }
  }
  if (Status joined = JoinJob(client.get(), effective.transport);
      !joined.ok()) {
    DestroyClient(client.release());
    return joined;
  }
  *out_client = client.release();
  return OkStatus();
}

template <typename T>
void ReclaimLeaks(phal_client* client, std::set<T*>& objects, const char* kind,
                  void (*destroy)(T*)) {
  if (objects.empty()) return;
  client->logger.Warning(std::to_string(objects.size()) + " " + kind +
                         " not freed before phal_client_destroy; freeing "
                         "them now");
  for (T* object : objects) destroy(object);
  objects.clear();
}

void DestroyClient(phal_client* client) {
  {
    std::lock_guard<std::mutex> lock(client->objects_mutex);
    ReclaimLeaks(client, client->streams, "stream(s)", &DestroyStream);
    ReclaimLeaks(client, client->events, "event(s)", &DestroyEvent);
    ReclaimLeaks(client, client->buffers, "buffer(s)", &DestroyBuffer);
  }
  for (auto& device : client->devices) device->Close();
  client->devices.clear();
  for (auto& device : client->target_devices) device->Close();
  client->target_devices.clear();
  CloseValidationLayers(client);
  UnregisterPluginLogSink(&client->logger);
  delete client;
}

}  // namespace
}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_client_create(const phal_client_options_t* options,
                                           phal_client_t** out_client) {
  return phal::GuardedCall(
      [&] { return phal::CreateClient(options, out_client); });
}

PHAL_API void phal_client_destroy(phal_client_t* client) {
  if (client == nullptr) return;
  try {
    phal::DestroyClient(client);
  } catch (...) {
    // Destruction frees memory only; nothing is left to report to.
  }
}

PHAL_API phal_status_t* phal_client_get_plugin_count(
    const phal_client_t* client, size_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    *out_count = client->plugins.size();
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_get_plugin_info(const phal_client_t* client,
                                                    size_t index,
                                                    phal_plugin_info_t* out) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (index >= client->plugins.size()) {
      return phal::OutOfRange("plugin index " + std::to_string(index) +
                              " is not below the plugin count " +
                              std::to_string(client->plugins.size()));
    }
    const phal::PluginRecord& record = client->plugins[index];
    const std::string& device_reason = client->plugin_device_reasons[index];
    phal_plugin_info_t info{};
    info.name = record.manifest.name.c_str();
    info.description = record.manifest.description.c_str();
    info.version = record.manifest.version.c_str();
    info.manifest_path = record.manifest.manifest_path.c_str();
    info.library_path = record.manifest.library_path.c_str();
    info.state = record.state;
    info.abi_version = record.library ? record.library->abi_version() : 0;
    info.device_count = client->plugin_device_counts[index];
    info.reason = record.state == PHAL_PLUGIN_STATE_SKIPPED
                      ? record.reason.c_str()
                      : device_reason.c_str();
    return phal::CopyFittingMembers(info, out);
  });
}

PHAL_API phal_status_t* phal_client_get_device_count(
    const phal_client_t* client, size_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    *out_count = client->devices.size();
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_get_device(const phal_client_t* client,
                                               size_t index,
                                               phal_device_t** out_device) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_device == nullptr) return phal::NullArgument("out_device");
    if (index >= client->devices.size()) {
      return phal::OutOfRange("device index " + std::to_string(index) +
                              " is not below the device count " +
                              std::to_string(client->devices.size()));
    }
    *out_device = client->devices[index].get();
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_get_plugin_targets(
    const phal_client_t* client, size_t plugin_index,
    const char* const** out_names, size_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_names == nullptr) return phal::NullArgument("out_names");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    if (plugin_index >= client->plugins.size()) {
      return phal::OutOfRange("plugin index " + std::to_string(plugin_index) +
                              " is not below the plugin count " +
                              std::to_string(client->plugins.size()));
    }
    const phal::PluginRecord& record = client->plugins[plugin_index];
    if (record.state != PHAL_PLUGIN_STATE_LOADED) {
      return phal::FailedPrecondition("plugin '" + record.manifest.name +
                                      "' was skipped: " + record.reason);
    }
    const std::vector<const char*>& names =
        client->plugin_target_names[plugin_index];
    *out_names = names.empty() ? nullptr : names.data();
    *out_count = names.size();
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_open_target_device(
    phal_client_t* client, const char* plugin_name, const char* target,
    phal_device_t** out_device) {
  return phal::GuardedCall([&] {
    return phal::OpenClientTargetDevice(client, plugin_name, target,
                                        out_device);
  });
}

}  // extern "C"
