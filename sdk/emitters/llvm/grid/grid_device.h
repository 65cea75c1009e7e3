// An emulated GPU on the grid emulator: what the GPU plugins' emulated
// devices (PHAL_GPU_EMULATION=1) have in common below the vendor's API.
// The nvidia plugin implements the CUDA driver's entry points over it, the
// amd plugin HIP's; both then drive the emulated device through the code
// path a GPU takes.
//
// - Device memory is host memory: an address is a host address, and a map
//   of the live allocations refuses a free of anything else and bounds
//   each kernel argument to the allocation it points into.
// - A module image is one kernel the SPMD emitter compiled for the grid
//   emulator, with the device's limits written in: the warp size above all
//   (32 emulates NVIDIA's warps, 64 AMD's wave64), so a kernel always runs
//   with the lanes it was compiled for.
// - A loaded module is the image's object in the host JIT, its calls bound
//   to the device library's host build, run block by block by RunGrid.
// - With PHAL_GRID_CHECK=1 in the environment, kernels are compiled and run
//   in the emulator's checking mode (grid_emulator.h): every access bounds-
//   checked, shared-memory races and divergent barriers reported, threads
//   in an order shuffled from PHAL_GRID_CHECK_SEED (0 by default). A launch
//   that breaks a rule fails with the emulator's report. Images carry the
//   mode they were compiled in, and a checking process refuses unchecked
//   ones (from a kernel cache, say) rather than run them unchecked.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_DEVICE_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_DEVICE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/grid/grid_emulator.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::llvm_emitter::grid {

// The emulated device's memory. Thread-safe.
class GridDeviceMemory {
 public:
  // Every address Allocate returns is a multiple of this: the 256 bytes
  // cuMemAlloc and hipMalloc promise.
  static constexpr uint64_t kAlignment = 256;

  GridDeviceMemory() = default;
  // Frees what is still allocated.
  ~GridDeviceMemory();
  GridDeviceMemory(const GridDeviceMemory&) = delete;
  GridDeviceMemory& operator=(const GridDeviceMemory&) = delete;

  // The host's physical memory, which the emulated device reports as its
  // own.
  static uint64_t CapacityBytes();

  // `bytes` of host memory. INVALID_ARGUMENT for 0 (the drivers refuse it
  // too), RESOURCE_EXHAUSTED when the host has no more.
  StatusOr<void*> Allocate(uint64_t bytes);
  // NOT_FOUND for an address Allocate did not return or that was freed.
  Status Free(void* address);
  // The bytes from `address` to the end of the live allocation holding
  // it; 0 for an address outside every one.
  uint64_t BytesFrom(const void* address) const;

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, uint64_t> sizes_;
};

// A kernel compiled for an emulated device: the module image its module
// loader takes (self-describing, since cuModuleLoadDataEx and
// hipModuleLoadData are given no size) and the launch the emitter chose.
struct GridDeviceImage {
  std::string image;
  SpmdLaunch launch;
};

// Emits `kernel` with the SPMD emitter for a grid emulator with `limits`
// and compiles it for the host CPU at O3. The emitter's errors pass
// through (UNIMPLEMENTED for a kind, op or type it lacks).
StatusOr<GridDeviceImage> CompileGridDeviceImage(
    const phal_kernel_desc_t& kernel, const GridLimits& limits);

// Whether PHAL_GRID_CHECK asks for checking mode.
bool GridCheckingRequested();

// A loaded module. Immutable: launched from many threads at once.
class GridDeviceModule {
 public:
  // INVALID_ARGUMENT for bytes CompileGridDeviceImage did not make (a
  // GPU's code object, PTX), naming `gpu_code` ("PTX and cubins") as what
  // only a GPU runs; a failure of the host JIT passes through.
  static StatusOr<std::unique_ptr<GridDeviceModule>> Load(
      const void* image, std::string_view gpu_code);
  ~GridDeviceModule();
  GridDeviceModule(const GridDeviceModule&) = delete;
  GridDeviceModule& operator=(const GridDeviceModule&) = delete;

  // OK when the module defines a function called `name` (its one kernel,
  // launch_plan.h's kKernelSymbol); NOT_FOUND naming both otherwise.
  Status FindFunction(const char* name) const;

  // Runs the kernel over `grid` blocks of `block` threads and returns when
  // it has finished. parameters[i] points at the device address of the
  // i-th buffer, as cuLaunchKernel's and hipModuleLaunchKernel's
  // kernelParams do; a scratch buffer after the buffers is not used (the
  // emulator gives each launch its own). Each buffer extends to the end of
  // its allocation in `memory`. INVALID_ARGUMENT for dynamic shared
  // memory (the kernels use static shared memory only) and for a launch
  // beyond the limits the kernel was compiled with; RunGrid's errors
  // otherwise.
  Status Run(const unsigned int grid[3], const unsigned int block[3],
             unsigned int dynamic_shared_bytes, void* const* parameters,
             const GridDeviceMemory& memory) const;

  const GridLimits& limits() const { return limits_; }

 private:
  GridDeviceModule() = default;

  GridKernel kernel_;
  bool checked_ = false;
  uint64_t seed_ = 0;  // checking mode's thread order, read once at load
  SpmdLaunch launch_;
  GridLimits limits_;
  uint64_t buffer_count_ = 0;
};

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_DEVICE_H_
