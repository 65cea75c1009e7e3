#include "conformance/runner/device_execution.h"

#include "polyhal/polyhal.hpp"

namespace phal::conformance {
namespace {

Status StatusOf(const Error& error) {
  return error.ok() ? OkStatus() : Status(error.code(), error.message());
}

StatusOr<Buffer> Upload(const Device& device, const Literal& literal) {
  Result<Buffer> buffer =
      Buffer::Allocate(device, literal.element_type(), literal.shape().dims());
  PHAL_RETURN_IF_ERROR(StatusOf(buffer.error()));
  PHAL_RETURN_IF_ERROR(
      StatusOf(buffer->CopyFromHost(literal.data(), literal.byte_size())));
  return std::move(buffer.value());
}

StatusOr<Literal> Download(const Buffer& buffer) {
  Result<phal_buffer_desc_t> desc = buffer.Desc();
  PHAL_RETURN_IF_ERROR(StatusOf(desc.error()));
  Literal literal(
      Shape(desc->element_type,
            std::vector<int64_t>(desc->dims, desc->dims + desc->rank)));
  PHAL_RETURN_IF_ERROR(
      StatusOf(buffer.CopyToHost(literal.data(), literal.byte_size())));
  return literal;
}

DeviceRun Failed(DeviceStage stage, Status status) {
  DeviceRun run;
  run.error = {stage, std::move(status)};
  return run;
}

}  // namespace

const char* DeviceStageName(DeviceStage stage) {
  switch (stage) {
    case DeviceStage::kCompile:
      return "compile";
    case DeviceStage::kUpload:
      return "upload";
    case DeviceStage::kExecute:
      return "execute";
    case DeviceStage::kDownload:
      return "download";
  }
  return "run";
}

DeviceRun RunOnDevice(phal_device_t* handle, const std::string& hlo_text,
                      const std::string& source_name,
                      const std::vector<Literal>& arguments) {
  const Device device(handle);
  Result<Executable> executable = Executable::Compile(
      device, hlo_text, PHAL_PROGRAM_FORMAT_HLO_TEXT, source_name);
  if (!executable.ok()) {
    return Failed(DeviceStage::kCompile, StatusOf(executable.error()));
  }
  std::vector<Buffer> inputs;
  for (const Literal& argument : arguments) {
    StatusOr<Buffer> input = Upload(device, argument);
    if (!input.ok()) return Failed(DeviceStage::kUpload, input.status());
    inputs.push_back(std::move(*input));
  }
  Result<std::vector<Buffer>> results = executable->Execute(inputs);
  if (!results.ok()) {
    return Failed(DeviceStage::kExecute, StatusOf(results.error()));
  }
  DeviceRun run;
  for (const Buffer& result : *results) {
    StatusOr<Literal> leaf = Download(result);
    if (!leaf.ok()) return Failed(DeviceStage::kDownload, leaf.status());
    run.results.push_back(std::move(*leaf));
  }
  run.ok = true;
  return run;
}

}  // namespace phal::conformance
