// phal_event_* functions and the stream/event ordering calls.
#include "core/runtime/event.h"

#include "core/runtime/api_guard.h"
#include "core/runtime/client.h"

namespace phal {

void DestroyEvent(phal_event* event) {
  event->device->api->event_destroy(event->handle);
  delete event;
}

namespace {

Status CreateEvent(phal_device* device, phal_event_t** out_event) {
  if (device == nullptr) return NullArgument("device");
  if (out_event == nullptr) return NullArgument("out_event");
  PHAL_RETURN_IF_ERROR(device->CheckRunnable("create events"));
  auto event = std::make_unique<phal_event>();
  event->device = device;
  PHAL_RETURN_IF_ERROR(
      device->Check(device->api->event_create(device->handle, &event->handle)));
  device->client->Track(device->client->events, event.get());
  *out_event = event.release();
  return OkStatus();
}

Status CheckPair(const phal_stream* stream, const phal_event* event) {
  if (stream == nullptr) return NullArgument("stream");
  if (event == nullptr) return NullArgument("event");
  if (stream->device->api != event->device->api) {
    return InvalidArgument(
        "the event and the stream belong to different "
        "plugins");
  }
  return OkStatus();
}

}  // namespace
}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_event_create(phal_device_t* device,
                                          phal_event_t** out_event) {
  return phal::GuardedCall(
      [&] { return phal::CreateEvent(device, out_event); });
}

PHAL_API void phal_event_destroy(phal_event_t* event) {
  phal::UntrackAndDestroy(event, &phal_client::events, phal::DestroyEvent);
}

PHAL_API void phal_event_free(phal_event_t* event) {
  phal_event_destroy(event);
}

PHAL_API phal_status_t* phal_stream_record_event(phal_stream_t* stream,
                                                 phal_event_t* event) {
  return phal::GuardedCall([&]() -> phal::Status {
    PHAL_RETURN_IF_ERROR(phal::CheckPair(stream, event));
    return stream->device->Check(stream->device->api->stream_record_event(
        stream->state->handle, event->handle));
  });
}

PHAL_API phal_status_t* phal_stream_wait_event(phal_stream_t* stream,
                                               phal_event_t* event) {
  return phal::GuardedCall([&]() -> phal::Status {
    PHAL_RETURN_IF_ERROR(phal::CheckPair(stream, event));
    return stream->device->Check(stream->device->api->stream_wait_event(
        stream->state->handle, event->handle));
  });
}

PHAL_API phal_status_t* phal_event_synchronize(phal_event_t* event) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (event == nullptr) return phal::NullArgument("event");
    return event->device->Check(
        event->device->api->event_synchronize(event->handle));
  });
}

PHAL_API phal_status_t* phal_event_query(phal_event_t* event,
                                         int* out_signalled) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (event == nullptr) return phal::NullArgument("event");
    if (out_signalled == nullptr) return phal::NullArgument("out_signalled");
    return event->device->Check(
        event->device->api->event_query(event->handle, out_signalled));
  });
}

}  // extern "C"
