#include "plugins/intel/intel_kernel.h"
#include "plugins/intel/intel_plugin.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/intel/intel_memory.h"
#include "sdk/base/byte_codec.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

// The serialized form (sdk/base/byte_codec.h): a header, the plugin
// version, the name, the buffer count, the launch shape and the OpenCL C.
constexpr std::string_view kMagic = "PHALOCLK";
constexpr uint32_t kFormat = 1;

}  // namespace

Kernel::~Kernel() {
  if (kernel_ != nullptr) Cl().ReleaseKernel(kernel_);
  if (program_ != nullptr) Cl().ReleaseProgram(program_);
}

StatusOr<std::unique_ptr<phal_plugin_kernel>> Kernel::Build(
    const Device& device, std::string name, uint32_t buffer_count,
    source_emitter::SourceKernel source) {
  if (ProgramBatcher* batcher = device.program_batcher()) {
    std::shared_ptr<PendingKernel> pending = batcher->Add(source.source);
    return std::make_unique<phal_plugin_kernel>(&device, std::move(name),
                                                buffer_count, std::move(source),
                                                std::move(pending));
  }
  PHAL_ASSIGN_OR_RETURN(
      cl_program program,
      device.program_cache().Build(device.context(), device.id(), source.source,
                                   device.build_options(),
                                   device.compiler_identity()));
  cl_int error = CL_SUCCESS;
  cl_kernel kernel =
      Cl().CreateKernel(program, source_emitter::kEntryName, &error);
  if (kernel == nullptr) {
    Cl().ReleaseProgram(program);
    return ClError("clCreateKernel of kernel '" + name + "'", error);
  }
  return std::make_unique<phal_plugin_kernel>(&device, std::move(name),
                                              buffer_count, std::move(source),
                                              program, kernel);
}

Status Kernel::Launch(const Stream& stream,
                      phal_plugin_buffer_t* const* buffers,
                      uint32_t buffer_count) const {
  if (buffer_count != buffer_count_) {
    return InvalidArgument("intel plugin: kernel '" + name_ + "' binds " +
                           std::to_string(buffer_count_) + " buffers, not " +
                           std::to_string(buffer_count));
  }
  const source_emitter::LaunchShape& launch = source_.launch;
  for (uint32_t d = 0; d < launch.dimensions; ++d) {
    if (launch.global_size[d] == 0) return OkStatus();  // nothing to do
  }
  std::lock_guard lock(launch_mutex_);
  PHAL_RETURN_IF_ERROR(Resolve());
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (buffers[i]->device() != stream.device()) {
      return InvalidArgument("intel plugin: kernel '" + name_ +
                             "' binds a buffer of another device");
    }
    const cl_mem memory = buffers[i]->memory();
    const cl_int error = Cl().SetKernelArg(kernel_, i, sizeof(memory), &memory);
    if (error != CL_SUCCESS) return ClError("clSetKernelArg", error);
  }
  // Scratch memory lives as long as the launch: OpenCL keeps a released
  // buffer until the commands using it have finished.
  cl_mem scratch = nullptr;
  if (launch.scratch_bytes > 0) {
    cl_int error = CL_SUCCESS;
    scratch = Cl().CreateBuffer(device_->context(), CL_MEM_READ_WRITE,
                                static_cast<size_t>(launch.scratch_bytes),
                                nullptr, &error);
    if (scratch == nullptr) {
      return ClError("the scratch memory of kernel '" + name_ + "'", error);
    }
    error = Cl().SetKernelArg(kernel_, buffer_count, sizeof(scratch), &scratch);
    if (error != CL_SUCCESS) {
      Cl().ReleaseMemObject(scratch);
      return ClError("clSetKernelArg", error);
    }
  }
  size_t global[3], local[3];
  for (uint32_t d = 0; d < 3; ++d) {
    global[d] = static_cast<size_t>(launch.global_size[d]);
    local[d] = static_cast<size_t>(launch.local_size[d]);
  }
  const cl_int error = Cl().EnqueueNDRangeKernel(
      stream.queue(), kernel_, launch.dimensions, nullptr, global,
      launch.local_size[0] == 0 ? nullptr : local, 0, nullptr, nullptr);
  if (scratch != nullptr) Cl().ReleaseMemObject(scratch);
  if (error != CL_SUCCESS) {
    return ClError("clEnqueueNDRangeKernel of kernel '" + name_ + "'", error);
  }
  return OkStatus();
}

