// Events: a CUDA event each, without timing. Records from other contexts,
// waits across the driver and the emulator, and the error an event carries
// are the GPU plugin layer's (sdk/gpu_plugin/gpu_event.h).
#include "plugins/nvidia/nvidia_plugin.h"

namespace phal::nvidia {

Status CudaDriver::CreateEvent(GpuEvent* out) const {
  CUevent event = nullptr;
  PHAL_RETURN_IF_ERROR(Check(
      cuda_.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate"));
  *out = event;
  return OkStatus();
}

void CudaDriver::DestroyEvent(GpuEvent event) const {
  cuda_.cuEventDestroy(static_cast<CUevent>(event));
}

Status CudaDriver::RecordEvent(GpuEvent event, GpuStream stream) const {
  return Check(cuda_.cuEventRecord(static_cast<CUevent>(event),
                                   static_cast<CUstream>(stream)),
               "cuEventRecord");
}

Status CudaDriver::SynchronizeEvent(GpuEvent event) const {
  return Check(cuda_.cuEventSynchronize(static_cast<CUevent>(event)),
               "cuEventSynchronize");
}

StatusOr<bool> CudaDriver::QueryEvent(GpuEvent event) const {
  const CUresult result = cuda_.cuEventQuery(static_cast<CUevent>(event));
  if (result == CUDA_ERROR_NOT_READY) return false;
  PHAL_RETURN_IF_ERROR(Check(result, "cuEventQuery"));
  return true;
}

}  // namespace phal::nvidia
