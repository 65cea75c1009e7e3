// The emulator's modules: kernels the SPMD emitter compiled for the grid
// emulator's target, as host objects, loaded into the host JIT with the
// device library's host build and the emulator's own runtime, and run by
// the grid emulator. nvidia_emulator.cc answers cuModuleLoadDataEx,
// cuModuleGetFunction and cuLaunchKernel with these.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_

#include <string>

#include "plugins/nvidia/nvidia_cuda.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::nvidia {

// `kernel` emitted for the grid emulator and compiled for the host: the
// module image the emulator's cuModuleLoadDataEx takes (self-describing,
// as a driver's images are: the loader is given no size), and the launch.
struct EmulatedKernelImage {
  std::string image;
  llvm_emitter::SpmdLaunch launch;
};
StatusOr<EmulatedKernelImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel);

// The driver entry points' work; a failure's message becomes the
// emulator's error detail.
StatusOr<CUmodule> LoadEmulatedModule(const void* image);
void UnloadEmulatedModule(CUmodule module);
StatusOr<CUfunction> EmulatedModuleFunction(CUmodule module, const char* name);
// Runs `function` on a grid of `grid` blocks of `block` threads;
// parameters[i] points at the i-th pointer argument (a host address).
Status RunEmulatedKernel(CUfunction function, const unsigned int grid[3],
                         const unsigned int block[3],
                         unsigned int dynamic_shared_bytes, void** parameters);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_MODULE_H_
