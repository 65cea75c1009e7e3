// What the SPMD kernel emitter (spmd_kernel_emitter.h) asks of a GPU-shaped
// target: a grid of blocks of threads, each thread running the same kernel
// function. NVPTX (nvptx_target.h), AMDGPU and the grid emulator
// (grid/grid_emulator_target.h) each answer with their own intrinsics or
// runtime calls; the kernel's IR is otherwise the same on all of them.
//
// Every hook emits at the builder's insertion point. Indices and sizes are
// i32. Pointers are in the generic address space (0) wherever the emitter
// sees them: a target that keeps buffers or shared memory elsewhere casts.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_SPMD_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_SPMD_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "sdk/emitters/llvm/module_target.h"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

// The intrinsic of `ids` (x, y, z) for `dimension`, called with no
// arguments: how a target reads a per-dimension index or size register.
inline llvm::Value* ReadDimensionIntrinsic(llvm::IRBuilder<>& builder,
                                           const llvm::Intrinsic::ID (&ids)[3],
                                           unsigned dimension) {
  return builder.CreateIntrinsic(ids[dimension], {}, {});
}

// How a runtime launches one emitted SPMD kernel. The kernel function takes
// the KIR's buffers in order as pointers, then, when scratch_bytes > 0, a
// scratch buffer of that many bytes the runtime allocates per launch
// (contents undefined). Plain data, stored byte for byte beside the code.
struct SpmdLaunch {
  uint32_t grid[3] = {0, 1, 1};   // blocks; 0 anywhere: nothing to launch
  uint32_t block[3] = {1, 1, 1};  // threads per block
  uint32_t shared_bytes = 0;      // static shared memory per block
  uint32_t reserved = 0;
  uint64_t scratch_bytes = 0;
};

// The kernel function of a module and its pointer arguments as IR values.
struct SpmdKernelFunction {
  llvm::Function* function = nullptr;
  std::vector<llvm::Value*> pointers;
};

class SpmdTarget : public ModuleTarget {
 public:
  // Defines the kernel entry `name` taking `pointer_count` pointers to
  // global memory, marked as a kernel for the target, with an empty entry
  // block; `pointers` are its arguments as generic pointers, read in that
  // block (the builder is left at its end).
  virtual SpmdKernelFunction CreateKernel(llvm::Module& module,
                                          const std::string& name,
                                          unsigned pointer_count,
                                          llvm::IRBuilder<>& builder) const = 0;

  // threadIdx, blockIdx, blockDim and gridDim along `dimension` (0 to 2).
  virtual llvm::Value* ThreadIndex(llvm::IRBuilder<>& builder,
                                   unsigned dimension) const = 0;
  virtual llvm::Value* BlockIndex(llvm::IRBuilder<>& builder,
                                  unsigned dimension) const = 0;
  virtual llvm::Value* BlockSize(llvm::IRBuilder<>& builder,
                                 unsigned dimension) const = 0;
  virtual llvm::Value* GridSize(llvm::IRBuilder<>& builder,
                                unsigned dimension) const = 0;

  // Waits until every thread of the block has reached this barrier, with
  // every earlier write to shared and global memory of the block's threads
  // visible to all of them. Every thread of the block must reach it.
  virtual void Barrier(llvm::IRBuilder<>& builder) const = 0;

  // The block's shared memory: `bytes` bytes aligned to 16, as a generic
  // pointer. Called at most once per kernel function.
  virtual llvm::Value* SharedMemory(llvm::IRBuilder<>& builder,
                                    llvm::Module& module,
                                    uint64_t bytes) const = 0;

  // Lanes that shuffle together (32 on NVIDIA, 32 or 64 on AMD); 0 when the
  // target has no cross-lane operations. Blocks are whole warps when
  // WarpSize() > 0 and the emitter shuffles.
  virtual unsigned WarpSize() const = 0;
  // The `value` (i32, i64, float or double) of the lane `delta` above this
  // one within its warp; a lane past the warp's end gets its own value
  // back. Every lane of the warp must call it with the same delta.
  virtual llvm::Value* ShuffleDown(llvm::IRBuilder<>& builder,
                                   llvm::Value* value,
                                   unsigned delta) const = 0;

  // The largest block the target runs, and shared memory per block.
  virtual unsigned MaxBlockSize() const = 0;
  virtual uint64_t MaxSharedBytes() const = 0;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_SPMD_TARGET_H_
