// Buffers: cuMemAlloc memory in the device's primary context (host memory
// on the emulated device, whose table allocates it). The buffer objects
// and their checks are the GPU plugin layer's (sdk/gpu_plugin/gpu_memory.h).
#include <string>

#include "plugins/nvidia/nvidia_plugin.h"

namespace phal::nvidia {

Status CudaDriver::Allocate(uint64_t bytes, GpuAddress* out) const {
  CUdeviceptr address = 0;
  PHAL_RETURN_IF_ERROR(
      Check(cuda_.cuMemAlloc(&address, bytes),
            "cuMemAlloc of " + std::to_string(bytes) + " bytes"));
  *out = address;
  return OkStatus();
}

void CudaDriver::Free(GpuAddress address) const { cuda_.cuMemFree(address); }

}  // namespace phal::nvidia
