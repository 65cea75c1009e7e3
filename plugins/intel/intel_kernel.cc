#include "plugins/intel/intel_kernel.h"
#include "plugins/intel/intel_plugin.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "plugins/intel/intel_memory.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

// Serialized kernels start with this; the version changes with the format.
constexpr char kMagic[8] = {'P', 'H', 'A', 'L', 'O', 'C', 'L', '1'};

void Append(std::string* out, uint64_t value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(value));
}

void Append(std::string* out, const std::string& text) {
  Append(out, static_cast<uint64_t>(text.size()));
  out->append(text);
}

// Reads what Append wrote; false when the bytes run out.
class Reader {
 public:
  Reader(const char* data, uint64_t size) : data_(data), size_(size) {}
  bool Read(uint64_t* value) {
    if (size_ - at_ < sizeof(*value)) return false;
    std::memcpy(value, data_ + at_, sizeof(*value));
    at_ += sizeof(*value);
    return true;
  }
  bool Read(std::string* text) {
    uint64_t size = 0;
    if (!Read(&size) || size_ - at_ < size) return false;
    text->assign(data_ + at_, static_cast<size_t>(size));
    at_ += size;
    return true;
  }

 private:
  const char* data_;
  uint64_t size_;
  uint64_t at_ = 0;
};

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
  std::string bytes(kMagic, sizeof(kMagic));
  Append(&bytes, name_);
  Append(&bytes, static_cast<uint64_t>(buffer_count_));
  const source_emitter::LaunchShape& launch = source_.launch;
  Append(&bytes, static_cast<uint64_t>(launch.dimensions));
  for (uint32_t d = 0; d < 3; ++d) {
    Append(&bytes, launch.global_size[d]);
    Append(&bytes, launch.local_size[d]);
  }
  Append(&bytes, launch.scratch_bytes);
  Append(&bytes, source_.source);
  return bytes;
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
    void* data = HostAllocate(bytes.size(), alignof(std::max_align_t));
    if (data == nullptr) {
      return ResourceExhausted(
          "intel plugin: no host memory for a serialized kernel of " +
          std::to_string(bytes.size()) + " bytes");
    }
    std::memcpy(data, bytes.data(), bytes.size());
    *out_data = data;
    *out_size = bytes.size();
    return OkStatus();
  });
}

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const auto* bytes = static_cast<const char*>(data);
    if (bytes == nullptr || size < sizeof(kMagic) ||
        std::memcmp(bytes, kMagic, sizeof(kMagic)) != 0) {
      return FailedPrecondition(
          "intel plugin: the bytes are not a serialized intel kernel of this "
          "plugin version");
    }
    Reader reader(bytes + sizeof(kMagic), size - sizeof(kMagic));
    std::string name;
    uint64_t buffer_count = 0, dimensions = 0;
    source_emitter::SourceKernel source;
    bool ok = reader.Read(&name) && reader.Read(&buffer_count) &&
              reader.Read(&dimensions);
    for (uint32_t d = 0; ok && d < 3; ++d) {
      ok = reader.Read(&source.launch.global_size[d]) &&
           reader.Read(&source.launch.local_size[d]);
    }
    ok = ok && reader.Read(&source.launch.scratch_bytes) &&
         reader.Read(&source.source);
    if (!ok || dimensions < 1 || dimensions > 3) {
      return FailedPrecondition(
          "intel plugin: a serialized kernel is truncated");
    }
    source.launch.dimensions = static_cast<uint32_t>(dimensions);
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<phal_plugin_kernel> built,
        Kernel::Build(*device, std::move(name),
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
