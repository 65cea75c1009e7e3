// Copies: the driver's asynchronous copies. Which copy a buffer-to-buffer
// copy is (in one context, between contexts of one driver, through host
// memory between the driver and the emulator) is the GPU plugin layer's
// choice (sdk/gpu_plugin/gpu_stream.h).
#include <string>

#include "plugins/nvidia/nvidia_plugin.h"

namespace phal::nvidia {
namespace {

std::string OfBytes(const char* call, uint64_t bytes) {
  return std::string(call) + " of " + std::to_string(bytes) + " bytes";
}

}  // namespace

Status CudaDriver::CopyHostToDevice(GpuAddress destination, const void* source,
                                    uint64_t bytes, GpuStream stream) const {
  return Check(cuda_.cuMemcpyHtoDAsync(destination, source, bytes,
                                       static_cast<CUstream>(stream)),
               OfBytes("cuMemcpyHtoDAsync", bytes));
}

Status CudaDriver::CopyDeviceToHost(void* destination, GpuAddress source,
                                    uint64_t bytes, GpuStream stream) const {
  return Check(cuda_.cuMemcpyDtoHAsync(destination, source, bytes,
                                       static_cast<CUstream>(stream)),
               OfBytes("cuMemcpyDtoHAsync", bytes));
}

Status CudaDriver::CopyDeviceToDevice(GpuAddress destination, GpuAddress source,
                                      uint64_t bytes, GpuStream stream) const {
  return Check(cuda_.cuMemcpyDtoDAsync(destination, source, bytes,
                                       static_cast<CUstream>(stream)),
               OfBytes("cuMemcpyDtoDAsync", bytes));
}

bool CudaDriver::HasPeerCopy() const {
  return cuda_.cuMemcpyPeerAsync != nullptr;
}

Status CudaDriver::CopyPeer(GpuAddress destination, const GpuPlace& to,
                            GpuAddress source, const GpuPlace& from,
                            uint64_t bytes, GpuStream stream) const {
  return Check(
      cuda_.cuMemcpyPeerAsync(destination, static_cast<CUcontext>(to.context),
                              source, static_cast<CUcontext>(from.context),
                              bytes, static_cast<CUstream>(stream)),
      OfBytes("cuMemcpyPeerAsync", bytes));
}

}  // namespace phal::nvidia
