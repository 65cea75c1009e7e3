#include "plugins/nvidia/nvidia_event.h"

#include <memory>

#include "plugins/nvidia/nvidia_plugin.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::nvidia {

Event::~Event() {
  if (event_ == nullptr) return;
  ScopedContext scope(device_);
  if (scope.status().ok()) device_.cuda().cuEventDestroy(event_);
}

Status Event::Init() {
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  return device_.Check(
      device_.cuda().cuEventCreate(&event_, CU_EVENT_DISABLE_TIMING),
      "cuEventCreate");
}

Status Event::Record(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (&stream.device() != &device_) {
    // A CUDA event records only on streams of its own context: a stream of
    // another device fires the event once its work has run.
    recorded_ = false;
    carried_ = stream.Drain();
    return OkStatus();
  }
  carried_ = stream.PendingError();
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  recorded_ = true;
  return device_.Check(device_.cuda().cuEventRecord(event_, stream.handle()),
                       "cuEventRecord");
}

Status Event::MakeWait(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  stream.AddError(carried_);
  if (!recorded_) return OkStatus();
  ScopedContext scope(stream.device());
  PHAL_RETURN_IF_ERROR(scope.status());
  if (&stream.device().cuda() == &device_.cuda()) {
    return stream.device().Check(
        device_.cuda().cuStreamWaitEvent(stream.handle(), event_, 0),
        "cuStreamWaitEvent");
  }
  // The emulator's streams and a GPU's cannot wait for each other's
  // events: the host waits instead.
  ScopedContext event_scope(device_);
  PHAL_RETURN_IF_ERROR(event_scope.status());
  stream.AddError(device_.Check(device_.cuda().cuEventSynchronize(event_),
                                "cuEventSynchronize"));
  return OkStatus();
}

Status Event::Synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recorded_) {
    ScopedContext scope(device_);
    PHAL_RETURN_IF_ERROR(scope.status());
    PHAL_RETURN_IF_ERROR(device_.Check(
        device_.cuda().cuEventSynchronize(event_), "cuEventSynchronize"));
  }
  return carried_;
}

StatusOr<bool> Event::Query() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recorded_) return true;
  ScopedContext scope(device_);
  PHAL_RETURN_IF_ERROR(scope.status());
  const CUresult result = device_.cuda().cuEventQuery(event_);
  if (result == CUDA_ERROR_NOT_READY) return false;
  PHAL_RETURN_IF_ERROR(device_.Check(result, "cuEventQuery"));
  return true;
}

phal_status_t* EventCreate(phal_plugin_device_t* device,
                           phal_plugin_event_t** out_event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("create events"));
    auto event = std::make_unique<phal_plugin_event>(*device);
    PHAL_RETURN_IF_ERROR(event->Init());
    *out_event = event.release();
    return OkStatus();
  });
}

void EventDestroy(phal_plugin_event_t* event) noexcept { delete event; }

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

}  // namespace phal::nvidia
