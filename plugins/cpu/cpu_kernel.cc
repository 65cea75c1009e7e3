#include "plugins/cpu/cpu_kernel.h"
#include "plugins/cpu/cpu_plugin.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plugins/cpu/cpu_build_identity.h"
#include "plugins/cpu/cpu_fft.h"
#include "plugins/cpu/cpu_gemm.h"
#include "plugins/cpu/cpu_kernel_blob.h"
#include "plugins/cpu/cpu_kernel_cache.h"
#include "plugins/cpu/cpu_linalg.h"
#include "plugins/cpu/cpu_memory.h"
#include "plugins/cpu/cpu_scratch.h"
#include "plugins/cpu/cpu_stream.h"
#include "sdk/base/hash.h"
#include "sdk/emitters/llvm/kernel_emitter.h"
#include "sdk/emitters/llvm/kernel_fingerprint.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/printer.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::cpu {

// Scalar iterations up to which a launch on an idle stream runs on the
// launching thread (Stream::RunIfIdle): about what the two thread wake-ups
// of a queued launch cost, which a while loop's small kernels would pay on
// every iteration.
constexpr int64_t kInlineWork = int64_t{1} << 16;
namespace {

// Buffers up to which a kernel run on the launching thread takes their
// addresses from the stack.
constexpr uint32_t kInlineBuffers = 32;

// Scalar iterations below which splitting a range costs more than it saves.
constexpr int64_t kMinimumWorkPerTask = int64_t{1} << 14;

std::string KernelName(const phal_kernel_desc_t& kernel) {
  return kernel.name != nullptr ? kernel.name : "";
}

void LogDebug(const std::string& message) {
  Log(PHAL_LOG_LEVEL_DEBUG, message.c_str());
}

// The cache key: the same KIR for another target, plugin build or
// optimisation level is a different kernel.
uint64_t CacheKey(uint64_t fingerprint, const JitTarget& target,
                  unsigned optimization_level) {
  uint64_t key = Fnv1a(target.triple, fingerprint);
  key = Fnv1a(target.features, key);
  key = Fnv1a(PluginBuildIdentity(), key);
  return Fnv1a(std::to_string(optimization_level), key);
}

// Whether the plugin runs a kernel of `kind` itself (FFT, LINALG) rather
// than compiling code for it.
bool RunsItself(uint32_t kind) {
  return kind == PHAL_KERNEL_KIND_FFT || kind == PHAL_KERNEL_KIND_LINALG;
}

// `blob`, decoded from `bytes`, with its code loaded (an FFT kernel's plans
// built, a LINALG kernel's routines found).
StatusOr<std::shared_ptr<const LinkedKernel>> Link(
    const KernelBlob& blob, std::shared_ptr<const std::string> bytes) {
  const auto kind = static_cast<uint32_t>(blob.plan.kind);
  if (kind == PHAL_KERNEL_KIND_FFT) {
    return std::make_shared<const LinkedKernel>(
        LinkedKernel{blob.name, blob.plan, std::move(bytes), nullptr,
                     FftKernel::Create(blob.fft), nullptr});
  }
  if (kind == PHAL_KERNEL_KIND_LINALG) {
    return std::make_shared<const LinkedKernel>(
        LinkedKernel{blob.name, blob.plan, std::move(bytes), nullptr, nullptr,
                     LinalgKernel::Create(blob.linalg)});
  }
  PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const LoadedKernel> code,
                        LoadKernel(blob.object));
  return std::make_shared<const LinkedKernel>(
      LinkedKernel{blob.name, blob.plan, std::move(bytes), std::move(code),
                   nullptr, nullptr});
}

// A kernel of `device` running `linked`.
std::unique_ptr<phal_plugin_kernel> NewKernel(
    const Device& device, std::shared_ptr<const LinkedKernel> linked) {
  auto kernel = std::make_unique<phal_plugin_kernel>(std::move(linked));
  kernel->device = &device;
  return kernel;
}

