#include "sdk/emitters/llvm/grid/grid_device.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <tuple>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/device/device_library.h"
#include "sdk/emitters/llvm/grid/grid_emulator_target.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"

namespace phal::llvm_emitter::grid {
namespace {

// Allocations this large map pages of their own, which munmap returns to
// the system at once: from malloc's heap, freed 4 MiB blocks stay resident
// (aligned allocations fragment it), and device memory that is freed must
// not stay in the process.
constexpr uint64_t kMappedAllocationBytes = uint64_t{1} << 20;

uint64_t RoundUp(uint64_t bytes) {
  return (bytes + GridDeviceMemory::kAlignment - 1) /
         GridDeviceMemory::kAlignment * GridDeviceMemory::kAlignment;
}

void* MapOrAllocate(uint64_t bytes) {
  if (bytes < kMappedAllocationBytes) {
    return std::aligned_alloc(GridDeviceMemory::kAlignment, bytes);
  }
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? nullptr : memory;
}

void UnmapOrFree(void* memory, uint64_t bytes) {
  if (bytes < kMappedAllocationBytes) {
    std::free(memory);
  } else {
    munmap(memory, bytes);
  }
}

// The image: kMagic, then the header's words (u64, host order: an image
// never leaves the process that compiled it but through the plugin's own
// serialization, which checks the target), then the object.
constexpr std::string_view kMagic = "PHALGRD3";
enum HeaderWord : size_t {
  kObjectBytes,
  kBufferCount,
  kGridX,
  kBlockX = kGridX + 3,
  kSharedBytes = kBlockX + 3,
  kScratchBytes,
  kWarpSize,
  kMaxBlockSize,
  kMaxSharedBytes,
  kChecked,  // 1: compiled for checking mode
  kHeaderWords,
};
constexpr size_t kHeaderBytes = kMagic.size() + kHeaderWords * 8;
constexpr unsigned kOptimizationLevel = 3;

// One target per set of limits for the process: targets are immutable,
// and creating one sets up LLVM's host backend.
StatusOr<const GridEmulatorTarget*> TargetFor(const GridLimits& limits) {
  using Key = std::tuple<unsigned, unsigned, uint64_t>;
  static std::mutex mutex;
  static auto* targets =
      new std::map<Key, std::unique_ptr<GridEmulatorTarget>>();
  const Key key{limits.warp_size, limits.max_block_size,
                limits.max_shared_bytes};
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = targets->find(key); found != targets->end()) {
    return found->second.get();
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<GridEmulatorTarget> target,
                        GridEmulatorTarget::Create(limits));
  return targets->emplace(key, std::move(target)).first->second.get();
}

uint64_t CheckingSeed() {
  const char* seed = std::getenv("PHAL_GRID_CHECK_SEED");
  return seed != nullptr ? std::strtoull(seed, nullptr, 10) : 0;
}

}  // namespace

GridDeviceMemory::~GridDeviceMemory() {
  for (const auto& [address, bytes] : sizes_) {
    UnmapOrFree(reinterpret_cast<void*>(address), RoundUp(bytes));
  }
}

uint64_t GridDeviceMemory::CapacityBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{1} << 32;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

StatusOr<void*> GridDeviceMemory::Allocate(uint64_t bytes) {
  if (bytes == 0) {
    return InvalidArgument("grid device: an allocation of 0 bytes");
  }
  void* memory = MapOrAllocate(RoundUp(bytes));
  if (memory == nullptr) {
    return ResourceExhausted("grid device: no host memory for " +
                             std::to_string(bytes) + " bytes");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  sizes_[reinterpret_cast<uintptr_t>(memory)] = bytes;
  return memory;
}

Status GridDeviceMemory::Free(void* address) {
  uint64_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = sizes_.find(reinterpret_cast<uintptr_t>(address));
    if (found == sizes_.end()) {
      return NotFound(
          "grid device: a free of an address the device did not allocate");
    }
    bytes = found->second;
    sizes_.erase(found);
  }
  UnmapOrFree(address, RoundUp(bytes));
  return OkStatus();
}

uint64_t GridDeviceMemory::BytesFrom(const void* address) const {
  const uintptr_t at = reinterpret_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(mutex_);
  auto after = sizes_.upper_bound(at);
  if (after == sizes_.begin()) return 0;
  const auto& [begin, bytes] = *std::prev(after);
  return at < begin + bytes ? begin + bytes - at : 0;
}

bool GridCheckingRequested() {
  const char* check = std::getenv("PHAL_GRID_CHECK");
  return check != nullptr && std::string_view(check) == "1";
}