Status Kernel::Resolve() const {
  if (kernel_ != nullptr) return OkStatus();
  const Status built = device_->program_batcher()->Resolve(*pending_);
  if (!built.ok()) {
    return Status(built.code(), "intel plugin: kernel '" + name_ +
                                    "' does not build: " + built.message());
  }
  cl_int error = CL_SUCCESS;
  cl_kernel kernel =
      Cl().CreateKernel(pending_->program, pending_->entry.c_str(), &error);
  if (kernel == nullptr) {
    return ClError("clCreateKernel of kernel '" + name_ + "'", error);
  }
  Cl().RetainProgram(pending_->program);
  program_ = pending_->program;
  kernel_ = kernel;
  pending_.reset();
  return OkStatus();
}

std::string Kernel::Serialize() const {
  ByteWriter out;
  out.AddHeader(kMagic, kFormat);
  out.AddString(PHAL_PLUGIN_VERSION);
  out.AddString(name_);
  out.AddU64(buffer_count_);
  const source_emitter::LaunchShape& launch = source_.launch;
  out.AddU64(launch.dimensions);
  for (uint32_t d = 0; d < 3; ++d) {
    out.AddU64(launch.global_size[d]);
    out.AddU64(launch.local_size[d]);
  }
  out.AddU64(launch.scratch_bytes);
  out.AddString(source_.source);
  return out.Take();
}

phal_status_t* KernelEmit(phal_plugin_device_t* device,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t* /*options*/,
                          phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (kernel == nullptr || out_kernel == nullptr) {
      return InvalidArgument(
          "intel plugin: kernel_emit needs a kernel and out_kernel");
    }
    const std::string name = kernel->name != nullptr ? kernel->name : "";
    StatusOr<source_emitter::SourceKernel> source = source_emitter::EmitSource(
        *kernel, source_emitter::OpenClDialect(), device->features());
    if (!source.ok()) {
      return Status(
          source.status().code(),
          "intel plugin: kernel '" + name + "': " + source.status().message());
    }
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<phal_plugin_kernel> built,
        Kernel::Build(*device, name, kernel->buffer_count, std::move(*source)));
    *out_kernel = built.release();
    return OkStatus();
  });
}

void KernelDestroy(phal_plugin_kernel_t* kernel) noexcept { delete kernel; }

phal_status_t* KernelSerialize(phal_plugin_kernel_t* kernel, void** out_data,
                               uint64_t* out_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const std::string bytes = kernel->Serialize();
    return ReturnHostBytes(bytes, "intel plugin: serialized kernel", out_data,
                           out_size);
  });
}

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    ByteReader reader(
        data == nullptr
            ? std::string_view()
            : std::string_view(static_cast<const char*>(data), size));
    uint32_t format = 0;
    std::string_view version;
    if (!reader.ReadHeader(kMagic, &format) || format != kFormat ||
        !reader.ReadString(&version) || version != PHAL_PLUGIN_VERSION) {
      return FailedPrecondition(
          "intel plugin: the bytes are not a serialized intel kernel of this "
          "plugin version");
    }
    std::string_view name, text;
    uint64_t buffer_count = 0, dimensions = 0;
    source_emitter::SourceKernel source;
    bool ok = reader.ReadString(&name) && reader.ReadU64(&buffer_count) &&
              reader.ReadU64(&dimensions);
    for (uint32_t d = 0; ok && d < 3; ++d) {
      ok = reader.ReadU64(&source.launch.global_size[d]) &&
           reader.ReadU64(&source.launch.local_size[d]);
    }
    ok = ok && reader.ReadU64(&source.launch.scratch_bytes) &&
         reader.ReadString(&text) && reader.at_end();
    source.source = text;
    if (!ok || dimensions < 1 || dimensions > 3 || buffer_count > UINT32_MAX) {
      return FailedPrecondition(
          "intel plugin: a serialized kernel is truncated");
    }
    source.launch.dimensions = static_cast<uint32_t>(dimensions);
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<phal_plugin_kernel> built,
        Kernel::Build(*device, std::string(name),
                      static_cast<uint32_t>(buffer_count), std::move(source)));
    *out_kernel = built.release();
    return OkStatus();
  });
}

phal_status_t* StreamLaunch(phal_plugin_stream_t* stream,
                            phal_plugin_kernel_t* kernel,
                            phal_plugin_buffer_t* const* buffers,
                            uint32_t buffer_count) noexcept {
  return RunAtAbiBoundary(
      [&] { return kernel->Launch(*stream, buffers, buffer_count); });
}

}  // namespace phal::intel
