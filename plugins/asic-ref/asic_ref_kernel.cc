#include "asic_ref_kernel.h"

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "asic_ref_device.h"
#include "asic_ref_kernel_cache.h"
#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"
#include "asic_ref_program.h"
#include "asic_ref_stream.h"
#include "compiler/asic_compiler.h"
#include "isa/asic_assembler.h"
#include "sdk/base/byte_codec.h"
#include "sdk/kir/facts.h"
#include "sdk/plugin_support/build_identity.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {
namespace {

constexpr std::string_view kMagic = "PHALASIC";
constexpr uint32_t kFormatVersion = 3;

Status DataLoss(std::string message) {
  return Status(PHAL_DATA_LOSS, std::move(message));
}

const std::string& PluginBuild() {
  static const std::string* identity =
      new std::string(BuildIdentity(PHAL_PLUGIN_VERSION));
  return *identity;
}

// DATA_LOSS for a serialized kernel of `size` bytes that ends in `field`.
Status Truncated(std::string_view field, size_t size) {
  return DataLoss("asic-ref plugin: serialized kernel ends in its " +
                  std::string(field) + " (" + std::to_string(size) + " bytes)");
}

std::string Encode(const phal_plugin_kernel& kernel) {
  ByteWriter out;
  out.AddRaw(kMagic);
  out.AddU32(kFormatVersion);
  out.AddString(PluginBuild());
  out.AddString(kernel.config_text);
  out.AddU64(kernel.buffer_bytes.size());
  for (uint64_t bytes : kernel.buffer_bytes) out.AddU64(bytes);
  out.AddString(EncodeProgram(kernel.program));
  // The compiler's comments, which the binary program does not hold, so
  // that the assembly of a cached kernel reads as a fresh one's.
  out.AddU64(kernel.program.comments.size());
  for (const auto& [index, text] : kernel.program.comments) {
    out.AddU32(index);
    out.AddString(text);
  }
  out.AddU8(kernel.graph != nullptr ? 1 : 0);
  if (kernel.graph != nullptr) EncodeGraphFields(*kernel.graph, out);
  return out.Take();
}

// The kernel `bytes` hold, for a device of architecture `config_text`.
StatusOr<std::unique_ptr<phal_plugin_kernel>> Decode(
    std::string_view bytes, const std::string& config_text) {
  ByteReader in(bytes);
  std::string_view magic;
  if (!in.ReadRaw(kMagic.size(), &magic) || magic != kMagic) {
    return FailedPrecondition(
        "asic-ref plugin: the bytes are not a kernel this plugin serialized "
        "(no PHALASIC magic)");
  }
  uint32_t format = 0;
  if (!in.ReadU32(&format)) return Truncated("format version", bytes.size());
  if (format != kFormatVersion) {
    return FailedPrecondition("asic-ref plugin: kernel of format version " +
                              std::to_string(format) + "; this build reads " +
                              std::to_string(kFormatVersion));
  }
  std::string_view build;
  if (!in.ReadString(&build)) return Truncated("build", bytes.size());
  if (build != PluginBuild()) {
    return FailedPrecondition(
        "asic-ref plugin: kernel compiled by plugin build " +
        std::string(build) + "; this is build " + PluginBuild());
  }
  std::string_view config;
  if (!in.ReadString(&config)) return Truncated("architecture", bytes.size());
  if (config != config_text) {
    return FailedPrecondition(
        "asic-ref plugin: kernel compiled for the architecture " +
        std::string(config) + "; the device is " + config_text);
  }
  auto kernel = std::make_unique<phal_plugin_kernel>();
  kernel->config_text = config_text;
  uint64_t count = 0;
  if (!in.ReadU64(&count)) return Truncated("buffer count", bytes.size());
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    if (!in.ReadU64(&size)) return Truncated("buffer sizes", bytes.size());
    kernel->buffer_bytes.push_back(size);
  }
  std::string_view program;
  if (!in.ReadString(&program)) return Truncated("program", bytes.size());
  uint64_t comment_count = 0;
  if (!in.ReadU64(&comment_count)) return Truncated("comments", bytes.size());
  std::vector<std::pair<uint32_t, std::string>> comments;
  for (uint64_t i = 0; i < comment_count; ++i) {
    uint32_t index = 0;
    std::string_view text;
    if (!in.ReadU32(&index) || !in.ReadString(&text)) {
      return Truncated("comments", bytes.size());
    }
    comments.emplace_back(index, std::string(text));
  }
  uint8_t is_graph = 0;
  if (!in.ReadU8(&is_graph) || is_graph > 1) {
    return Truncated("kind", bytes.size());
  }
  StatusOr<Program> decoded = DecodeProgram(std::string(program));
  if (!decoded.ok()) {
    return DataLoss(
        "asic-ref plugin: serialized kernel's program is corrupt: " +
        decoded.status().message());
  }
  kernel->program = std::move(decoded).value();
  if (is_graph == 1) {
    auto graph = std::make_unique<GraphProgram>();
    graph->program = kernel->program;
    PHAL_RETURN_IF_ERROR(DecodeGraphFields(in, graph.get()));
    graph->program = Program();
    if (graph->buffer_bytes != kernel->buffer_bytes) {
      return DataLoss(
          "asic-ref plugin: serialized graph program's buffers disagree");
    }
    kernel->graph = std::move(graph);
  }
  if (!in.at_end()) {
    return DataLoss(
        "asic-ref plugin: serialized kernel has bytes after its program");
  }
  for (const auto& comment : comments) {
    if (comment.first > kernel->program.instructions.size()) {
      return DataLoss(
          "asic-ref plugin: serialized kernel has a comment at "
          "instruction " +
          std::to_string(comment.first) + " of " +
          std::to_string(kernel->program.instructions.size()));
    }
  }
  kernel->program.comments = std::move(comments);
  return kernel;
}

