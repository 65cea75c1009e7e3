#include "plugins/intel/intel_stream.h"
#include "plugins/intel/intel_plugin.h"

#include <memory>

#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {

Stream::~Stream() {
  Cl().Finish(queue_);
  Cl().ReleaseCommandQueue(queue_);
}

Status Stream::Synchronize() const {
  const cl_int error = Cl().Finish(queue_);
  if (error != CL_SUCCESS) return ClError("queued work failed", error);
  return OkStatus();
}

phal_status_t* StreamCreate(phal_plugin_device_t* device,
                            phal_plugin_stream_t** out_stream) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    cl_int error = CL_SUCCESS;
    cl_command_queue queue =
        Cl().CreateCommandQueue(device->context(), device->id(), 0, &error);
    if (queue == nullptr) return ClError("clCreateCommandQueue", error);
    *out_stream = std::make_unique<phal_plugin_stream>(device, queue).release();
    return OkStatus();
  });
}

void StreamDestroy(phal_plugin_stream_t* stream) noexcept { delete stream; }

phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) noexcept {
  return RunAtAbiBoundary([&] { return stream->Synchronize(); });
}

}  // namespace phal::intel
