#include "asic_ref_stream.h"

#include <memory>

#include "asic_ref_plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::asic_ref {

void Stream::Run(const std::function<Status()>& work) {
  std::lock_guard<std::mutex> lock(mutex_);
  Status status = work();
  if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
}

Status Stream::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

Status Stream::PendingError() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

phal_status_t* StreamCreate(phal_plugin_device_t* device,
                            phal_plugin_stream_t** out_stream) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("create streams"));
    *out_stream = std::make_unique<phal_plugin_stream>(*device).release();
    return OkStatus();
  });
}

// Work runs before the call queuing it returns, so nothing is pending.
void StreamDestroy(phal_plugin_stream_t* stream) noexcept { delete stream; }

phal_status_t* StreamSynchronize(phal_plugin_stream_t* stream) noexcept {
  return RunAtAbiBoundary([&] { return stream->Synchronize(); });
}

}  // namespace phal::asic_ref
