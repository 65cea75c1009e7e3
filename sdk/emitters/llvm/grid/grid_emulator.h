// The grid emulator: runs a GPU-shaped kernel, compiled for the host by
// GridEmulatorTarget (grid_emulator_target.h), over a grid of blocks of
// threads on the host CPU. Blocks spread over a pool of host threads; the
// threads of one block are fibers on one host thread, switched at barriers
// and warp shuffles; each block has its own shared memory.
//
// In checking mode (a kernel compiled with check = true, run with
// GridOptions::check) the threads of a block run in an order shuffled from
// a seed between barriers, and every access to memory is checked: out of
// bounds, a race on shared memory between two barriers, a barrier or
// shuffle some thread of the block or warp does not reach, and a deadlock
// each end the launch with an error naming the block, the thread, the
// buffer and the offset.
//
// Thread-safe: launches may run from many host threads at once.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/host_jit.h"
#include "sdk/emitters/llvm/runtime_functions.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::llvm_emitter::grid {

// What the emulated device is: the same numbers the target reports to the
// emitter, and the warp size the runtime groups lanes by.
struct GridLimits {
  unsigned warp_size = 32;  // 0: no shuffles; otherwise a power of two <= 64
  unsigned max_block_size = 1024;
  uint64_t max_shared_bytes = 48 * 1024;
};

// One pointer argument of the kernel: a buffer in host memory. Checking
// mode accepts accesses inside [data, data + bytes) and names the buffer
// by `name` (or its index when empty) in its reports.
struct GridBuffer {
  void* data = nullptr;
  uint64_t bytes = 0;
  std::string_view name;
};

struct GridOptions {
  GridLimits limits;
  // Checking mode: the kernel must have been compiled with check = true.
  bool check = false;
  // The seed of the order threads run in, in checking mode; a launch with
  // the same seed runs in the same order.
  uint64_t seed = 0;
  // The stack of each emulated thread, below a guard page.
  size_t stack_bytes = 128 * 1024;
};

// The kernel function as GridEmulatorTarget::CreateKernel defines it: its
// pointer arguments in order, then the scratch buffer when the launch has
// one.
using GridKernelEntry = void (*)(void* const* args);

// Kernel code loaded into the host JIT; release it with UnloadGridKernel.
struct GridKernel {
  GridKernelEntry entry = nullptr;
  HostJitCode code;
};

// Loads an object made by GridEmulatorTarget::Compile. Its calls resolve
// against `runtime_symbols` (the math and runtime functions the kernel
// calls: RuntimeSymbols(), or a device library's host versions) and the
// emulator's own functions (grid_runtime.h), nothing else.
StatusOr<GridKernel> LoadGridKernel(
    std::string_view object, std::string_view entry_symbol,
    std::span<const RuntimeSymbol> runtime_symbols);
void UnloadGridKernel(const GridKernel& kernel);

// Runs `entry` over `launch.grid` blocks of `launch.block` threads and
// returns when every block has finished. `buffers` are the kernel's pointer
// arguments in order; the emulator allocates the scratch buffer. Fails
// with INVALID_ARGUMENT when the launch exceeds `options.limits`; when a
// block goes wrong, with OUT_OF_RANGE for an access out of bounds and
// FAILED_PRECONDITION for a race, a barrier or shuffle not every thread
// reaches, or a deadlock. The lowest-numbered failing block is the one
// reported, so a report does not depend on how host threads were
// scheduled.
Status RunGrid(GridKernelEntry entry, const SpmdLaunch& launch,
               std::span<const GridBuffer> buffers, const GridOptions& options);

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_H_
