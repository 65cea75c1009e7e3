#include "plugins/nvidia/nvidia_kernel.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "plugins/nvidia/nvidia_emulator.h"
#include "plugins/nvidia/nvidia_emulator_module.h"
#include "plugins/nvidia/nvidia_memory.h"
#include "plugins/nvidia/nvidia_plugin.h"
#include "plugins/nvidia/nvidia_stream.h"
#include "sdk/base/hash.h"
#include "sdk/base/kir_facts.h"
#include "sdk/emitters/llvm/kernel_fingerprint.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/emitters/llvm/nvptx_target.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/plugin_support/build_identity.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::nvidia {
namespace {

// The serialized form, which the disk cache stores too: a magic, the
// plugin version, the target, the name, the launch, the bindings' sizes
// and the image, little-endian, strings as u64 length + bytes.
constexpr std::string_view kMagic = "PHALNVK1";

// The newest compute capability the NVPTX target emits for; a newer GPU
// runs PTX for it, which its driver compiles forward.
constexpr int kNewestTargetCapability = 90;

class Writer {
 public:
  void U64(uint64_t value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(value));
  }
  void Bytes(std::string_view text) {
    U64(text.size());
    bytes_.append(text);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool U64(uint64_t* value) {
    if (bytes_.size() < sizeof(*value)) return false;
    std::memcpy(value, bytes_.data(), sizeof(*value));
    bytes_.remove_prefix(sizeof(*value));
    return true;
  }
  bool U32(uint32_t* value) {
    uint64_t wide = 0;
    if (!U64(&wide) || wide > UINT32_MAX) return false;
    *value = static_cast<uint32_t>(wide);
    return true;
  }
  bool Bytes(std::string_view* text) {
    uint64_t size = 0;
    if (!U64(&size) || size > bytes_.size()) return false;
    *text = bytes_.substr(0, size);
    bytes_.remove_prefix(size);
    return true;
  }
  bool done() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

// What kernels of `device` are compiled for: its PTX target, or the grid
// emulator. Bytes serialized for one target load only on devices of it.
std::string TargetName(const Device& device) {
  if (device.info().emulated) return "grid emulator " + device.arch();
  const int capability =
      std::min(device.info().compute_capability, kNewestTargetCapability);
  return "ptx sm_" + std::to_string(capability);
}

std::string Encode(const CompiledKernel& kernel, const std::string& target) {
  Writer writer;
  writer.bytes().append(kMagic);
  writer.Bytes(PHAL_PLUGIN_VERSION);
  writer.Bytes(target);
  writer.Bytes(kernel.name);
  const llvm_emitter::SpmdLaunch& launch = kernel.launch;
  for (uint32_t d = 0; d < 3; ++d) writer.U64(launch.grid[d]);
  for (uint32_t d = 0; d < 3; ++d) writer.U64(launch.block[d]);
  writer.U64(launch.shared_bytes);
  writer.U64(launch.scratch_bytes);
  writer.U64(kernel.buffer_bytes.size());
  for (uint64_t bytes : kernel.buffer_bytes) writer.U64(bytes);
  writer.Bytes(kernel.image);
  return std::move(writer.bytes());
}

// The kernel `bytes` hold, not yet loaded. FAILED_PRECONDITION for bytes
// of another plugin version or target, INVALID_ARGUMENT for bytes that are
// not a kernel.
StatusOr<std::unique_ptr<phal_plugin_kernel>> Decode(const Device& device,
                                                     std::string_view bytes) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    return InvalidArgument("nvidia plugin: the bytes are not a kernel");
  }
  Reader reader(bytes.substr(kMagic.size()));
  std::string_view version, target, name, image;
  if (!reader.Bytes(&version) || !reader.Bytes(&target) ||
      !reader.Bytes(&name)) {
    return InvalidArgument("nvidia plugin: the kernel's bytes are truncated");
  }
  if (version != PHAL_PLUGIN_VERSION) {
    return FailedPrecondition(
        "nvidia plugin: the kernel was serialized by plugin version " +
        std::string(version) + ", this is " + PHAL_PLUGIN_VERSION);
  }
  if (target != TargetName(device)) {
    return FailedPrecondition("nvidia plugin: the kernel was compiled for " +
                              std::string(target) + ", the device runs " +
                              TargetName(device));
  }
  auto kernel = std::make_unique<phal_plugin_kernel>(device);
  kernel->name = std::string(name);
  llvm_emitter::SpmdLaunch& launch = kernel->launch;
  bool ok = true;
  for (uint32_t d = 0; ok && d < 3; ++d) ok = reader.U32(&launch.grid[d]);
  for (uint32_t d = 0; ok && d < 3; ++d) ok = reader.U32(&launch.block[d]);
  uint64_t count = 0;
  ok = ok && reader.U32(&launch.shared_bytes) &&
       reader.U64(&launch.scratch_bytes) && reader.U64(&count) && count <= 4096;
  for (uint64_t i = 0; ok && i < count; ++i) {
    uint64_t value = 0;
    ok = reader.U64(&value);
    kernel->buffer_bytes.push_back(value);
  }
  ok = ok && reader.Bytes(&image) && reader.done() && !image.empty();
  if (!ok) {
    return InvalidArgument("nvidia plugin: the kernel's bytes are corrupt");
  }
  kernel->image = std::string(image);
  return kernel;
}

