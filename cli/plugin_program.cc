#include "cli/plugin_program.h"

namespace phal::cli {

Status StatusFromError(const Error& error) {
  return error.ok() ? OkStatus() : Status(error.code(), error.message());
}

StatusOr<Device> FindPluginDevice(const Client& client,
                                  const std::string& name) {
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  for (const Device& device : client.Devices()) {
    size_t index = 0;
    PHAL_RETURN_IF_ERROR(StatusFromError(
        Error(phal_device_get_plugin_index(device.get(), &index))));
    if (index < plugins.size() && name == plugins[index].name) return device;
  }
  for (const phal_plugin_info_t& plugin : plugins) {
    if (name != plugin.name) continue;
    return NotFound(
        "plugin '" + name + "' has no device" +
        (plugin.reason[0] ? std::string(": ") + plugin.reason : std::string()));
  }
  return NotFound("no plugin named '" + name +
                  "' was found; run 'polyhal plugins' to see which were and "
                  "why others were skipped, or use --plugin reference");
}

StatusOr<std::vector<Device>> FindPluginDevices(const Client& client,
                                                const std::string& name,
                                                int64_t count) {
  // The first device's lookup explains a plugin with none.
  PHAL_RETURN_IF_ERROR(FindPluginDevice(client, name).status());
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  std::vector<Device> devices;
  for (const Device& device : client.Devices()) {
    size_t index = 0;
    PHAL_RETURN_IF_ERROR(StatusFromError(
        Error(phal_device_get_plugin_index(device.get(), &index))));
    if (index < plugins.size() && name == plugins[index].name &&
        static_cast<int64_t>(devices.size()) < count) {
      devices.push_back(device);
    }
  }
  if (static_cast<int64_t>(devices.size()) < count) {
    return NotFound("plugin '" + name + "' has " +
                    std::to_string(devices.size()) + " device" +
                    (devices.size() == 1 ? "" : "s") + ", --devices asks for " +
                    std::to_string(count) +
                    "; plugins that can offer more devices than the hardware "
                    "has (cpu, template, asic-ref, the emulated GPUs) do with "
                    "PHAL_VIRTUAL_DEVICES=" +
                    std::to_string(count));
  }
  return devices;
}

StatusOr<PluginProgram> PluginProgram::Make(const Device& device,
                                            Result<Executable> executable) {
  PHAL_RETURN_IF_ERROR(StatusFromError(executable.error()));
  return PluginProgram(device, std::move(executable.value()));
}

StatusOr<PluginProgram> PluginProgram::Compile(const Device& device,
                                               std::string_view text,
                                               phal_program_format_t format,
                                               const std::string& source_name) {
  return Make(device, Executable::Compile(device, text, format, source_name));
}

StatusOr<PluginProgram> PluginProgram::Deserialize(const Device& device,
                                                   std::string_view bytes) {
  return Make(device, Executable::Deserialize(device, bytes));
}

StatusOr<std::vector<Shape>> PluginProgram::ParameterShapes() const {
  Result<std::vector<phal_buffer_desc_t>> descs = executable_.ParameterDescs();
  PHAL_RETURN_IF_ERROR(StatusFromError(descs.error()));
  std::vector<Shape> shapes;
  for (const phal_buffer_desc_t& desc : *descs) {
    shapes.emplace_back(desc.element_type,
                        std::vector<int64_t>(desc.dims, desc.dims + desc.rank));
  }
  return shapes;
}

StatusOr<std::vector<Buffer>> UploadArguments(
    const Device& device, const std::vector<Literal>& arguments) {
  std::vector<Buffer> buffers;
  for (const Literal& argument : arguments) {
    Result<Buffer> buffer = Buffer::Allocate(device, argument.element_type(),
                                             argument.shape().dims());
    PHAL_RETURN_IF_ERROR(StatusFromError(buffer.error()));
    PHAL_RETURN_IF_ERROR(StatusFromError(
        buffer->CopyFromHost(argument.data(), argument.byte_size())));
    buffers.push_back(std::move(buffer.value()));
  }
  return buffers;
}

StatusOr<std::vector<Buffer>> PluginProgram::Upload(
    const std::vector<Literal>& arguments) const {
  return UploadArguments(device_, arguments);
}

StatusOr<std::vector<Buffer>> PluginProgram::Execute(
    const std::vector<Buffer>& inputs) {
  Result<std::vector<Buffer>> results = executable_.Execute(inputs);
  PHAL_RETURN_IF_ERROR(StatusFromError(results.error()));
  return std::move(results.value());
}

StatusOr<Literal> PluginProgram::Download(std::vector<Buffer>& results) const {
  std::vector<Literal> leaves;
  for (const Buffer& result : results) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    PHAL_RETURN_IF_ERROR(
        StatusFromError(Error(phal_buffer_get_desc(result.get(), &desc))));
    Literal leaf(Shape(desc.element_type,
                       std::vector<int64_t>(desc.dims, desc.dims + desc.rank)));
    PHAL_RETURN_IF_ERROR(
        StatusFromError(result.CopyToHost(leaf.data(), leaf.byte_size())));
    leaves.push_back(std::move(leaf));
  }
  if (leaves.size() != 1) return Literal::Tuple(std::move(leaves));
  return std::move(leaves[0]);
}

}  // namespace phal::cli
