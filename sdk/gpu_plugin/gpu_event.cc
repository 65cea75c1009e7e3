#include "sdk/gpu_plugin/gpu_event.h"

#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::gpu_plugin {

Event::~Event() {
  if (event_ == nullptr) return;
  ScopedDevice scope(device_);
  if (scope.status().ok()) device_.driver().DestroyEvent(event_);
}

Status Event::Init() {
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.driver().CreateEvent(&event_);
}

Status Event::Record(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (&stream.device() != &device_) {
    // An event records only on streams of its own device (context): a
    // stream of another device fires the event once its work has run.
    recorded_ = false;
    carried_ = stream.Drain();
    return OkStatus();
  }
  carried_ = stream.PendingError();
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  recorded_ = true;
  return device_.driver().RecordEvent(event_, stream.handle());
}

Status Event::MakeWait(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  stream.AddError(carried_);
  if (!recorded_) return OkStatus();
  ScopedDevice scope(stream.device());
  PHAL_RETURN_IF_ERROR(scope.status());
  if (&stream.device().driver() == &device_.driver()) {
    return device_.driver().StreamWaitEvent(stream.handle(), event_);
  }
  // The emulator's streams and a GPU's cannot wait for each other's
  // events: the host waits instead.
  ScopedDevice event_scope(device_);
  PHAL_RETURN_IF_ERROR(event_scope.status());
  stream.AddError(device_.driver().SynchronizeEvent(event_));
  return OkStatus();
}

Status Event::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recorded_) {
    ScopedDevice scope(device_);
    PHAL_RETURN_IF_ERROR(scope.status());
    PHAL_RETURN_IF_ERROR(device_.driver().SynchronizeEvent(event_));
  }
  return carried_;
}

StatusOr<bool> Event::Query() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recorded_) return true;
  ScopedDevice scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.driver().QueryEvent(event_);
}

PHAL_DEFINE_EVENT_HANDLE_SLOTS()

phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,
                                 phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] { return event->Record(*stream); });
}

phal_status_t* StreamWaitEvent(phal_plugin_stream_t* stream,
                               phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] { return event->MakeWait(*stream); });
}

phal_status_t* EventSynchronize(phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] { return event->Synchronize(); });
}

phal_status_t* EventQuery(phal_plugin_event_t* event, int* out_done) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(bool done, event->Query());
    *out_done = done ? 1 : 0;
    return OkStatus();
  });
}

}  // namespace phal::gpu_plugin