// `kernel` as PTX for compute capability `capability`, and its launch.
StatusOr<std::pair<std::string, llvm_emitter::SpmdLaunch>> CompileToPtx(
    const phal_kernel_desc_t& kernel, int capability) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<llvm_emitter::NvptxTarget> target,
                        llvm_emitter::NvptxTarget::Create(static_cast<unsigned>(
                            std::min(capability, kNewestTargetCapability))));
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(llvm_emitter::SpmdKernel emitted,
                        llvm_emitter::EmitSpmdKernel(kernel, *target, context));
  PHAL_ASSIGN_OR_RETURN(std::string ptx, target->CompileToPtx(*emitted.module));
  return std::make_pair(std::move(ptx), emitted.launch);
}

// The kernel compiled for `device`, serialized.
StatusOr<std::string> Compile(const Device& device,
                              const phal_kernel_desc_t& desc,
                              const std::string& target) {
  auto kernel = std::make_unique<phal_plugin_kernel>(device);
  kernel->name = desc.name != nullptr ? desc.name : "kernel";
  for (uint32_t b = 0; b < desc.buffer_count; ++b) {
    kernel->buffer_bytes.push_back(BufferByteSize(desc.buffers[b]));
  }
  if (device.info().emulated) {
    PHAL_ASSIGN_OR_RETURN(EmulatedKernelImage compiled,
                          CompileForEmulator(desc));
    kernel->image = std::move(compiled.image);
    kernel->launch = compiled.launch;
  } else {
    PHAL_ASSIGN_OR_RETURN(auto compiled,
                          CompileToPtx(desc, device.info().compute_capability));
    kernel->image = std::move(compiled.first);
    kernel->launch = compiled.second;
  }
  return Encode(*kernel, target);
}

// Serialized kernels by cache key, for the process's life: a kernel the
// core emits again (another executable of the same model, another
// device of the same target) is not compiled again.
struct MemoryCache {
  std::mutex mutex;
  std::map<uint64_t, std::shared_ptr<const std::string>> entries;
};

MemoryCache& Compiled() {
  static MemoryCache* cache = new MemoryCache();
  return *cache;
}

StatusOr<std::shared_ptr<const std::string>> FindOrCompile(
    const Device& device, const phal_kernel_desc_t& desc) {
  const std::string target = TargetName(device);
  const uint64_t key =
      MixBits(Fnv1a(target + "|" + BuildIdentity(PHAL_PLUGIN_VERSION),
                    llvm_emitter::KernelFingerprint(desc)));
  MemoryCache& memory = Compiled();
  {
    std::lock_guard<std::mutex> lock(memory.mutex);
    if (auto found = memory.entries.find(key); found != memory.entries.end()) {
      return found->second;
    }
  }
  std::optional<std::string> bytes = device.disk_cache().Load(key);
  if (!bytes.has_value() || !Decode(device, *bytes).ok()) {
    PHAL_ASSIGN_OR_RETURN(std::string compiled, Compile(device, desc, target));
    device.disk_cache().Store(key, compiled);
    bytes = std::move(compiled);
  }
  auto shared = std::make_shared<const std::string>(std::move(*bytes));
  std::lock_guard<std::mutex> lock(memory.mutex);
  return memory.entries.emplace(key, std::move(shared)).first->second;
}

// The kernel's PTX as <kernel>.ptx in the options' dump directory; for the
// emulated device, whose image is a host object, the PTX an sm_90 GPU
// would run, compiled for the dump only.
Status Dump(const CompiledKernel& kernel, const phal_kernel_desc_t& desc,
            const phal_kernel_options_t* options) {
  const std::string_view directory = KernelDumpDirectory(options);
  if (directory.empty()) return OkStatus();
  if (!kernel.device.info().emulated) {
    return WriteKernelDump(directory, kernel.name, "ptx", kernel.image);
  }
  PHAL_ASSIGN_OR_RETURN(auto compiled,
                        CompileToPtx(desc, kEmulatedComputeCapability));
  return WriteKernelDump(directory, kernel.name, "ptx", compiled.first);
}

Status Emit(const Device& device, const phal_kernel_desc_t* desc,
            const phal_kernel_options_t* options, phal_plugin_kernel_t** out) {
  if (desc == nullptr) return InvalidArgument("nvidia plugin: kernel is NULL");
  PHAL_RETURN_IF_ERROR(
      CheckKernelKind(*desc, SupportedKernelKinds(), "the nvidia plugin"));
  PHAL_RETURN_IF_ERROR(CheckKernelStructure(*desc));
  PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const std::string> bytes,
                        FindOrCompile(device, *desc));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_plugin_kernel> kernel,
                        Decode(device, *bytes));
  // The fingerprint leaves the name out: the cached kernel may carry
  // another kernel's.
  kernel->name = desc->name != nullptr ? desc->name : "kernel";
  PHAL_RETURN_IF_ERROR(Dump(*kernel, *desc, options));
  PHAL_RETURN_IF_ERROR(kernel->Load());
  *out = kernel.release();
  return OkStatus();
}

