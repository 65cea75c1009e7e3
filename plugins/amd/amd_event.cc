// Events: a HIP event each, without timing. Records from other devices,
// waits across the runtime and the emulator, and the error an event
// carries are the GPU plugin layer's (sdk/gpu_plugin/gpu_event.h).
#include "plugins/amd/amd_plugin.h"

namespace phal::amd {

Status HipDriver::CreateEvent(GpuEvent* out) const {
  hipEvent_t event = nullptr;
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipEventCreateWithFlags(&event, hipEventDisableTiming),
            "hipEventCreateWithFlags"));
  *out = event;
  return OkStatus();
}

void HipDriver::DestroyEvent(GpuEvent event) const {
  hip_.hipEventDestroy(static_cast<hipEvent_t>(event));
}

Status HipDriver::RecordEvent(GpuEvent event, GpuStream stream) const {
  return Check(hip_.hipEventRecord(static_cast<hipEvent_t>(event),
                                   static_cast<hipStream_t>(stream)),
               "hipEventRecord");
}

Status HipDriver::SynchronizeEvent(GpuEvent event) const {
  return Check(hip_.hipEventSynchronize(static_cast<hipEvent_t>(event)),
               "hipEventSynchronize");
}

StatusOr<bool> HipDriver::QueryEvent(GpuEvent event) const {
  const hipError_t result = hip_.hipEventQuery(static_cast<hipEvent_t>(event));
  if (result == hipErrorNotReady) return false;
  PHAL_RETURN_IF_ERROR(Check(result, "hipEventQuery"));
  return true;
}

}  // namespace phal::amd
