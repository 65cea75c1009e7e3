#include "core/testing/evaluator_device.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/abi/c_status.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/module.h"
#include "core/reference/interpreter.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

struct phal_plugin_buffer {
  std::vector<uint8_t> bytes;
};
struct phal_plugin_stream {
  int unused = 0;
};
struct phal_plugin_kernel {
  // Immutable once emitted: launches from many threads only run it.
  std::optional<phal::kir_interpreter::Kernel> kernel;
  // Or a whole program (EvaluatorProgramPluginApi) the reference
  // interpreter runs: its module and the buffers of a launch.
  std::unique_ptr<phal::HloModule> module;
  std::vector<phal::Shape> parameters;
  std::vector<phal::Shape> results;
};
struct phal_plugin_device {
  int unused = 0;
};

namespace phal::testing {
namespace {

std::atomic<int64_t> live_buffers{0};
std::atomic<int64_t> allocations{0};
std::atomic<int64_t> live_kernels{0};

phal_status_t* BufferAllocate(phal_plugin_device_t*, uint32_t,
                              uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) {
  *out_buffer = new phal_plugin_buffer{std::vector<uint8_t>(byte_size)};
  ++live_buffers;
  ++allocations;
  return nullptr;
}

void BufferFree(phal_plugin_buffer_t* buffer) {
  --live_buffers;
  delete buffer;
}

phal_status_t* StreamCreate(phal_plugin_device_t*,
                            phal_plugin_stream_t** out_stream) {
  *out_stream = new phal_plugin_stream;
  return nullptr;
}

void StreamDestroy(phal_plugin_stream_t* stream) { delete stream; }

phal_status_t* StreamSynchronize(phal_plugin_stream_t*) { return nullptr; }

phal_status_t* CopyFromHost(phal_plugin_stream_t*, const void* source,
                            phal_plugin_buffer_t* buffer, uint64_t offset,
                            uint64_t byte_size) {
  if (byte_size > 0)
    std::memcpy(buffer->bytes.data() + offset, source, byte_size);
  return nullptr;
}

phal_status_t* CopyToHost(phal_plugin_stream_t*, phal_plugin_buffer_t* buffer,
                          uint64_t offset, void* destination,
                          uint64_t byte_size) {
  if (byte_size > 0) {
    std::memcpy(destination, buffer->bytes.data() + offset, byte_size);
  }
  return nullptr;
}

phal_status_t* CopyBuffer(phal_plugin_stream_t*, phal_plugin_buffer_t* source,
                          uint64_t source_offset,
                          phal_plugin_buffer_t* destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size > 0) {
    std::memcpy(destination->bytes.data() + destination_offset,
                source->bytes.data() + source_offset, byte_size);
  }
  return nullptr;
}

phal_status_t* KernelEmit(phal_plugin_device_t*,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t*,
                          phal_plugin_kernel_t** out_kernel) {
  StatusOr<kir_interpreter::Kernel> emitted =
      kir_interpreter::Kernel::Create(*kernel);
  if (!emitted.ok()) return ToCStatus(emitted.status());
  *out_kernel = new phal_plugin_kernel;
  (*out_kernel)->kernel.emplace(std::move(emitted).value());
  ++live_kernels;
  return nullptr;
}

void KernelDestroy(phal_plugin_kernel_t* kernel) {
  --live_kernels;
  delete kernel;
}

// Runs a whole program with the reference interpreter on the buffers'
// bytes: the parameters, then the results.
phal_status_t* LaunchProgram(const phal_plugin_kernel& program,
                             phal_plugin_buffer_t* const* buffers,
                             uint32_t buffer_count) {
  if (buffer_count != program.parameters.size() + program.results.size()) {
    return MakeCStatus(PHAL_INVALID_ARGUMENT, "buffer count mismatch");
  }
  std::vector<Literal> arguments;
  for (std::size_t i = 0; i < program.parameters.size(); ++i) {
    Literal& argument = arguments.emplace_back(program.parameters[i]);
    if (buffers[i]->bytes.size() != argument.byte_size()) {
      return MakeCStatus(PHAL_INVALID_ARGUMENT, "buffer size mismatch");
    }
    if (argument.byte_size() > 0) {
      std::memcpy(argument.data(), buffers[i]->bytes.data(),
                  argument.byte_size());
    }
  }
  StatusOr<Literal> result = Evaluate(*program.module, arguments);
  if (!result.ok()) return ToCStatus(result.status());
  std::vector<Literal> leaves;
  if (result->IsTuple()) {
    leaves = std::move(result->mutable_tuple_elements());
  } else {
    leaves.push_back(std::move(result).value());
  }
  if (leaves.size() != program.results.size()) {
    return MakeCStatus(PHAL_INTERNAL, "result count mismatch");
  }
  for (std::size_t r = 0; r < leaves.size(); ++r) {
    std::vector<uint8_t>& bytes = buffers[program.parameters.size() + r]->bytes;
    if (bytes.size() != leaves[r].byte_size()) {
      return MakeCStatus(PHAL_INVALID_ARGUMENT, "result size mismatch");
    }
    if (!bytes.empty()) {
      std::memcpy(bytes.data(), leaves[r].data(), bytes.size());
    }
  }
  return nullptr;
}

phal_status_t* Launch(phal_plugin_stream_t*, phal_plugin_kernel_t* kernel,
                      phal_plugin_buffer_t* const* buffers,
                      uint32_t buffer_count) {
  if (kernel->module != nullptr) {
    return LaunchProgram(*kernel, buffers, buffer_count);
  }
  std::vector<uint8_t*> data;
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (buffers[i]->bytes.size() != kernel->kernel->BufferByteSize(i)) {
      return MakeCStatus(PHAL_INVALID_ARGUMENT, "buffer size mismatch");
    }
    data.push_back(buffers[i]->bytes.data());
  }
  return ToCStatus(kernel->kernel->Run(data));
}

