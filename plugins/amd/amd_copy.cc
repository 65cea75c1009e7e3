// Copies: HIP's asynchronous copies. Which copy a buffer-to-buffer copy is
// (on one device, between devices of one runtime, through host memory
// between the runtime and the emulator) is the GPU plugin layer's choice
// (sdk/gpu_plugin/gpu_stream.h).
#include <string>

#include "plugins/amd/amd_plugin.h"

namespace phal::amd {
namespace {

std::string OfBytes(const char* call, uint64_t bytes) {
  return std::string(call) + " of " + std::to_string(bytes) + " bytes";
}

}  // namespace

Status HipDriver::CopyHostToDevice(GpuAddress destination, const void* source,
                                   uint64_t bytes, GpuStream stream) const {
  // HIP declares the source mutable; it only reads it.
  return Check(hip_.hipMemcpyHtoDAsync(DevicePointer(destination),
                                       const_cast<void*>(source), bytes,
                                       static_cast<hipStream_t>(stream)),
               OfBytes("hipMemcpyHtoDAsync", bytes));
}

Status HipDriver::CopyDeviceToHost(void* destination, GpuAddress source,
                                   uint64_t bytes, GpuStream stream) const {
  return Check(hip_.hipMemcpyDtoHAsync(destination, DevicePointer(source),
                                       bytes, static_cast<hipStream_t>(stream)),
               OfBytes("hipMemcpyDtoHAsync", bytes));
}

Status HipDriver::CopyDeviceToDevice(GpuAddress destination, GpuAddress source,
                                     uint64_t bytes, GpuStream stream) const {
  return Check(
      hip_.hipMemcpyDtoDAsync(DevicePointer(destination), DevicePointer(source),
                              bytes, static_cast<hipStream_t>(stream)),
      OfBytes("hipMemcpyDtoDAsync", bytes));
}

bool HipDriver::HasPeerCopy() const {
  return hip_.hipMemcpyPeerAsync != nullptr;
}

Status HipDriver::CopyPeer(GpuAddress destination, const GpuPlace& to,
                           GpuAddress source, const GpuPlace& from,
                           uint64_t bytes, GpuStream stream) const {
  return Check(hip_.hipMemcpyPeerAsync(DevicePointer(destination), to.device,
                                       DevicePointer(source), from.device,
                                       bytes, static_cast<hipStream_t>(stream)),
               OfBytes("hipMemcpyPeerAsync", bytes));
}

}  // namespace phal::amd
