// Streams: a non-blocking HIP stream each, so streams never wait for the
// null stream. The error bookkeeping, scratch buffers and launches are the
// GPU plugin layer's (sdk/gpu_plugin/gpu_stream.h).
#include "plugins/amd/amd_plugin.h"

namespace phal::amd {

Status HipDriver::CreateStream(GpuStream* out) const {
  hipStream_t stream = nullptr;
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipStreamCreateWithFlags(&stream, hipStreamNonBlocking),
            "hipStreamCreateWithFlags"));
  *out = stream;
  return OkStatus();
}

void HipDriver::DestroyStream(GpuStream stream) const {
  hip_.hipStreamDestroy(static_cast<hipStream_t>(stream));
}

Status HipDriver::SynchronizeStream(GpuStream stream) const {
  return Check(hip_.hipStreamSynchronize(static_cast<hipStream_t>(stream)),
               "hipStreamSynchronize");
}

Status HipDriver::StreamWaitEvent(GpuStream stream, GpuEvent event) const {
  return Check(hip_.hipStreamWaitEvent(static_cast<hipStream_t>(stream),
                                       static_cast<hipEvent_t>(event), 0),
               "hipStreamWaitEvent");
}

}  // namespace phal::amd
