#include "core/cli/plugin_program.h"

#include "core/hlo/printer.h"

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

StatusOr<PluginProgram> PluginProgram::Compile(const Device& device,
                                               const HloModule& module) {
  std::string text = HloModuleToText(module);
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  options.source_name = module.name().c_str();
  phal_executable_t* compiled = nullptr;
  PHAL_RETURN_IF_ERROR(StatusFromError(Error(phal_executable_compile(
      device.get(), text.data(), text.size(), &options, &compiled))));
  bool tuple_root =
      module.entry_computation()->root_instruction()->shape().IsTuple();
  return PluginProgram(device, compiled, tuple_root);
}

StatusOr<PluginProgram> PluginProgram::Deserialize(const Device& device,
                                                   const std::string& bytes) {
  phal_executable_t* loaded = nullptr;
  PHAL_RETURN_IF_ERROR(StatusFromError(Error(phal_executable_deserialize(
      device.get(), bytes.data(), bytes.size(), &loaded))));
  PluginProgram program(device, loaded, false);
  size_t results = 0;
  PHAL_RETURN_IF_ERROR(StatusFromError(
      Error(phal_executable_get_result_count(loaded, &results))));
  program.tuple_root_ = results != 1;
  return program;
}

StatusOr<std::vector<Shape>> PluginProgram::ParameterShapes() const {
  size_t count = 0;
  PHAL_RETURN_IF_ERROR(StatusFromError(
      Error(phal_executable_get_parameter_count(executable_.get(), &count))));
  std::vector<Shape> shapes;
  for (size_t i = 0; i < count; ++i) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    PHAL_RETURN_IF_ERROR(StatusFromError(Error(
        phal_executable_get_parameter_desc(executable_.get(), i, &desc))));
    shapes.emplace_back(desc.element_type,
                        std::vector<int64_t>(desc.dims, desc.dims + desc.rank));
  }
  return shapes;
}

StatusOr<std::vector<Buffer>> PluginProgram::Upload(
    const std::vector<Literal>& arguments) const {
  std::vector<Buffer> buffers;
  for (const Literal& argument : arguments) {
    Result<Buffer> buffer = Buffer::Allocate(device_, argument.element_type(),
                                             argument.shape().dims());
    PHAL_RETURN_IF_ERROR(StatusFromError(buffer.error()));
    PHAL_RETURN_IF_ERROR(StatusFromError(
        buffer->CopyFromHost(argument.data(), argument.byte_size())));
    buffers.push_back(std::move(buffer.value()));
  }
  return buffers;
}

StatusOr<std::vector<Buffer>> PluginProgram::Execute(
    const std::vector<Buffer>& inputs) {
  std::vector<phal_buffer_t*> handles;
  handles.reserve(inputs.size());
  for (const Buffer& input : inputs) handles.push_back(input.get());
  size_t result_count = 0;
  PHAL_RETURN_IF_ERROR(StatusFromError(Error(
      phal_executable_get_result_count(executable_.get(), &result_count))));
  std::vector<phal_buffer_t*> results(result_count, nullptr);
  PHAL_RETURN_IF_ERROR(StatusFromError(Error(
      phal_executable_execute(executable_.get(), handles.data(), handles.size(),
                              results.data(), results.size()))));
  std::vector<Buffer> buffers;
  buffers.reserve(results.size());
  for (phal_buffer_t* result : results) buffers.emplace_back(result);
  return buffers;
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
  if (tuple_root_) return Literal::Tuple(std::move(leaves));
  if (leaves.size() != 1) {
    return Internal("the program returned " + std::to_string(leaves.size()) +
                    " results for a non-tuple root");
  }
  return std::move(leaves[0]);
}

}  // namespace phal::cli
