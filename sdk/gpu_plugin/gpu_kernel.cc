#include "sdk/gpu_plugin/gpu_kernel.h"

#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sdk/base/hash.h"
#include "sdk/emitters/llvm/kernel_fingerprint.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/gpu_plugin/gpu_memory.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/gpu_plugin/gpu_stream.h"
#include "sdk/kir/facts.h"
#include "sdk/plugin_support/build_identity.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::gpu_plugin {
namespace {

using llvm_emitter::SpmdLaunch;

// The serialized form, which the disk cache stores too: the vendor's magic,
// the plugin version, the target, the name, the launch, the bindings'
// sizes and the image, as little-endian u64 words, strings as a length +
// bytes.
void PutU64(std::string& out, uint64_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

void PutBytes(std::string& out, std::string_view bytes) {
  PutU64(out, bytes.size());
  out.append(bytes);
}

bool TakeU64(std::string_view& in, uint64_t* value) {
  if (in.size() < sizeof(*value)) return false;
  std::memcpy(value, in.data(), sizeof(*value));
  in.remove_prefix(sizeof(*value));
  return true;
}

bool TakeU32(std::string_view& in, uint32_t* value) {
  uint64_t wide = 0;
  if (!TakeU64(in, &wide) || wide > UINT32_MAX) return false;
  *value = static_cast<uint32_t>(wide);
  return true;
}

bool TakeBytes(std::string_view& in, std::string_view* bytes) {
  uint64_t size = 0;
  if (!TakeU64(in, &size) || size > in.size()) return false;
  *bytes = in.substr(0, size);
  in.remove_prefix(size);
  return true;
}

std::string TargetName(const Device& device) {
  return Vendor().target_name(device.info());
}

std::string Encode(const CompiledKernel& kernel) {
  std::string out(Vendor().serialization_magic);
  PutBytes(out, Vendor().version);
  PutBytes(out, TargetName(kernel.device));
  PutBytes(out, kernel.name);
  for (uint32_t d = 0; d < 3; ++d) PutU64(out, kernel.launch.grid[d]);
  for (uint32_t d = 0; d < 3; ++d) PutU64(out, kernel.launch.block[d]);
  PutU64(out, kernel.launch.shared_bytes);
  PutU64(out, kernel.launch.scratch_bytes);
  PutU64(out, kernel.buffer_bytes.size());
  for (uint64_t bytes : kernel.buffer_bytes) PutU64(out, bytes);
  PutBytes(out, kernel.image);
  return out;
}

// The kernel `bytes` hold, not yet loaded. FAILED_PRECONDITION for bytes
// of another plugin version or target, INVALID_ARGUMENT for bytes that are
// not a kernel.
StatusOr<std::unique_ptr<phal_plugin_kernel>> Decode(const Device& device,
                                                     std::string_view bytes) {
  const std::string_view magic = Vendor().serialization_magic;
  if (!bytes.starts_with(magic)) {
    return InvalidArgument(PluginMessage("the bytes are not a kernel"));
  }
  std::string_view in = bytes.substr(magic.size());
  std::string_view version, target, name, image;
  if (!TakeBytes(in, &version) || !TakeBytes(in, &target) ||
      !TakeBytes(in, &name)) {
    return InvalidArgument(PluginMessage("the kernel's bytes are truncated"));
  }
  if (version != Vendor().version) {
    return FailedPrecondition(
        PluginMessage("the kernel was serialized by plugin version " +
                      std::string(version) + ", this is " + Vendor().version));
  }
  if (target != TargetName(device)) {
    return FailedPrecondition(
        PluginMessage("the kernel was compiled for " + std::string(target) +
                      ", the device runs " + TargetName(device)));
  }
  auto kernel = std::make_unique<phal_plugin_kernel>(device);
  kernel->name = std::string(name);
  SpmdLaunch& launch = kernel->launch;
  bool ok = true;
  for (uint32_t d = 0; ok && d < 3; ++d) ok = TakeU32(in, &launch.grid[d]);
  for (uint32_t d = 0; ok && d < 3; ++d) ok = TakeU32(in, &launch.block[d]);
  uint64_t count = 0;
  ok = ok && TakeU32(in, &launch.shared_bytes) &&
       TakeU64(in, &launch.scratch_bytes) && TakeU64(in, &count) &&
       count <= 4096;
  for (uint64_t i = 0; ok && i < count; ++i) {
    uint64_t value = 0;
    ok = TakeU64(in, &value);
    kernel->buffer_bytes.push_back(value);
  }
  ok = ok && TakeBytes(in, &image) && in.empty() && !image.empty();
  if (!ok) {
    return InvalidArgument(PluginMessage("the kernel's bytes are corrupt"));
  }
  kernel->image = std::string(image);
  return kernel;
}

// The kernel compiled for `device`, serialized.
StatusOr<std::string> Compile(const Device& device,
                              const phal_kernel_desc_t& desc) {
  phal_plugin_kernel kernel(device);
  kernel.name = desc.name != nullptr ? desc.name : "kernel";
  for (uint32_t b = 0; b < desc.buffer_count; ++b) {
    kernel.buffer_bytes.push_back(BufferByteSize(desc.buffers[b]));
  }
  PHAL_ASSIGN_OR_RETURN(GpuImage compiled,
                        Vendor().compile(desc, device.info()));
  kernel.image = std::move(compiled.image);
  kernel.launch = compiled.launch;
  return Encode(kernel);
}

// Serialized kernels by cache key, for the process's life: a kernel the
// core emits again (another executable of the same model, another device
// of the same target) is not compiled again.
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
  const uint64_t key =
      MixBits(Fnv1a(TargetName(device) + "|" + BuildIdentity(Vendor().version),
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
    PHAL_ASSIGN_OR_RETURN(std::string compiled, Compile(device, desc));
    device.disk_cache().Store(key, compiled);
    bytes = std::move(compiled);
  }
  auto shared = std::make_shared<const std::string>(std::move(*bytes));
  std::lock_guard<std::mutex> lock(memory.mutex);
  return memory.entries.emplace(key, std::move(shared)).first->second;
}

Status Emit(const Device& device, const phal_kernel_desc_t* desc,
            const phal_kernel_options_t* options, phal_plugin_kernel_t** out) {
  if (desc == nullptr) return InvalidArgument(PluginMessage("kernel is NULL"));
  PHAL_RETURN_IF_ERROR(
      CheckKernelKind(*desc, SupportedKernelKinds(),
                      "the " + std::string(Vendor().name) + " plugin"));
  PHAL_RETURN_IF_ERROR(CheckKernelStructure(*desc));
  PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const std::string> bytes,
                        FindOrCompile(device, *desc));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_plugin_kernel> kernel,
                        Decode(device, *bytes));
  // The fingerprint leaves the name out: the cached kernel may carry
  // another kernel's.
  kernel->name = desc->name != nullptr ? desc->name : "kernel";
  const std::string_view dump_directory = KernelDumpDirectory(options);
  if (!dump_directory.empty()) {
    PHAL_RETURN_IF_ERROR(Vendor().dump(*desc, device.info(), kernel->image,
                                       dump_directory, kernel->name));
  }
  PHAL_RETURN_IF_ERROR(kernel->Load());
  *out = kernel.release();
  return OkStatus();
}

