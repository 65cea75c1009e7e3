#include "conformance/runner/target.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "polyhal/polyhal.hpp"

namespace phal::conformance {
namespace {

std::string TakeMessage(phal_status_t* status) {
  std::string message =
      std::string(phal_status_code_name(phal_status_get_code(status))) + ": " +
      phal_status_get_message(status);
  phal_status_free(status);
  return message;
}

// "cpu" for libphal_plugin_cpu.so: the library's stem without the usual
// prefixes.
std::string PluginNameOf(const std::filesystem::path& library) {
  std::string name = library.stem().string();
  for (const char* prefix : {"lib", "phal_plugin_"}) {
    if (name.rfind(prefix, 0) == 0 && name.size() > std::strlen(prefix)) {
      name = name.substr(std::strlen(prefix));
    }
  }
  return name;
}

// True on success; a failure's status is freed.
bool Succeeded(phal_status_t* status) {
  if (status == nullptr) return true;
  phal_status_free(status);
  return false;
}

bool IsPath(const std::string& plugin) {
  return plugin.find('/') != std::string::npos || plugin.ends_with(".json") ||
         plugin.ends_with(".so");
}

nlohmann::json ElementTypeNames(uint64_t mask) {
  nlohmann::json names = nlohmann::json::array();
  for (int type = 1; type < PHAL_ELEMENT_TYPE_COUNT; ++type) {
    if ((mask & PHAL_ELEMENT_TYPE_BIT(type)) != 0) {
      names.push_back(
          phal_element_type_name(static_cast<phal_element_type_t>(type)));
    }
  }
  return names;
}

nlohmann::json DescribeDevice(phal_device_t* device) {
  phal_device_properties_t p{};
  p.struct_size = sizeof(p);
  phal_status_t* status = phal_device_get_properties(device, &p);
  if (status != nullptr) return {{"error", TakeMessage(status)}};
  return {{"name", p.name},
          {"vendor", p.vendor},
          {"driver_version", p.driver_version},
          {"kind", DeviceKindName(p.kind)},
          {"ordinal", p.ordinal},
          {"compute_units", p.compute_units},
          {"memory_bytes", p.memory_bytes},
          {"max_allocation_bytes", p.max_allocation_bytes},
          {"min_alignment", p.min_alignment},
          {"element_types", ElementTypeNames(p.element_types)},
          {"element_type_mask", p.element_types},
          {"kernel_kinds_mask", p.kernel_kinds},
          {"features", p.features}};
}

nlohmann::json DescribePlugin(const phal_plugin_info_t& info) {
  return {{"name", info.name},
          {"description", info.description},
          {"version", info.version},
          {"manifest_path", info.manifest_path},
          {"library_path", info.library_path},
          {"abi_version",
           std::to_string(PHAL_VERSION_MAJOR(info.abi_version)) + "." +
               std::to_string(PHAL_VERSION_MINOR(info.abi_version))}};
}

}  // namespace

StatusOr<PluginLocation> LocatePlugin(const std::string& plugin,
                                      const std::string& scratch_dir) {
  if (plugin.empty()) return InvalidArgument("no plugin given");
  if (!IsPath(plugin)) return PluginLocation{"", plugin, plugin};
  std::error_code error;
  const std::filesystem::path path = std::filesystem::absolute(plugin, error);
  if (error || !std::filesystem::exists(path)) {
    return NotFound(plugin + ": no such file or directory");
  }
  if (!plugin.ends_with(".so")) {
    return PluginLocation{path.string(), "", plugin};
  }
  std::filesystem::create_directories(scratch_dir, error);
  const std::filesystem::path manifest =
      std::filesystem::path(scratch_dir) / "plugin-under-test.json";
  std::ofstream out(manifest);
  out << nlohmann::json{{"file_format_version", "1.0"},
                        {"plugin",
                         {{"name", PluginNameOf(path)},
                          {"library_path", path.string()},
                          {"abi_version", std::to_string(PHAL_VERSION_MAJOR(
                                              phal_get_abi_version())) +
                                              "." +
                                              std::to_string(PHAL_VERSION_MINOR(
                                                  phal_get_abi_version()))}}}}
             .dump(2);
  if (!out) return Internal("cannot write " + manifest.string());
  return PluginLocation{manifest.string(), "", plugin};
}

phal_client_options_t Target::ClientOptions() const {
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  if (!location_.plugin_path.empty()) {
    options.plugin_path = location_.plugin_path.c_str();
  }
  if (!location_.plugin_filter.empty()) {
    options.plugin_filter = location_.plugin_filter.c_str();
  }
  return options;
}

StatusOr<std::unique_ptr<Target>> Target::Open(const PluginLocation& where) {
  std::unique_ptr<Target> target(new Target);
  target->location_ = where;
  const phal_client_options_t options = target->ClientOptions();
  phal_status_t* status = phal_client_create(&options, &target->client_);
  if (status != nullptr) return Internal(TakeMessage(status));
  size_t plugin_count = 0;
  if (!Succeeded(
          phal_client_get_plugin_count(target->client_, &plugin_count))) {
    return Internal("cannot count the client's plugins");
  }
  std::string reasons;
  std::vector<size_t> loaded;
  nlohmann::json plugins = nlohmann::json::array();
  for (size_t i = 0; i < plugin_count; ++i) {
    phal_plugin_info_t info{};
    info.struct_size = sizeof(info);
    if (!Succeeded(phal_client_get_plugin_info(target->client_, i, &info))) {
      continue;
    }
    if (info.state == PHAL_PLUGIN_STATE_LOADED && info.device_count > 0) {
      loaded.push_back(i);
      plugins.push_back(DescribePlugin(info));
    } else if (std::string(info.reason).rfind("not selected by", 0) != 0) {
      reasons += std::string("\n  ") + info.name + ": " +
                 (info.reason[0] != 0 ? info.reason : "no device");
    }
  }
  if (loaded.empty()) {
    return NotFound(
        "plugin '" + where.display_name + "' has no usable device" +
        (reasons.empty()
             ? std::string(": no such plugin was found; run 'polyhal "
                           "plugins' to see which were and why")
             : reasons));
  }
  if (loaded.size() > 1) {
    return InvalidArgument("'" + where.display_name + "' reaches " +
                           std::to_string(loaded.size()) +
                           " plugins; name one manifest or plugin");
  }
  size_t device_count = 0;
  if (!Succeeded(
          phal_client_get_device_count(target->client_, &device_count))) {
    return Internal("cannot count the client's devices");
  }
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < device_count; ++i) {
    phal_device_t* device = nullptr;
    size_t plugin_index = 0;
    if (!Succeeded(phal_client_get_device(target->client_, i, &device)) ||
        !Succeeded(phal_device_get_plugin_index(device, &plugin_index)) ||
        plugin_index != loaded[0]) {
      continue;
    }
    target->devices_.push_back(device);
    devices.push_back(DescribeDevice(device));
  }
  target->description_ = {{"plugin", plugins[0]}, {"devices", devices}};
  return target;
}

Target::~Target() { phal_client_destroy(client_); }

uint64_t DeviceElementTypes(const nlohmann::json& description, int index) {
  const nlohmann::json& devices = description.at("devices");
  if (index < 0 || static_cast<size_t>(index) >= devices.size()) return 0;
  return devices[static_cast<size_t>(index)].value("element_type_mask",
                                                   uint64_t{0});
}

}  // namespace phal::conformance