StatusOr<GridDeviceImage> CompileGridDeviceImage(
    const phal_kernel_desc_t& kernel, const GridLimits& limits) {
  PHAL_ASSIGN_OR_RETURN(const GridEmulatorTarget* target, TargetFor(limits));
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(SpmdKernel emitted,
                        EmitSpmdKernel(kernel, *target, context));
  const bool check = GridCheckingRequested();
  PHAL_ASSIGN_OR_RETURN(
      std::string object,
      target->Compile(*emitted.module, kOptimizationLevel, check));
  const SpmdLaunch& launch = emitted.launch;
  uint64_t header[kHeaderWords] = {};
  header[kObjectBytes] = object.size();
  header[kBufferCount] = kernel.buffer_count;
  for (size_t d = 0; d < 3; ++d) {
    header[kGridX + d] = launch.grid[d];
    header[kBlockX + d] = launch.block[d];
  }
  header[kSharedBytes] = launch.shared_bytes;
  header[kScratchBytes] = launch.scratch_bytes;
  header[kWarpSize] = limits.warp_size;
  header[kMaxBlockSize] = limits.max_block_size;
  header[kMaxSharedBytes] = limits.max_shared_bytes;
  header[kChecked] = check ? 1 : 0;
  GridDeviceImage image;
  image.launch = launch;
  image.image.reserve(kHeaderBytes + object.size());
  image.image.append(kMagic);
  image.image.append(reinterpret_cast<const char*>(header), sizeof(header));
  image.image.append(object);
  return image;
}

StatusOr<std::unique_ptr<GridDeviceModule>> GridDeviceModule::Load(
    const void* image, std::string_view gpu_code) {
  const char* bytes = static_cast<const char*>(image);
  if (bytes == nullptr ||
      std::memcmp(bytes, kMagic.data(), kMagic.size()) != 0) {
    return InvalidArgument(
        "the image is not a kernel compiled for the grid emulator (" +
        std::string(gpu_code) + " run on GPUs only)");
  }
  uint64_t header[kHeaderWords];
  std::memcpy(header, bytes + kMagic.size(), sizeof(header));
  std::unique_ptr<GridDeviceModule> module(new GridDeviceModule());
  module->buffer_count_ = header[kBufferCount];
  for (size_t d = 0; d < 3; ++d) {
    module->launch_.grid[d] = static_cast<uint32_t>(header[kGridX + d]);
    module->launch_.block[d] = static_cast<uint32_t>(header[kBlockX + d]);
  }
  module->launch_.shared_bytes = static_cast<uint32_t>(header[kSharedBytes]);
  module->launch_.scratch_bytes = header[kScratchBytes];
  module->limits_.warp_size = static_cast<unsigned>(header[kWarpSize]);
  module->limits_.max_block_size = static_cast<unsigned>(header[kMaxBlockSize]);
  module->limits_.max_shared_bytes = header[kMaxSharedBytes];
  module->checked_ = header[kChecked] != 0;
  module->seed_ = CheckingSeed();
  if (GridCheckingRequested() && !module->checked_) {
    return FailedPrecondition(
        "PHAL_GRID_CHECK=1, but this kernel was compiled without checking "
        "(a cached one?): clear the kernel cache or set PHAL_CACHE_DIR=off");
  }
  const std::string_view object(bytes + kHeaderBytes, header[kObjectBytes]);
  PHAL_ASSIGN_OR_RETURN(
      module->kernel_,
      LoadGridKernel(object, kKernelSymbol, DeviceLibraryHostSymbols()));
  return module;
}

GridDeviceModule::~GridDeviceModule() {
  if (kernel_.entry != nullptr) UnloadGridKernel(kernel_);
}

Status GridDeviceModule::FindFunction(const char* name) const {
  if (name != nullptr && std::string_view(name) == kKernelSymbol) {
    return OkStatus();
  }
  return NotFound(std::string("the module defines ") + kKernelSymbol +
                  ", not " + (name != nullptr ? name : "(null)"));
}

Status GridDeviceModule::Run(const unsigned int grid[3],
                             const unsigned int block[3],
                             unsigned int dynamic_shared_bytes,
                             void* const* parameters,
                             const GridDeviceMemory& memory) const {
  if (dynamic_shared_bytes != 0) {
    return InvalidArgument(
        "the emulated kernels use static shared memory only");
  }
  SpmdLaunch launch = launch_;
  for (size_t d = 0; d < 3; ++d) {
    launch.grid[d] = grid[d];
    launch.block[d] = block[d];
  }
  std::vector<GridBuffer> buffers(buffer_count_);
  for (uint64_t i = 0; i < buffer_count_; ++i) {
    // A CUdeviceptr or a HIP device pointer: 8 bytes holding an address.
    uintptr_t address = 0;
    std::memcpy(&address, parameters[i], sizeof(address));
    buffers[i].data = reinterpret_cast<void*>(address);
    buffers[i].bytes = memory.BytesFrom(buffers[i].data);
  }
  GridOptions options;
  options.limits = limits_;
  options.check = checked_;
  options.seed = seed_;
  return RunGrid(kernel_.entry, launch, buffers, options);
}

}  // namespace phal::llvm_emitter::grid