Status Launch(Stream& stream, const CompiledKernel& kernel,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  if (buffer_count != kernel.buffer_bytes.size()) {
    return InvalidArgument(PluginMessage(
        "kernel " + kernel.name + " binds " +
        std::to_string(kernel.buffer_bytes.size()) +
        " buffers, the launch gave " + std::to_string(buffer_count)));
  }
  if (&stream.device() != &kernel.device) {
    return InvalidArgument(PluginMessage(
        "kernel " + kernel.name + " launched on a stream of another device"));
  }
  const SpmdLaunch& launch = kernel.launch;
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
      return InvalidArgument(
          PluginMessage("kernel " + kernel.name + " launched with buffer " +
                        std::to_string(i) + " of another device"));
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

CompiledKernel::~CompiledKernel() {
  if (module == nullptr) return;
  ScopedDevice scope(device);
  if (scope.status().ok()) device.driver().UnloadModule(module);
}

Status CompiledKernel::Load() {
  if (device.compile_only()) return OkStatus();
  ScopedDevice scope(device);
  PHAL_RETURN_IF_ERROR(scope.status());
  PHAL_RETURN_IF_ERROR(device.driver().LoadModule(image, name, &module));
  return device.driver().GetFunction(module, llvm_emitter::kKernelSymbol, name,
                                     &function);
}

PHAL_DEFINE_KERNEL_SLOTS(PluginName())

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (data == nullptr) {
      return InvalidArgument(PluginMessage("kernel_deserialize got no data"));
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

}  // namespace phal::gpu_plugin