Status Launch(Stream& stream, const CompiledKernel& kernel,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  if (buffer_count != kernel.buffer_bytes.size()) {
    return InvalidArgument("nvidia plugin: kernel " + kernel.name + " binds " +
                           std::to_string(kernel.buffer_bytes.size()) +
                           " buffers, the launch gave " +
                           std::to_string(buffer_count));
  }
  if (&stream.device() != &kernel.device) {
    return InvalidArgument("nvidia plugin: kernel " + kernel.name +
                           " launched on a stream of another device");
  }
  const llvm_emitter::SpmdLaunch& launch = kernel.launch;
  if (launch.grid[0] == 0 || launch.grid[1] == 0 || launch.grid[2] == 0) {
    return OkStatus();
  }
  LaunchRequest request;
  request.function = kernel.function;
  for (uint32_t d = 0; d < 3; ++d) {
    request.grid[d] = launch.grid[d];
    request.block[d] = launch.block[d];
  }
  for (uint32_t i = 0; i < buffer_count; ++i) {
    const Buffer& buffer = *buffers[i]->buffer;
    PHAL_RETURN_IF_ERROR(buffer.CheckRange(0, kernel.buffer_bytes[i]));
    if (&buffer.device() != &kernel.device) {
      return InvalidArgument("nvidia plugin: kernel " + kernel.name +
                             " launched with buffer " + std::to_string(i) +
                             " of another device");
    }
    request.arguments.push_back(buffer.address());
  }
  std::unique_ptr<Buffer> scratch;
  if (launch.scratch_bytes > 0) {
    PHAL_ASSIGN_OR_RETURN(scratch,
                          Buffer::Create(kernel.device, launch.scratch_bytes));
  }
  return stream.Launch(request, std::move(scratch));
}

}  // namespace

uint64_t SupportedKernelKinds() {
  return llvm_emitter::SpmdSupportedKernelKinds();
}

CompiledKernel::~CompiledKernel() {
  if (module == nullptr) return;
  ScopedContext scope(device);
  if (scope.status().ok()) device.cuda().cuModuleUnload(module);
}

Status CompiledKernel::Load() {
  // A compile-only device has no driver to load into: its kernels exist to
  // be serialized.
  if (device.compile_only()) return OkStatus();
  ScopedContext scope(device);
  PHAL_RETURN_IF_ERROR(scope.status());
  // The driver's PTX compiler explains a refusal in its error log.
  char error_log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  const CUresult loaded = device.cuda().cuModuleLoadDataEx(
      &module, image.c_str(), 2, options, values);
  if (loaded != CUDA_SUCCESS) {
    module = nullptr;
    const Status status =
        device.Check(loaded, "cuModuleLoadDataEx of kernel " + name);
    if (error_log[0] == '\0') return status;
    return Status(status.code(), status.message() + ": " + error_log);
  }
  return device.Check(device.cuda().cuModuleGetFunction(
                          &function, module, llvm_emitter::kKernelSymbol),
                      "cuModuleGetFunction of kernel " + name);
}

phal_status_t* KernelEmit(phal_plugin_device_t* device,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t* options,
                          phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary(
      [&] { return Emit(*device, kernel, options, out_kernel); });
}

void KernelDestroy(phal_plugin_kernel_t* kernel) noexcept { delete kernel; }

phal_status_t* KernelSerialize(phal_plugin_kernel_t* kernel, void** out_data,
                               uint64_t* out_size) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const std::string bytes = Encode(*kernel, TargetName(kernel->device));
    void* data = HostAllocate(bytes.size(), alignof(std::max_align_t));
    if (data == nullptr) {
      return ResourceExhausted("nvidia plugin: no host memory for " +
                               std::to_string(bytes.size()) +
                               " bytes of serialized kernel");
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
    if (data == nullptr) {
      return InvalidArgument("nvidia plugin: kernel_deserialize got no data");
    }
    PHAL_ASSIGN_OR_RETURN(
        std::unique_ptr<phal_plugin_kernel> kernel,
        Decode(*device, std::string_view(static_cast<const char*>(data),
                                         static_cast<size_t>(size))));
    PHAL_RETURN_IF_ERROR(kernel->Load());
    *out_kernel = kernel.release();
    return OkStatus();
  });
}

phal_status_t* StreamLaunch(phal_plugin_stream_t* stream,
                            phal_plugin_kernel_t* kernel,
                            phal_plugin_buffer_t* const* buffers,
                            uint32_t buffer_count) noexcept {
  return RunAtAbiBoundary(
      [&] { return Launch(*stream, *kernel, buffers, buffer_count); });
}

}  // namespace phal::nvidia