// `kernel` linked, from the memory cache, the disk cache, or a fresh
// compile, in that order.
StatusOr<std::shared_ptr<const LinkedKernel>> FindOrCompile(
    const Device& device, const phal_kernel_desc_t& kernel,
    unsigned optimization_level, const JitTarget& target) {
  const std::string label = "cpu plugin: kernel '" + KernelName(kernel) + "'";
  const uint64_t fingerprint = llvm_emitter::KernelFingerprint(kernel);
  const uint64_t key = CacheKey(fingerprint, target, optimization_level);
  KernelCache& cache = device.kernel_cache();
  if (auto found = cache.FindInMemory(key)) {
    LogDebug(label + " found in the memory cache");
    return found;
  }
  if (std::optional<std::string> bytes = cache.FindOnDisk(key)) {
    StatusOr<KernelBlob> decoded = DecodeKernelBlob(*bytes, target);
    if (decoded.ok() && decoded->fingerprint == fingerprint) {
      LogDebug(label + " found in the disk cache " + cache.PathFor(key));
      PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const LinkedKernel> linked,
                            Link(*decoded, std::make_shared<const std::string>(
                                               std::move(*bytes))));
      return cache.Store(key, std::move(linked), false);
    }
    LogDebug(label + " ignores the stale disk cache entry " +
             cache.PathFor(key));
  }
  PHAL_ASSIGN_OR_RETURN(CompiledKernel compiled,
                        CompileKernel(kernel, optimization_level));
  LogDebug(label + " compiled");
  KernelBlob blob{fingerprint,           target,
                  PluginBuildIdentity(), KernelName(kernel),
                  compiled.plan,         FftShape{},
                  LinalgShape{},         std::move(compiled.object)};
  PHAL_ASSIGN_OR_RETURN(
      std::shared_ptr<const LinkedKernel> linked,
      Link(blob, std::make_shared<const std::string>(EncodeKernelBlob(blob))));
  return cache.Store(key, std::move(linked), true);
}

// An FFT or LINALG kernel: nothing to compile. Its blob holds its shape;
// its plans (or routines) are set up here (and again by
// kernel_deserialize) and shared, through the memory cache, by every
// kernel emitted from the same KIR.
StatusOr<std::shared_ptr<const LinkedKernel>> PlanOwnKernel(
    const Device& device, const phal_kernel_desc_t& kernel,
    const phal_kernel_options_t* options, const JitTarget& target) {
  if (Status checked = CheckKernelStructure(kernel); !checked.ok()) {
    return Status(checked.code(), "cpu plugin: " + checked.message());
  }
  if (std::string_view dump = KernelDumpDirectory(options); !dump.empty()) {
    PHAL_RETURN_IF_ERROR(
        WriteKernelDump(dump, KernelName(kernel), "kir", KernelToText(kernel)));
  }
  const uint64_t fingerprint = llvm_emitter::KernelFingerprint(kernel);
  const uint64_t key = CacheKey(fingerprint, target, 0);
  KernelCache& cache = device.kernel_cache();
  if (auto found = cache.FindInMemory(key)) return found;
  KernelBlob blob;
  blob.fingerprint = fingerprint;
  blob.target = target;
  blob.plugin_version = PluginBuildIdentity();
  blob.name = KernelName(kernel);
  blob.plan.kind = kernel.kind;
  blob.plan.buffer_count = kernel.buffer_count;
  // One unit of all the kernel's work, so that a launch sizes it (and runs
  // a small one on an idle stream's caller).
  blob.plan.split_extent = 1;
  std::shared_ptr<const FftKernel> fft;
  std::shared_ptr<const LinalgKernel> linalg;
  if (KernelKindValue(kernel) == PHAL_KERNEL_KIND_FFT) {
    blob.fft = FftShapeOf(kernel);
    fft = FftKernel::Create(blob.fft);
    blob.plan.work_per_split = fft->work();
  } else {
    blob.linalg = LinalgShapeOf(kernel);
    linalg = LinalgKernel::Create(blob.linalg);
    blob.plan.work_per_split = linalg->work();
  }
  auto linked = std::make_shared<const LinkedKernel>(
      LinkedKernel{blob.name, blob.plan,
                   std::make_shared<const std::string>(EncodeKernelBlob(blob)),
                   nullptr, std::move(fft), std::move(linalg)});
  return cache.Store(key, std::move(linked), false);
}

Status Emit(const Device& device, const phal_kernel_desc_t* kernel,
            const phal_kernel_options_t* options,
            phal_plugin_kernel_t** out_kernel) {
  if (kernel == nullptr || out_kernel == nullptr) {
    return InvalidArgument(
        "cpu plugin: kernel_emit needs a kernel and out_kernel");
  }
  if (RunsItself(KernelKindValue(*kernel))) {
    PHAL_ASSIGN_OR_RETURN(JitTarget target, HostJitTarget());
    PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const LinkedKernel> linked,
                          PlanOwnKernel(device, *kernel, options, target));
    *out_kernel = NewKernel(device, std::move(linked)).release();
    return OkStatus();
  }
  if (Status checked = llvm_emitter::CheckKernel(*kernel); !checked.ok()) {
    return Status(checked.code(), "cpu plugin: " + checked.message());
  }
  unsigned optimization_level = 3;
  if (options != nullptr &&
      options->struct_size >=
          PHAL_STRUCT_SIZE(phal_kernel_options_t, optimization_level)) {
    optimization_level = std::min<uint32_t>(options->optimization_level, 3);
  }
  if (std::string_view dump = KernelDumpDirectory(options); !dump.empty()) {
    std::string ir;
    PHAL_RETURN_IF_ERROR(
        CompileKernel(*kernel, optimization_level, &ir).status());
    PHAL_RETURN_IF_ERROR(WriteKernelDump(dump, KernelName(*kernel), "ll", ir));
  }
  PHAL_ASSIGN_OR_RETURN(JitTarget target, HostJitTarget());
  PHAL_ASSIGN_OR_RETURN(
      std::shared_ptr<const LinkedKernel> linked,
      FindOrCompile(device, *kernel, optimization_level, target));
  *out_kernel = NewKernel(device, std::move(linked)).release();
  return OkStatus();
}

}  // namespace

