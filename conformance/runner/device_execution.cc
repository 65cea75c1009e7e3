#include "conformance/runner/device_execution.h"

#include <memory>

namespace phal::conformance {
namespace {

Status TakeStatus(phal_status_t* status) {
  if (status == nullptr) return OkStatus();
  Status taken(phal_status_get_code(status), phal_status_get_message(status));
  phal_status_free(status);
  return taken;
}

struct ExecutableDeleter {
  void operator()(phal_executable_t* executable) const {
    phal_executable_free(executable);
  }
};
struct BufferDeleter {
  void operator()(phal_buffer_t* buffer) const { phal_buffer_free(buffer); }
};
using ExecutablePointer = std::unique_ptr<phal_executable_t, ExecutableDeleter>;
using BufferPointer = std::unique_ptr<phal_buffer_t, BufferDeleter>;

StatusOr<BufferPointer> Upload(phal_device_t* device, const Literal& literal) {
  const std::vector<int64_t>& dims = literal.shape().dims();
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.element_type = literal.element_type();
  desc.rank = static_cast<uint32_t>(dims.size());
  desc.dims = dims.empty() ? nullptr : dims.data();
  phal_buffer_t* buffer = nullptr;
  PHAL_RETURN_IF_ERROR(
      TakeStatus(phal_buffer_allocate(device, &desc, &buffer)));
  BufferPointer owned(buffer);
  PHAL_RETURN_IF_ERROR(TakeStatus(phal_buffer_copy_from_host(
      owned.get(), 0, literal.data(), literal.byte_size())));
  return owned;
}

StatusOr<Literal> Download(const phal_buffer_t* buffer) {
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  PHAL_RETURN_IF_ERROR(TakeStatus(phal_buffer_get_desc(buffer, &desc)));
  Literal literal(
      Shape(desc.element_type,
            std::vector<int64_t>(desc.dims, desc.dims + desc.rank)));
  PHAL_RETURN_IF_ERROR(TakeStatus(phal_buffer_copy_to_host(
      buffer, 0, literal.data(), literal.byte_size())));
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

DeviceRun RunOnDevice(phal_device_t* device, const std::string& hlo_text,
                      const std::string& source_name,
                      const std::vector<Literal>& arguments) {
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  options.source_name = source_name.c_str();
  phal_executable_t* compiled = nullptr;
  Status status = TakeStatus(phal_executable_compile(
      device, hlo_text.data(), hlo_text.size(), &options, &compiled));
  if (!status.ok()) return Failed(DeviceStage::kCompile, status);
  ExecutablePointer executable(compiled);

  std::vector<BufferPointer> inputs;
  std::vector<phal_buffer_t*> handles;
  for (const Literal& argument : arguments) {
    StatusOr<BufferPointer> input = Upload(device, argument);
    if (!input.ok()) return Failed(DeviceStage::kUpload, input.status());
    handles.push_back(input->get());
    inputs.push_back(std::move(*input));
  }
  size_t result_count = 0;
  status = TakeStatus(
      phal_executable_get_result_count(executable.get(), &result_count));
  if (!status.ok()) return Failed(DeviceStage::kExecute, status);
  std::vector<phal_buffer_t*> results(result_count, nullptr);
  status = TakeStatus(phal_executable_execute(executable.get(), handles.data(),
                                              handles.size(), results.data(),
                                              results.size()));
  if (!status.ok()) return Failed(DeviceStage::kExecute, status);
  std::vector<BufferPointer> owned_results;
  for (phal_buffer_t* result : results) owned_results.emplace_back(result);

  DeviceRun run;
  for (const BufferPointer& result : owned_results) {
    StatusOr<Literal> leaf = Download(result.get());
    if (!leaf.ok()) return Failed(DeviceStage::kDownload, leaf.status());
    run.results.push_back(std::move(*leaf));
  }
  run.ok = true;
  return run;
}

}  // namespace phal::conformance
