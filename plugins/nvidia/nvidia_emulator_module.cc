#include "plugins/nvidia/nvidia_emulator_module.h"

namespace phal::nvidia {

StatusOr<EmulatedKernelImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel) {
  // The grid emulator's defaults are an NVIDIA GPU's: warps of 32 lanes,
  // 1024 threads and 48 KiB of shared memory per block.
  return llvm_emitter::grid::CompileGridDeviceImage(
      kernel, llvm_emitter::grid::GridLimits{});
}

}  // namespace phal::nvidia