uint64_t CompiledKernelKinds() {
  return llvm_emitter::SupportedKernelKinds() |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LINALG);
}

Status Kernel::Run(std::span<void* const> buffers, ThreadPool& pool) const {
  if (linked_->fft != nullptr) return linked_->fft->Run(buffers.data(), pool);
  if (linked_->linalg != nullptr) {
    return linked_->linalg->Run(buffers.data(), pool);
  }
  // The sums are left uninitialised: the GEMM, or the kernel's own row
  // sums, write every one before it is read. They live in the running
  // thread's scratch, so neither a loop's small dots nor a large GEMM
  // allocates (and faults in) memory on every launch.
  const Scratch sum_scratch(ScratchSlot::kSums,
                            static_cast<size_t>(plan().dot_sums_bytes));
  double* sums = sum_scratch.As<double>();
  if (plan().gemm.type != PHAL_ELEMENT_TYPE_INVALID) {
    RunGemm(plan().gemm, buffers.data(), sums, pool);
  }
  if (plan().conv_gemm.type != PHAL_ELEMENT_TYPE_INVALID) {
    RunConvGemm(plan().conv_gemm, buffers.data(), sums, pool);
  }
  const int64_t grain =
      kMinimumWorkPerTask / std::max<int64_t>(1, plan().work_per_split);
  const llvm_emitter::KernelFunction function = linked_->code->function;
  void* dot_sums = sums;
  // Work that a thread wake-up outweighs runs on this thread alone.
  if (plan().split_extent * plan().work_per_split <= kInlineWork) {
    if (plan().split_extent > 0) {
      function(buffers.data(), 0, plan().split_extent, dot_sums);
    }
    return OkStatus();
  }
  pool.ParallelFor(plan().split_extent, grain, [&](int64_t begin, int64_t end) {
    function(buffers.data(), begin, end, dot_sums);
  });
  return OkStatus();
}

namespace {

const std::string& Encode(const phal_plugin_kernel& kernel) {
  return kernel.blob();
}

Status Launch(Stream& stream, const phal_plugin_kernel& kernel,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  if (buffer_count != kernel.plan().buffer_count) {
    return InvalidArgument("cpu plugin: kernel '" + kernel.name() + "' binds " +
                           std::to_string(kernel.plan().buffer_count) +
                           " buffers, not " + std::to_string(buffer_count));
  }
  ThreadPool& pool = kernel.device->thread_pool();
  // A small kernel on an idle stream runs here: two thread wake-ups cost
  // more than its work.
  const llvm_emitter::LaunchPlan& plan = kernel.plan();
  if (plan.split_extent * plan.work_per_split <= kInlineWork &&
      buffer_count <= kInlineBuffers) {
    std::array<void*, kInlineBuffers> addresses;
    for (uint32_t i = 0; i < buffer_count; ++i) {
      addresses[i] = buffers[i]->data();
    }
    if (stream.RunIfIdle([&] {
          return kernel.Run({addresses.data(), buffer_count}, pool);
        })) {
      return OkStatus();
    }
  }
  std::vector<void*> addresses;
  for (uint32_t i = 0; i < buffer_count; ++i) {
    addresses.push_back(buffers[i]->data());
  }
  const phal_plugin_kernel* launched = &kernel;
  const bool small = plan.split_extent * plan.work_per_split <= kInlineWork;
  stream.Enqueue([launched, addresses = std::move(addresses),
                  &pool]() { return launched->Run(addresses, pool); },
                 small);
  return OkStatus();
}

}  // namespace

PHAL_DEFINE_KERNEL_SLOTS("cpu plugin")

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (data == nullptr && size != 0) {
      return InvalidArgument("cpu plugin: kernel_deserialize got no data");
    }
    PHAL_ASSIGN_OR_RETURN(JitTarget target, HostJitTarget());
    auto bytes = std::make_shared<const std::string>(
        static_cast<const char*>(data), static_cast<size_t>(size));
    PHAL_ASSIGN_OR_RETURN(KernelBlob blob, DecodeKernelBlob(*bytes, target));
    PHAL_ASSIGN_OR_RETURN(std::shared_ptr<const LinkedKernel> linked,
                          Link(blob, std::move(bytes)));
    *out_kernel = NewKernel(*device, std::move(linked)).release();
    return OkStatus();
  });
}

}  // namespace phal::cpu