phal_plugin_api_t MakeApi() {
  phal_plugin_api_t api{};
  api.struct_size = sizeof(api);
  api.abi_version = PHAL_ABI_VERSION;
  api.name = "evaluator";
  api.version = "test";
  api.buffer_allocate = BufferAllocate;
  api.buffer_free = BufferFree;
  api.stream_create = StreamCreate;
  api.stream_destroy = StreamDestroy;
  api.stream_synchronize = StreamSynchronize;
  api.stream_copy_from_host = CopyFromHost;
  api.stream_copy_to_host = CopyToHost;
  api.stream_copy_buffer = CopyBuffer;
  api.kernel_emit = KernelEmit;
  api.kernel_destroy = KernelDestroy;
  api.stream_launch = Launch;
  return api;
}

EvaluatorPrograms& Programs() {
  static EvaluatorPrograms programs;
  return programs;
}
std::mutex programs_mutex;

phal_status_t* ProgramGetFormats(phal_plugin_device_t*, uint32_t* out) {
  std::lock_guard lock(programs_mutex);
  *out = Programs().formats;
  return nullptr;
}

phal_status_t* ProgramAcceptsOp(phal_plugin_device_t*,
                                const phal_program_op_t* op, int* out) {
  std::lock_guard lock(programs_mutex);
  *out = Programs().declined_opcodes.count(op->opcode) == 0 ? 1 : 0;
  return nullptr;
}

phal_status_t* ProgramCompile(phal_plugin_device_t*,
                              const phal_program_desc_t* program,
                              const phal_kernel_options_t*,
                              phal_plugin_kernel_t** out_kernel) {
  {
    std::lock_guard lock(programs_mutex);
    Programs().offered.push_back({program->name, program->format});
    if (Programs().decline_compile) {
      return MakeCStatus(PHAL_UNIMPLEMENTED, "the test declines every part");
    }
  }
  const std::string_view text(static_cast<const char*>(program->data),
                              program->size);
  StatusOr<std::unique_ptr<HloModule>> module =
      InvalidArgument("format " + std::to_string(program->format));
  if (program->format == PHAL_PLUGIN_PROGRAM_HLO_TEXT) {
    module = ParseHloText(text, program->name);
  } else if (program->format == PHAL_PLUGIN_PROGRAM_STABLEHLO) {
    StatusOr<StableHloModule> parsed = ParseStableHlo(text, program->name);
    module = parsed.ok()
                 ? std::move(parsed->module)
                 : StatusOr<std::unique_ptr<HloModule>>(parsed.status());
  }
  if (!module.ok()) return ToCStatus(module.status());
  auto kernel = std::make_unique<phal_plugin_kernel>();
  kernel->module = std::move(module).value();
  for (uint32_t i = 0; i < program->parameter_count + program->result_count;
       ++i) {
    const phal_kir_buffer_t& buffer = program->buffers[i];
    Shape shape(buffer.element_type,
                std::vector<int64_t>(buffer.dims, buffer.dims + buffer.rank));
    (i < program->parameter_count ? kernel->parameters : kernel->results)
        .push_back(std::move(shape));
  }
  *out_kernel = kernel.release();
  ++live_kernels;
  return nullptr;
}

phal_plugin_api_t MakeProgramApi() {
  phal_plugin_api_t api = MakeApi();
  api.name = "evaluator-programs";
  api.program_get_formats = ProgramGetFormats;
  api.program_accepts_op = ProgramAcceptsOp;
  api.program_compile = ProgramCompile;
  return api;
}

}  // namespace

const phal_plugin_api_t* EvaluatorProgramPluginApi() {
  static const phal_plugin_api_t api = MakeProgramApi();
  return &api;
}

void SetEvaluatorPrograms(EvaluatorPrograms programs) {
  std::lock_guard lock(programs_mutex);
  Programs() = std::move(programs);
}

std::vector<EvaluatorPrograms::Offer> EvaluatorProgramOffers() {
  std::lock_guard lock(programs_mutex);
  return Programs().offered;
}

const phal_plugin_api_t* EvaluatorPluginApi() {
  static const phal_plugin_api_t api = MakeApi();
  return &api;
}

phal_plugin_device_t* EvaluatorDevice() {
  static phal_plugin_device device;
  return &device;
}

int64_t LiveEvaluatorBuffers() { return live_buffers.load(); }
int64_t EvaluatorAllocations() { return allocations.load(); }
int64_t LiveEvaluatorKernels() { return live_kernels.load(); }

}  // namespace phal::testing
