#include "plugins/intel/intel_event.h"
#include "plugins/intel/intel_plugin.h"

#include <memory>

#include "plugins/intel/intel_stream.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

// Releases the caller's reference to an event when it goes.
struct EventReference {
  cl_event event;
  ~EventReference() {
    if (event != nullptr) Cl().ReleaseEvent(event);
  }
};

// The error the work before `event` met, if any (its status is negative).
Status EventError(cl_event event) {
  cl_int status = CL_COMPLETE;
  Cl().GetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                    &status, nullptr);
  if (status < 0) return ClError("the work an event waited for failed", status);
  return OkStatus();
}

}  // namespace

Event::~Event() {
  if (latest_ != nullptr) Cl().ReleaseEvent(latest_);
}

void Event::Record(cl_event marker) {
  cl_event previous = nullptr;
  {
    std::lock_guard lock(mutex_);
    previous = latest_;
    latest_ = marker;
  }
  if (previous != nullptr) Cl().ReleaseEvent(previous);
}

cl_event Event::Latest() const {
  std::lock_guard lock(mutex_);
  if (latest_ != nullptr) Cl().RetainEvent(latest_);
  return latest_;
}

phal_status_t* EventCreate(phal_plugin_device_t* device,
                           phal_plugin_event_t** out_event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    *out_event = std::make_unique<phal_plugin_event>(device).release();
    return OkStatus();
  });
}

void EventDestroy(phal_plugin_event_t* event) noexcept { delete event; }

phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,
                                 phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    cl_event marker = nullptr;
    const cl_int error =
        Cl().EnqueueMarkerWithWaitList(stream->queue(), 0, nullptr, &marker);
    if (error != CL_SUCCESS) {
      return ClError("clEnqueueMarkerWithWaitList", error);
    }
    // The marker must reach the device even if nobody flushes the queue.
    Cl().Flush(stream->queue());
    event->Record(marker);
    return OkStatus();
  });
}

phal_status_t* StreamWaitEvent(phal_plugin_stream_t* stream,
                               phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    EventReference latest{event->Latest()};
    if (latest.event == nullptr) return OkStatus();
    if (event->device() != stream->device()) {
      const cl_int error = Cl().WaitForEvents(1, &latest.event);
      if (error != CL_SUCCESS) return ClError("clWaitForEvents", error);
      return EventError(latest.event);
    }
    const cl_int error = Cl().EnqueueBarrierWithWaitList(
        stream->queue(), 1, &latest.event, nullptr);
    if (error != CL_SUCCESS) {
      return ClError("clEnqueueBarrierWithWaitList", error);
    }
    return OkStatus();
  });
}

phal_status_t* EventSynchronize(phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    EventReference latest{event->Latest()};
    if (latest.event == nullptr) return OkStatus();
    const cl_int error = Cl().WaitForEvents(1, &latest.event);
    if (error != CL_SUCCESS &&
        error != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
      return ClError("clWaitForEvents", error);
    }
    return EventError(latest.event);
  });
}

phal_status_t* EventQuery(phal_plugin_event_t* event, int* out_done) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    EventReference latest{event->Latest()};
    if (latest.event == nullptr) {
      *out_done = 1;
      return OkStatus();
    }
    cl_int status = CL_COMPLETE;
    const cl_int error =
        Cl().GetEventInfo(latest.event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                          sizeof(status), &status, nullptr);
    if (error != CL_SUCCESS) return ClError("clGetEventInfo", error);
    *out_done = status == CL_COMPLETE || status < 0 ? 1 : 0;
    return OkStatus();
  });
}

}  // namespace phal::intel
