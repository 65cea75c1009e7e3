// The functions a kernel compiled for the grid emulator calls: what the
// GridEmulatorTarget's hooks emit, and what the checking instrumentation
// (grid_instrumentation.h) adds. The emulator (grid_emulator.cc) defines
// them; they answer for the emulated thread that is running on the calling
// host thread, so they are only meaningful inside RunGrid.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_RUNTIME_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_RUNTIME_H_

#include <cstdint>
#include <span>

#include "sdk/emitters/llvm/runtime_functions.h"

extern "C" {

// threadIdx, blockIdx, blockDim and gridDim along `dimension` (0 to 2).
// Each is constant for the life of an emulated thread.
int32_t phal_grid_thread_index(int32_t dimension);
int32_t phal_grid_block_index(int32_t dimension);
int32_t phal_grid_block_size(int32_t dimension);
int32_t phal_grid_grid_size(int32_t dimension);

// Waits until every thread of the block has reached a barrier.
// `barrier_id` numbers the barrier's place in the kernel: threads waiting
// at different places are a divergence, reported as an error.
void phal_grid_barrier(int32_t barrier_id);

// The block's shared memory; `bytes` is what the kernel uses of it, which
// the launch must give.
void* phal_grid_shared_memory(int64_t bytes);

// The value of the lane `delta` above the caller in its warp (its own past
// the warp's end), once every lane of the warp has called the same
// shuffle, numbered `shuffle_id` as barriers are.
int32_t phal_grid_shuffle_down_i32(int32_t value, int32_t delta,
                                   int32_t shuffle_id);
int64_t phal_grid_shuffle_down_i64(int64_t value, int32_t delta,
                                   int32_t shuffle_id);
float phal_grid_shuffle_down_f32(float value, int32_t delta,
                                 int32_t shuffle_id);
double phal_grid_shuffle_down_f64(double value, int32_t delta,
                                  int32_t shuffle_id);

// Checking mode. `access` is a GridAccess (below). Returns
// `address` when the access is in bounds: inside a buffer of the launch,
// the scratch buffer, the block's shared memory or the thread's stack.
// Otherwise the emulator records the error and returns a private sink of
// at least `bytes` bytes, so the kernel runs on without corrupting memory
// until its next barrier, shuffle or end, where the block stops.
void* phal_grid_checked_address(void* address, int64_t bytes, int32_t access);
// For memcpy, memmove and memset: checks [destination, +bytes) as a write
// and, when `source` is not null, [source, +bytes) as a read. Returns
// `bytes` when both are in bounds, else 0 (and the error is recorded).
int64_t phal_grid_checked_range(void* destination, const void* source,
                                int64_t bytes);

}  // extern "C"

namespace phal::llvm_emitter::grid {

// How a checked access touches memory. Atomic read-modify-writes are
// checked for bounds only: they may meet each other between barriers.
enum GridAccess : int32_t {
  kGridRead = 0,
  kGridWrite = 1,
  kGridAtomic = 2,
};

// Every function above by name, for the JIT.
std::span<const RuntimeSymbol> GridRuntimeSymbols();

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_RUNTIME_H_
