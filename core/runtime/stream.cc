// phal_stream_* functions: streams and the copies enqueued on them.
#include "core/runtime/stream.h"

#include "core/runtime/api_guard.h"
#include "core/runtime/buffer.h"
#include "core/runtime/client.h"

namespace phal {

void StreamState::WaitForQueuedWork() {
  std::lock_guard<std::mutex> lock(mutex);
  if (handle == nullptr) return;  // destroyed streams have drained
  const phal_plugin_api_t* api = device->api;
  phal_plugin_event_t* event = nullptr;
  Status created = TakeCStatus(api->event_create(device->handle, &event));
  if (created.ok()) {
    Status recorded = TakeCStatus(api->stream_record_event(handle, event));
    if (recorded.ok()) {
      // The event's error belongs to the application's own synchronize.
      TakeCStatus(api->event_synchronize(event)).ok();
      api->event_destroy(event);
      return;
    }
    api->event_destroy(event);
  }
  // Without events the stream itself is drained.
  TakeCStatus(api->stream_synchronize(handle)).ok();
}

void DestroyStream(phal_stream* stream) {
  {
    std::lock_guard<std::mutex> lock(stream->state->mutex);
    stream->device->api->stream_destroy(stream->state->handle);
    stream->state->handle = nullptr;
  }
  delete stream;
}

namespace {

Status CreateStream(phal_device* device, phal_stream_t** out_stream) {
  if (device == nullptr) return NullArgument("device");
  if (out_stream == nullptr) return NullArgument("out_stream");
  PHAL_RETURN_IF_ERROR(device->CheckRunnable("create streams"));
  auto stream = std::make_unique<phal_stream>();
  stream->device = device;
  stream->state = std::make_shared<StreamState>();
  stream->state->device = device;
  PHAL_RETURN_IF_ERROR(device->Check(
      device->api->stream_create(device->handle, &stream->state->handle)));
  device->client->Track(device->client->streams, stream.get());
  *out_stream = stream.release();
  return OkStatus();
}

Status CheckOnDevice(const phal_stream* stream, const phal_buffer* buffer,
                     const char* what) {
  if (buffer == nullptr) return NullArgument(what);
  if (buffer->device != stream->device) {
    return InvalidArgument(std::string(what) +
                           " lives on another device than the stream; use "
                           "a stream of the buffer's device");
  }
  return OkStatus();
}

Status CheckSamePlugin(const phal_stream* stream, const phal_buffer* buffer,
                       const char* what) {
  if (buffer == nullptr) return NullArgument(what);
  if (buffer->device->api != stream->device->api) {
    return InvalidArgument(std::string(what) +
                           " belongs to another plugin than the stream; "
                           "use phal_buffer_copy");
  }
  return OkStatus();
}

}  // namespace
}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_stream_create(phal_device_t* device,
                                           phal_stream_t** out_stream) {
  return phal::GuardedCall(
      [&] { return phal::CreateStream(device, out_stream); });
}

PHAL_API void phal_stream_destroy(phal_stream_t* stream) {
  phal::UntrackAndDestroy(stream, &phal_client::streams, phal::DestroyStream);
}

PHAL_API phal_status_t* phal_stream_synchronize(phal_stream_t* stream) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (stream == nullptr) return phal::NullArgument("stream");
    return stream->device->Check(
        stream->device->api->stream_synchronize(stream->state->handle));
  });
}

PHAL_API phal_status_t* phal_stream_copy_from_host(phal_stream_t* stream,
                                                   const void* source,
                                                   phal_buffer_t* buffer,
                                                   uint64_t offset,
                                                   uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (stream == nullptr) return phal::NullArgument("stream");
    if (source == nullptr && byte_size != 0)
      return phal::NullArgument("source");
    PHAL_RETURN_IF_ERROR(phal::CheckOnDevice(stream, buffer, "buffer"));
    PHAL_RETURN_IF_ERROR(phal::CheckRange(buffer, offset, byte_size, "copy"));
    if (byte_size == 0) return phal::OkStatus();
    buffer->NoteStreamUse(stream->state);
    return stream->device->Check(stream->device->api->stream_copy_from_host(
        stream->state->handle, source, buffer->handle, offset, byte_size));
  });
}

PHAL_API phal_status_t* phal_stream_copy_to_host(phal_stream_t* stream,
                                                 const phal_buffer_t* buffer,
                                                 uint64_t offset,
                                                 void* destination,
                                                 uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (stream == nullptr) return phal::NullArgument("stream");
    if (destination == nullptr && byte_size != 0) {
      return phal::NullArgument("destination");
    }
    PHAL_RETURN_IF_ERROR(phal::CheckOnDevice(stream, buffer, "buffer"));
    PHAL_RETURN_IF_ERROR(phal::CheckRange(buffer, offset, byte_size, "copy"));
    if (byte_size == 0) return phal::OkStatus();
    const_cast<phal_buffer*>(buffer)->NoteStreamUse(stream->state);
    return stream->device->Check(stream->device->api->stream_copy_to_host(
        stream->state->handle, buffer->handle, offset, destination, byte_size));
  });
}

PHAL_API phal_status_t* phal_stream_copy_buffer(phal_stream_t* stream,
                                                const phal_buffer_t* source,
                                                uint64_t source_offset,
                                                phal_buffer_t* destination,
                                                uint64_t destination_offset,
                                                uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (stream == nullptr) return phal::NullArgument("stream");
    PHAL_RETURN_IF_ERROR(phal::CheckSamePlugin(stream, source, "source"));
    PHAL_RETURN_IF_ERROR(
        phal::CheckSamePlugin(stream, destination, "destination"));
    PHAL_RETURN_IF_ERROR(
        phal::CheckRange(source, source_offset, byte_size, "source"));
    PHAL_RETURN_IF_ERROR(phal::CheckRange(destination, destination_offset,
                                          byte_size, "destination"));
    PHAL_RETURN_IF_ERROR(phal::CheckNoOverlap(
        source, source_offset, destination, destination_offset, byte_size));
    if (byte_size == 0) return phal::OkStatus();
    const_cast<phal_buffer*>(source)->NoteStreamUse(stream->state);
    destination->NoteStreamUse(stream->state);
    return stream->device->Check(stream->device->api->stream_copy_buffer(
        stream->state->handle, source->handle, source_offset,
        destination->handle, destination_offset, byte_size));
  });
}

}  // extern "C"
