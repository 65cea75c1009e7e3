// Buffers: hipMalloc memory of the device (host memory on the emulated
// device, whose table allocates it). The buffer objects and their checks
// are the GPU plugin layer's (sdk/gpu_plugin/gpu_memory.h).
#include <string>

#include "plugins/amd/amd_plugin.h"

namespace phal::amd {

Status HipDriver::Allocate(uint64_t bytes, GpuAddress* out) const {
  void* address = nullptr;
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipMalloc(&address, bytes),
            "hipMalloc of " + std::to_string(bytes) + " bytes"));
  *out = reinterpret_cast<uintptr_t>(address);
  return OkStatus();
}

void HipDriver::Free(GpuAddress address) const {
  hip_.hipFree(DevicePointer(address));
}

}  // namespace phal::amd
