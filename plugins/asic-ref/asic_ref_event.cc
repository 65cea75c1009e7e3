#include "asic_ref_event.h"

#include <memory>

#include "asic_ref_device.h"
#include "asic_ref_plugin.h"
#include "asic_ref_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::asic_ref {

void Event::Fire(Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  status_ = std::move(status);
}

Status Event::carried_status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

phal_status_t* EventCreate(phal_plugin_device_t* device,
                           phal_plugin_event_t** out_event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("create events"));
    *out_event = std::make_unique<phal_plugin_event>().release();
    return OkStatus();
  });
}

void EventDestroy(phal_plugin_event_t* event) noexcept { delete event; }

phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,
                                 phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] {
    event->Fire(stream->PendingError());
    return OkStatus();
  });
}

// Work queued on `stream` after the wait inherits the error of the work the
// event waited for, so the stream's next synchronize reports it too.
phal_status_t* StreamWaitEvent(phal_plugin_stream_t* stream,
                               phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] {
    const Status carried = event->carried_status();
    stream->Run([&] { return carried; });
    return OkStatus();
  });
}

phal_status_t* EventSynchronize(phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] { return event->carried_status(); });
}

phal_status_t* EventQuery(phal_plugin_event_t* /*event*/,
                          int* out_done) noexcept {
  *out_done = 1;
  return nullptr;
}

}  // namespace phal::asic_ref
