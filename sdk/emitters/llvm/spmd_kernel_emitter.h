// KIR kernel -> one LLVM module defining the SPMD kernel function
// kKernelSymbol (launch_plan.h) for a GPU-shaped target (spmd_target.h),
// and the launch that runs it.
//
// The kernel kinds as thread programs (threads numbered across the grid):
//   LOOP     a grid-stride loop over the iteration space, one element per
//            thread per step, so neighbouring threads touch neighbouring
//            elements (coalesced).
//   REDUCE   short reductions (or many outputs): one thread per output, in
//            ascending order from the init value (the reference's order).
//            Long ones: one block per output; its threads reduce strided
//            parts, then combine by warp shuffles (where the target has
//            them) and a tree in shared memory.
//   DOT      a tiled GEMM: 16x16 threads per block stage 16x16 tiles of both
//            operands in shared memory, converted to the accumulation type.
//   CONV     one thread per output element, summing its window.
//   GATHER   one thread per output element.
//   SCATTER  one thread: updates to one element apply in update order.
//   SORT     one thread per slice: a stable merge sort of a permutation in
//            scratch memory, applied through copies of the slices.
//   COPY     a grid-stride loop over bytes.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_SPMD_KERNEL_EMITTER_H_
#define POLYHAL_SDK_EMITTERS_LLVM_SPMD_KERNEL_EMITTER_H_

#include <cstdint>
#include <memory>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

struct SpmdKernel {
  std::unique_ptr<llvm::Module> module;
  SpmdLaunch launch;
};

// PHAL_KERNEL_KIND_BIT mask of the kinds EmitSpmdKernel implements.
uint64_t SpmdSupportedKernelKinds();

// Emits `kernel` for `target`. The module calls the math library and the
// runtime functions by name (math_library.h, runtime_functions.h, and
// phal_rt_fmod_f32/_f64 for remainders): a GPU target links the device
// library (device/device_library.h) into it, the grid emulator resolves
// them on the host. Fails with UNIMPLEMENTED naming the kind, op or element
// type the emitter does not support, INVALID_ARGUMENT for a malformed
// kernel.
StatusOr<SpmdKernel> EmitSpmdKernel(const phal_kernel_desc_t& kernel,
                                    const SpmdTarget& target,
                                    llvm::LLVMContext& context);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_SPMD_KERNEL_EMITTER_H_
