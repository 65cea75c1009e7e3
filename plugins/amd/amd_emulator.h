// The grid emulator's HIP runtime: the entry points of amd_hip.h
// implemented in process for one device, "amd (emulated gfx90a)"
// (PHAL_GPU_EMULATION=1), over the toolkit's emulated GPU
// (sdk/emitters/llvm/grid/grid_device.h) with wavefronts of 64 lanes, so
// the emulated device runs the wave64 code paths of the SPMD emitter.
// Device memory is host memory, every operation finishes before its call
// returns (an in-order queue, so events fire when recorded), and modules
// are host objects run by the grid emulator. The plugin drives it exactly
// as it drives libamdhip64.
#ifndef POLYHAL_PLUGINS_AMD_AMD_EMULATOR_H_
#define POLYHAL_PLUGINS_AMD_AMD_EMULATOR_H_

#include "plugins/amd/amd_hip.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/grid/grid_device.h"

namespace phal::amd {

// The architecture the emulated device reports, and whose code objects
// the plugin dumps for its kernels.
inline constexpr char kEmulatedArch[] = "gfx90a";

// The emulator's table; valid for the process's life.
const Hip& EmulatedHip();

// `kernel` compiled for the emulated device: the module image its
// hipModuleLoadData takes, and the launch.
StatusOr<llvm_emitter::grid::GridDeviceImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel);

}  // namespace phal::amd

#endif  // POLYHAL_PLUGINS_AMD_AMD_EMULATOR_H_
