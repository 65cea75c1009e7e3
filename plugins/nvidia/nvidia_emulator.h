// The grid emulator's CUDA driver: the entry points of nvidia_cuda.h
// implemented in process over host memory for one device, "nvidia
// (emulated sm_90)" (PHAL_GPU_EMULATION=1). Device memory is host memory
// (a CUdeviceptr is a host address), every operation finishes before its
// call returns (an in-order queue, so events fire when recorded), and
// modules are host objects the SPMD emitter compiled for the grid
// emulator, run by it block by block on host threads. The plugin drives it
// exactly as it drives libcuda.so.1.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_H_

#include <cstdint>

#include "plugins/nvidia/nvidia_cuda.h"
#include "plugins/nvidia/nvidia_nccl.h"

namespace phal::nvidia {

// The compute capability the emulated device reports and compiles for.
inline constexpr int kEmulatedComputeCapability = 90;

// The emulator's table; valid for the process's life.
const Cuda& EmulatedCuda();

// The emulator's NCCL (nvidia_emulated_nccl.cc): the entry points of
// nvidia_nccl.h over the emulated devices' memory, every collective
// reduced in rank order by the SDK's HostCommunicator, sends and receives
// through host mailboxes, each call returning once the rank's part is
// done (a rank's call waits for its peers). Valid for the process's life.
const Nccl& EmulatedNccl();

// The bytes from `address` to the end of the emulator's allocation that
// holds it; 0 for an address the emulator did not allocate.
uint64_t EmulatedBytesFrom(CUdeviceptr address);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATOR_H_
