// Checking mode's IR instrumentation: before optimisation, every access to
// memory of a grid emulator kernel is routed through the emulator's checks
// (phal_grid_checked_address and phal_grid_checked_range, grid_runtime.h),
// so that it lands in a sink instead of corrupting memory when it is out of
// bounds, and shared memory accesses are recorded for race checks.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_INSTRUMENTATION_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_INSTRUMENTATION_H_

namespace llvm {
class Module;
}  // namespace llvm

namespace phal::llvm_emitter::grid {

// The function attribute GridEmulatorTarget::CreateKernel marks kernels
// with: loads from their argument array are the emulator's own, never
// checked.
inline constexpr const char* kGridKernelAttribute = "phal-grid-kernel";

// Instruments every load, store, atomic and memory intrinsic of every
// function defined in `module`, except those whose address provably points
// into an alloca (the thread's stack), a global variable of the module
// (its constants) or a kernel's argument array.
void InstrumentGridAccesses(llvm::Module& module);

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_INSTRUMENTATION_H_
