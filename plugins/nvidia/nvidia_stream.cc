// Streams: a non-blocking CUDA stream each, so streams never wait for the
// legacy default stream. The error bookkeeping, scratch buffers and
// launches are the GPU plugin layer's (sdk/gpu_plugin/gpu_stream.h).
#include "plugins/nvidia/nvidia_plugin.h"

namespace phal::nvidia {

Status CudaDriver::CreateStream(GpuStream* out) const {
  CUstream stream = nullptr;
  PHAL_RETURN_IF_ERROR(Check(
      cuda_.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"));
  *out = stream;
  return OkStatus();
}

void CudaDriver::DestroyStream(GpuStream stream) const {
  cuda_.cuStreamDestroy(static_cast<CUstream>(stream));
}

Status CudaDriver::SynchronizeStream(GpuStream stream) const {
  return Check(cuda_.cuStreamSynchronize(static_cast<CUstream>(stream)),
               "cuStreamSynchronize");
}

Status CudaDriver::StreamWaitEvent(GpuStream stream, GpuEvent event) const {
  return Check(cuda_.cuStreamWaitEvent(static_cast<CUstream>(stream),
                                       static_cast<CUevent>(event), 0),
               "cuStreamWaitEvent");
}

}  // namespace phal::nvidia
