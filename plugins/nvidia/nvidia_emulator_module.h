// The emulated sm_90's kernels: the SPMD emitter's modules compiled for the
// grid emulator with warps of 32 lanes, as the module images the
// emulator's cuModuleLoadDataEx loads (sdk/emitters/llvm/grid/grid_device.h
// holds the image, its loading and its launches).
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/grid/grid_device.h"

namespace phal::nvidia {

// The module image and the launch the emitter chose.
using EmulatedKernelImage = llvm_emitter::grid::GridDeviceImage;

// `kernel` emitted for the emulated sm_90 and compiled for the host.
StatusOr<EmulatedKernelImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_