StatusOr<std::string> Compile(const Device& device,
                              const phal_kernel_desc_t& desc) {
  phal_plugin_kernel kernel;
  PHAL_ASSIGN_OR_RETURN(kernel.program, CompileKernel(device.config(), desc));
  kernel.config_text = device.config_text();
  for (uint32_t i = 0; i < desc.buffer_count; ++i) {
    kernel.buffer_bytes.push_back(BufferByteSize(desc.buffers[i]));
  }
  return Encode(kernel);
}

std::string KernelName(const phal_kernel_desc_t& desc) {
  return desc.name != nullptr && *desc.name != '\0' ? desc.name : "kernel";
}

// `desc` compiled, or found compiled in the kernel cache, and named after
// it (the cached program may carry the name of an identical kernel).
StatusOr<std::unique_ptr<phal_plugin_kernel>> CompiledKernel(
    const Device& device, const phal_kernel_desc_t& desc) {
  PHAL_RETURN_IF_ERROR(CheckKernelStructure(desc));
  const std::string& config_text = device.config_text();
  PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const std::string> bytes,
                        KernelCache::Instance().FindOrCompile(
                            KernelCacheKey(desc, config_text, PluginBuild()),
                            [&](const std::string& cached) {
                              return Decode(cached, config_text).ok();
                            },
                            [&] { return Compile(device, desc); }));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_plugin_kernel> kernel,
                        Decode(*bytes, config_text));
  kernel->program.name = KernelName(desc);
  return kernel;
}

// Compiles `desc` (or finds it compiled), names the program after it, and
// writes its assembly, <name>.s, to the dump directory the options name.
Status Emit(const Device& device, const phal_kernel_desc_t* desc,
            const phal_kernel_options_t* options, phal_plugin_kernel_t** out) {
  if (desc == nullptr) {
    return InvalidArgument("asic-ref plugin: kernel is NULL");
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_plugin_kernel> kernel,
                        CompiledKernel(device, *desc));
  PHAL_RETURN_IF_ERROR(WriteKernelDump(KernelDumpDirectory(options),
                                       kernel->program.name, "s",
                                       Disassemble(kernel->program)));
  *out = kernel.release();
  return OkStatus();
}

// Checks the bound buffers against the kernel's and runs it on the
// stream's device.
Status Launch(Stream& stream, const phal_plugin_kernel& kernel,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  const std::string& name = kernel.program.name;
  if (kernel.graph != nullptr) {
    if (buffer_count != kernel.buffer_bytes.size()) {
      return InvalidArgument("asic-ref plugin: program " + name + " binds " +
                             std::to_string(kernel.buffer_bytes.size()) +
                             " buffers, the launch gave " +
                             std::to_string(buffer_count));
    }
    if (kernel.config_text != stream.device().config_text()) {
      return InvalidArgument("asic-ref plugin: program " + name +
                             " was compiled for another architecture");
    }
    return LaunchGraph(stream, kernel, buffers, buffer_count);
  }
  if (buffer_count != kernel.buffer_bytes.size()) {
    return InvalidArgument("asic-ref plugin: kernel " + name + " binds " +
                           std::to_string(kernel.buffer_bytes.size()) +
                           " buffers, the launch gave " +
                           std::to_string(buffer_count));
  }
  Device& device = stream.device();
  if (kernel.config_text != device.config_text()) {
    return InvalidArgument("asic-ref plugin: kernel " + name +
                           " was compiled for the architecture " +
                           kernel.config_text + "; the device is " +
                           device.config_text());
  }
  std::vector<uint64_t> addresses(buffer_count);
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (&buffers[i]->dram() != &device.dram()) {
      return InvalidArgument("asic-ref plugin: kernel " + name +
                             " launched with buffer " + std::to_string(i) +
                             " of another device");
    }
    PHAL_RETURN_IF_ERROR(buffers[i]->CheckRange(0, kernel.buffer_bytes[i]));
    addresses[i] = buffers[i]->address();
  }
  stream.Run([&] { return device.Run(kernel.program, addresses); });
  return OkStatus();
}

}  // namespace

StatusOr<Program> CachedKernelProgram(const Device& device,
                                      const phal_kernel_desc_t& desc) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_plugin_kernel> kernel,
                        CompiledKernel(device, desc));
  return std::move(kernel->program);
}

PHAL_DEFINE_KERNEL_SLOTS("asic-ref plugin")

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (data == nullptr && size > 0) {
      return InvalidArgument("asic-ref plugin: serialized kernel is NULL");
    }
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<phal_plugin_kernel> kernel,
        Decode(std::string_view(static_cast<const char*>(data), size),
               device->config_text()));
    *out_kernel = kernel.release();
    return OkStatus();
  });
}

}  // namespace phal::asic_ref
