#include "template_kernel.h"
#include "template_plugin.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sdk/kir/printer.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"
#include "template_device.h"
#include "template_memory.h"
#include "template_stream.h"

namespace phal::template_plugin {
namespace {

using kir_interpreter::Kernel;

// TODO(vendor): compile `kernel` for your hardware here, kind by kind
// (docs/writing-a-plugin.md, "Kernels, kind by kind"), and keep the
// interpreter for the kinds you do not compile yet. The dump directory gets
// the code the device runs in its text form: here the KIR the interpreter
// runs; yours writes its assembly or source.
Status Emit(const Device& /*device*/, const phal_kernel_desc_t* desc,
            const phal_kernel_options_t* options, phal_plugin_kernel_t** out) {
  if (desc == nullptr)
    return InvalidArgument("template plugin: kernel is NULL");
  PHAL_ASSIGN_OR_RETURN(Kernel kernel, Kernel::Create(*desc));
  PHAL_RETURN_IF_ERROR(WriteKernelDump(KernelDumpDirectory(options),
                                       kernel.name(), "kir",
                                       KernelToText(kernel.desc())));
  *out = new phal_plugin_kernel(std::move(kernel));
  return OkStatus();
}

// Checks the bound buffers against the kernel's and runs it on their host
// memory. TODO(vendor): queue the compiled kernel on the stream's hardware
// queue instead.
Status LaunchProgram(Stream& stream, const Program& program,
                     phal_plugin_buffer_t* const* buffers,
                     uint32_t buffer_count) {
  if (buffer_count != program.buffer_count()) {
    return InvalidArgument("template plugin: program " + program.name() +
                           " binds " + std::to_string(program.buffer_count()) +
                           " buffers, the launch gave " +
                           std::to_string(buffer_count));
  }
  std::vector<uint8_t*> addresses(buffer_count);
  for (uint32_t i = 0; i < buffer_count; ++i) {
    PHAL_RETURN_IF_ERROR(buffers[i]->CheckRange(0, program.BufferByteSize(i)));
    addresses[i] = reinterpret_cast<uint8_t*>(buffers[i]->data());
  }
  stream.Run([&program, addresses] { return program.Run(addresses); });
  return OkStatus();
}

Status Launch(Stream& stream, const phal_plugin_kernel& launched,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  if (launched.program != nullptr) {
    return LaunchProgram(stream, *launched.program, buffers, buffer_count);
  }
  const Kernel& kernel = *launched.kernel;
  const phal_kernel_desc_t& desc = kernel.desc();
  if (buffer_count != desc.buffer_count) {
    return InvalidArgument("template plugin: kernel " + kernel.name() +
                           " binds " + std::to_string(desc.buffer_count) +
                           " buffers, the launch gave " +
                           std::to_string(buffer_count));
  }
  std::vector<uint8_t*> addresses(buffer_count);
  for (uint32_t i = 0; i < buffer_count; ++i) {
    PHAL_RETURN_IF_ERROR(buffers[i]->CheckRange(0, kernel.BufferByteSize(i)));
    addresses[i] = reinterpret_cast<uint8_t*>(buffers[i]->data());
  }
  stream.Run([&] { return kernel.Run(addresses); });
  return OkStatus();
}

// The interpreter's own encoding of the description. TODO(vendor): your
// device binary, with a header naming the plugin version and target, so
// that deserialize refuses bytes built for another.
std::string Encode(const phal_plugin_kernel& kernel) {
  return kernel.program != nullptr ? kernel.program->Serialize()
                                   : kernel.kernel->Serialize();
}

}  // namespace

// kernel_emit, kernel_destroy, kernel_serialize and stream_launch, each
// calling the function of its name above.
PHAL_DEFINE_KERNEL_SLOTS("template plugin")

phal_status_t* KernelDeserialize(phal_plugin_device_t* /*device*/,
                                 const void* data, uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (data == nullptr && size > 0) {
      return InvalidArgument("template plugin: serialized kernel is NULL");
    }
    const std::string_view bytes(static_cast<const char*>(data), size);
    if (Program::IsProgram(bytes)) {
      PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Program> program,
                            Program::Deserialize(bytes));
      *out_kernel = new phal_plugin_kernel(std::move(program));
      return OkStatus();
    }
    StatusOr<Kernel> kernel = Kernel::Deserialize(bytes);
    if (!kernel.ok()) {
      return FailedPrecondition(
          "template plugin: the bytes are not a kernel this plugin "
          "serialized: " +
          kernel.status().message());
    }
    *out_kernel = new phal_plugin_kernel(std::move(kernel).value());
    return OkStatus();
  });
}

}  // namespace phal::template_plugin
