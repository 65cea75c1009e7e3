#include "core/loader/validated_plugin.h"

#include <cstring>
#include <functional>
#include <set>

#include "core/abi/c_status.h"
#include "core/abi/stream_wait.h"
#include "core/loader/guard_band.h"
#include "core/loader/host_services.h"
#include "sdk/base/element_types.h"
#include "sdk/kir/facts.h"
#include "sdk/plugin_support/collective_desc.h"

namespace phal {
namespace {

constexpr phal_status_code_t kCallerError = PHAL_INVALID_ARGUMENT;
constexpr phal_status_code_t kPluginError = PHAL_INTERNAL;

std::string Bytes(uint64_t count) { return std::to_string(count) + " bytes"; }

// "1.6".
std::string VersionText(uint32_t version) {
  return std::to_string(PHAL_VERSION_MAJOR(version)) + "." +
         std::to_string(PHAL_VERSION_MINOR(version));
}

std::string Quoted(const char* text) {
  return text == nullptr ? "NULL" : "'" + std::string(text) + "'";
}

bool IsPowerOfTwo(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

uint64_t BindingBytes(const phal_kir_buffer_t& buffer) {
  uint64_t bytes =
      ElementTypeByteSize(static_cast<uint32_t>(buffer.element_type));
  for (uint32_t d = 0; d < buffer.rank; ++d) {
    bytes *= buffer.dims[d] > 0 ? static_cast<uint64_t>(buffer.dims[d]) : 0;
  }
  return bytes;
}

}  // namespace

ValidatedPlugin::ValidatedPlugin(const phal_plugin_api_t& plugin,
                                 std::string plugin_name, const Logger& log)
    : plugin_(plugin),
      plugin_name_(std::move(plugin_name)),
      log_(log),
      wait_seconds_(ExecuteTimeoutFromEnv()) {}

ValidatedPlugin::~ValidatedPlugin() {
  for (auto& [stream, status] : pending_errors_) phal_status_free(status);
}

Status ValidatedPlugin::Violation(const char* rule, phal_status_code_t code,
                                  const std::string& call,
                                  const std::string& detail) {
  ++violations_;
  std::string message = "validation layer, plugin '" + plugin_name_ +
                        "': rule " + rule + " broken in " + call + ": " +
                        detail;
  log_.Log(PHAL_LOG_LEVEL_ERROR, message);
  return Status(code, std::move(message));
}

phal_status_t* ValidatedPlugin::Report(const char* rule,
                                       phal_status_code_t code,
                                       const std::string& call,
                                       const std::string& detail) {
  return ToCStatus(Violation(rule, code, call, detail));
}

std::string ValidatedPlugin::Label(const HandleRecord& record) {
  if (record.kind != HandleKind::kDevice) {
    return HandleRegistry::Describe(record);
  }
  if (record.name.empty()) return record.origin;
  return record.origin + " '" + record.name + "'";
}

std::string ValidatedPlugin::DeviceLabel(const void* device) const {
  std::optional<HandleRecord> record = registry_.Find(device);
  if (!record) return "a device no longer open";
  return Label(*record);
}

StatusOr<HandleRecord> ValidatedPlugin::Expect(const void* handle,
                                               HandleKind kind,
                                               const char* call,
                                               const char* argument) {
  std::string what =
      std::string(argument) + " (a " + HandleKindName(kind) + ")";
  if (handle == nullptr) {
    return Violation("handle.null", kCallerError, call, what + " is NULL");
  }
  std::optional<HandleRecord> record = registry_.Find(handle);
  if (!record) {
    return Violation("handle.unknown", kCallerError, call,
                     what +
                         " is not a live handle of this plugin: never "
                         "returned by it, or already released");
  }
  if (record->kind != kind) {
    return Violation("handle.kind", kCallerError, call,
                     what + " is " + Label(*record));
  }
  return *record;
}

phal_status_t* ValidatedPlugin::Returned(const char* call,
                                         phal_status_t* status) {
  if (status == nullptr) return nullptr;
  const int code = status->code;
  std::string original = "the status it returned (code " +
                         std::to_string(code) + ", message '" +
                         status->message + "')";
  const char* rule = nullptr;
  std::string detail;
  if (status->created_as_ok) {
    rule = "status.ok_is_null";
    detail = original +
             " was made with PHAL_OK; success is returned as NULL, a "
             "status is an error";
  } else if (code <= PHAL_OK || code > PHAL_UNAUTHENTICATED) {
    rule = "status.code";
    detail = original + " has no phal_status_code_t code";
  } else if (status->message.empty()) {
    rule = "status.message";
    detail = std::string(StatusCodeName(CodeOf(*status))) +
             " status with an empty message; say what failed";
  }
  if (rule == nullptr) return status;
  phal_status_free(status);
  return Report(rule, kPluginError, call, detail);
}

phal_status_t* ValidatedPlugin::Register(const char* call,
                                         phal_status_t* status,
                                         const void* handle,
                                         HandleRecord record) {
  status = Returned(call, status);
  if (status != nullptr) return status;
  const char* kind = HandleKindName(record.kind);
  if (handle == nullptr) {
    return Report("handle.null_result", kPluginError, call,
                  std::string("returned success and a NULL ") + kind);
  }
  std::string origin = record.origin;
  std::optional<HandleRecord> clash = registry_.Add(handle, std::move(record));
  if (clash) {
    return Report("handle.duplicate", kPluginError, call,
                  std::string("returned as a new ") + kind +
                      " the live handle of " + Label(*clash));
  }
  return nullptr;
}

template <typename Release>
phal_status_t* ValidatedPlugin::CheckRefused(const char* call,
                                             const HandleRecord& device,
                                             phal_status_t* status,
                                             Release&& release) {
  if (!device.compile_only || status != nullptr) return status;
  release();
  return Report("compile_only.refusal", kPluginError, call,
                "succeeded on compile-only " + Label(device) +
                    "; it must fail with FAILED_PRECONDITION");
}

Status ValidatedPlugin::CheckRange(const char* call, const HandleRecord& buffer,
                                   uint64_t offset, uint64_t byte_size,
                                   const char* what) {
  if (offset <= buffer.byte_size && byte_size <= buffer.byte_size - offset) {
    return OkStatus();
  }
  return Violation("range.bounds", PHAL_OUT_OF_RANGE, call,
                   std::string(what) + " range [" + std::to_string(offset) +
                       ", " + std::to_string(offset) + "+" +
                       std::to_string(byte_size) + ") exceeds the " +
                       Bytes(buffer.byte_size) + " of " + Label(buffer));
}

Status ValidatedPlugin::CheckSameDevice(const char* call,
                                        const HandleRecord& stream,
                                        const HandleRecord& object,
                                        const char* what) {
  if (object.device == stream.device) return OkStatus();
  return Violation("device.owner", kCallerError, call,
                   std::string(what) + " " + Label(object) + " lives on " +
                       DeviceLabel(object.device) + ", the stream on " +
                       DeviceLabel(stream.device));
}

// ---- shutdown --------------------------------------------------------------

void ValidatedPlugin::Shutdown() { plugin_.shutdown(); }

// ---- devices ---------------------------------------------------------------

phal_status_t* ValidatedPlugin::DeviceCount(size_t* out_count,
                                            const char** out_reason) {
  constexpr const char* kCall = "device_count";
  if (out_count == nullptr || out_reason == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "out_count or out_reason is NULL");
  }
  phal_status_t* status =
      Returned(kCall, plugin_.device_count(out_count, out_reason));
  if (status != nullptr) return status;
  if (*out_count > 0 && *out_reason != nullptr) {
    return Report("device_count.reason", kPluginError, kCall,
                  std::to_string(*out_count) +
                      " devices and a reason for having none (" +
                      Quoted(*out_reason) + "); set it to NULL");
  }
  device_count_ = *out_count;
  device_count_known_ = true;
  return nullptr;
}

phal_status_t* ValidatedPlugin::DeviceOpen(size_t ordinal,
                                           phal_plugin_device_t** out_device) {
  constexpr const char* kCall = "device_open";
  if (out_device == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_device is NULL");
  }
  if (device_count_known_ && ordinal >= device_count_) {
    return Report("device.ordinal", kCallerError, kCall,
                  "ordinal " + std::to_string(ordinal) +
                      " is not below the device count " +
                      std::to_string(device_count_.load()));
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (open_ordinals_.count(ordinal) > 0) {
      return Report("device.reopen", kCallerError, kCall,
                    "device " + std::to_string(ordinal) +
                        " is open already; the core opens each device once");
    }
  }
  HandleRecord record;
  record.kind = HandleKind::kDevice;
  record.origin = "device " + std::to_string(ordinal);
  phal_status_t* status = plugin_.device_open(ordinal, out_device);
  status = Register(kCall, status, status ? nullptr : *out_device,
                    std::move(record));
  if (status == nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ordinals_[ordinal] = *out_device;
  }
  return status;
}

void ValidatedPlugin::DeviceClose(phal_plugin_device_t* device) {
  if (!Expect(device, HandleKind::kDevice, "device_close", "device").ok()) {
    return;
  }
  std::vector<HandleRecord> live = registry_.LiveOn(device);
  if (!live.empty()) {
    std::string list;
    for (const HandleRecord& record : live) {
      list += "\n  " + Label(record);
      registry_.Remove(record.handle);
    }
    Violation("lifetime.device_close", kCallerError, "device_close",
              DeviceLabel(device) + " closed with " +
                  std::to_string(live.size()) +
                  " of its objects never released:" + list)
        .ok();
  }
  phal_plugin_stream_t* guard = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = guard_streams_.find(device);
    if (it != guard_streams_.end()) {
      guard = it->second;
      guard_streams_.erase(it);
    }
    std::erase_if(open_ordinals_,
                  [&](const auto& entry) { return entry.second == device; });
  }
  if (guard != nullptr) plugin_.stream_destroy(guard);
  registry_.Remove(device);
  plugin_.device_close(device);
}

phal_status_t* ValidatedPlugin::DeviceGetProperties(
    phal_plugin_device_t* device, phal_device_properties_t* out) {
  constexpr const char* kCall = "device_get_properties";
  StatusOr<HandleRecord> record =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!record.ok()) return ToCStatus(record.status());
  if (out == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out is NULL");
  }
  phal_status_t* status =
      Returned(kCall, plugin_.device_get_properties(device, out));
  if (status != nullptr) return status;
  const std::string label = Label(*record);
  if (out->name == nullptr || out->vendor == nullptr ||
      out->driver_version == nullptr || out->features == nullptr) {
    return Report("properties.strings", kPluginError, kCall,
                  label +
                      ": name, vendor, driver_version and features must "
                      "not be NULL (\"\" when unknown)");
  }
  if (out->memory_space_count == 0) {
    return Report("properties.memory_spaces", kPluginError, kCall,
                  label + " has no memory space");
  }
  if (!IsPowerOfTwo(out->min_alignment)) {
    return Report("properties.alignment", kPluginError, kCall,
                  label + ": min_alignment " +
                      std::to_string(out->min_alignment) +
                      " is not a power of two");
  }
  const bool has_kinds =
      out->struct_size >=
      PHAL_STRUCT_SIZE(phal_device_properties_t, kernel_kinds);
  registry_.Update(device, [&](HandleRecord& r) {
    r.name = out->name;
    r.memory_space_count = out->memory_space_count;
    if (has_kinds) {
      r.kernel_kinds_known = true;
      r.kernel_kinds = out->kernel_kinds;
    }
  });
  return nullptr;
}

phal_status_t* ValidatedPlugin::DeviceGetMemorySpace(
    phal_plugin_device_t* device, uint32_t index,
    phal_memory_space_info_t* out) {
  constexpr const char* kCall = "device_get_memory_space";
  StatusOr<HandleRecord> record =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!record.ok()) return ToCStatus(record.status());
  if (out == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out is NULL");
  }
  if (record->memory_space_count != 0 && index >= record->memory_space_count) {
    return Report("argument.memory_space", kCallerError, kCall,
                  "memory space " + std::to_string(index) + " of " +
                      Label(*record) + ", which has " +
                      std::to_string(record->memory_space_count));
  }
  phal_status_t* status =
      Returned(kCall, plugin_.device_get_memory_space(device, index, out));
  if (status != nullptr) return status;
  const int kind = static_cast<int>(out->kind);
  if (out->name == nullptr || kind < PHAL_MEMORY_KIND_DEVICE ||
      kind > PHAL_MEMORY_KIND_UNIFIED) {
    return Report("properties.memory_space", kPluginError, kCall,
                  "memory space " + std::to_string(index) + " of " +
                      Label(*record) + " has a NULL name or a kind (" +
                      std::to_string(kind) + ") outside phal_memory_kind_t");
  }
  return nullptr;
}

// ---- memory ----------------------------------------------------------------

phal_plugin_stream_t* ValidatedPlugin::GuardStream(const void* device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = guard_streams_.find(device);
  if (it != guard_streams_.end()) return it->second;
  phal_plugin_stream_t* stream = nullptr;
  phal_status_t* status = plugin_.stream_create(
      const_cast<phal_plugin_device_t*>(
          static_cast<const phal_plugin_device_t*>(device)),
      &stream);
  if (status != nullptr) {
    phal_status_free(status);
    stream = nullptr;
  }
  guard_streams_[device] = stream;
  return stream;
}

bool ValidatedPlugin::WriteGuardBand(phal_plugin_stream_t* stream,
                                     phal_plugin_buffer_t* buffer,
                                     uint64_t byte_size) {
  Status copied = TakeCStatus(plugin_.stream_copy_from_host(
      stream, GuardBandPattern(), buffer, byte_size, kGuardBandBytes));
  Status synced = TakeCStatus(plugin_.stream_synchronize(stream));
  return copied.ok() && synced.ok();
}

phal_status_t* ValidatedPlugin::BufferAllocate(
    phal_plugin_device_t* device, uint32_t memory_space, uint64_t byte_size,
    phal_plugin_buffer_t** out_buffer) {
  constexpr const char* kCall = "buffer_allocate";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (out_buffer == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_buffer is NULL");
  }
  if (owner->memory_space_count != 0 &&
      memory_space >= owner->memory_space_count) {
    return Report("argument.memory_space", kCallerError, kCall,
                  "memory space " + std::to_string(memory_space) + " of " +
                      Label(*owner) + ", which has " +
                      std::to_string(owner->memory_space_count));
  }
  uint64_t guard =
      owner->compile_only || byte_size > UINT64_MAX / 2 ? 0 : kGuardBandBytes;
  phal_status_t* status = plugin_.buffer_allocate(
      device, memory_space, byte_size + guard, out_buffer);
  if (status != nullptr && guard != 0 &&
      status->code == PHAL_RESOURCE_EXHAUSTED) {
    phal_status_free(status);
    guard = 0;
    status =
        plugin_.buffer_allocate(device, memory_space, byte_size, out_buffer);
  }
  status = CheckRefused(kCall, *owner, status,
                        [&] { plugin_.buffer_free(*out_buffer); });
  if (status != nullptr) return Returned(kCall, status);
  HandleRecord record;
  record.kind = HandleKind::kBuffer;
  record.device = device;
  record.origin = "buffer_allocate(" + DeviceLabel(device) + ", memory space " +
                  std::to_string(memory_space) + ", " + Bytes(byte_size) + ")";
  record.byte_size = byte_size;
  status = Register(kCall, nullptr, *out_buffer, std::move(record));
  if (status != nullptr || guard == 0) return status;
  phal_plugin_stream_t* stream = GuardStream(device);
  if (stream != nullptr && WriteGuardBand(stream, *out_buffer, byte_size)) {
    registry_.Update(*out_buffer,
                     [&](HandleRecord& buffer) { buffer.guard_bytes = guard; });
  }
  return nullptr;
}

void ValidatedPlugin::BufferFree(phal_plugin_buffer_t* buffer) {
  if (!Expect(buffer, HandleKind::kBuffer, "buffer_free", "buffer").ok()) {
    return;
  }
  registry_.Remove(buffer);
  plugin_.buffer_free(buffer);
}

// ---- streams and events ----------------------------------------------------

template <typename Handle>
phal_status_t* ValidatedPlugin::CreateOnDevice(
    const char* call, const char* out_name, HandleKind kind,
    phal_plugin_device_t* device, Handle** out,
    phal_status_t* (*create)(phal_plugin_device_t*, Handle**),
    void (*destroy)(Handle*)) {
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, call, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (out == nullptr) {
    return Report("argument.null", kCallerError, call,
                  std::string(out_name) + " is NULL");
  }
  phal_status_t* status =
      CheckRefused(call, *owner, create(device, out), [&] { destroy(*out); });
  HandleRecord record;
  record.kind = kind;
  record.device = device;
  record.origin = std::string(call) + "(" + DeviceLabel(device) + ")";
  return Register(call, status, status ? nullptr : *out, std::move(record));
}

phal_status_t* ValidatedPlugin::StreamCreate(
    phal_plugin_device_t* device, phal_plugin_stream_t** out_stream) {
  return CreateOnDevice("stream_create", "out_stream", HandleKind::kStream,
                        device, out_stream, plugin_.stream_create,
                        plugin_.stream_destroy);
}

void ValidatedPlugin::KeepPendingError(phal_plugin_stream_t* stream,
                                       phal_status_t* status) {
  if (status == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  phal_status_t*& pending = pending_errors_[stream];
  if (pending == nullptr) {
    pending = status;
  } else {
    phal_status_free(status);
  }
}

void ValidatedPlugin::StreamDestroy(phal_plugin_stream_t* stream) {
  if (!Expect(stream, HandleKind::kStream, "stream_destroy", "stream").ok()) {
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_errors_.find(stream);
    if (it != pending_errors_.end()) {
      phal_status_free(it->second);
      pending_errors_.erase(it);
    }
  }
  registry_.Remove(stream);
  plugin_.stream_destroy(stream);
}

phal_status_t* ValidatedPlugin::StreamSynchronize(
    phal_plugin_stream_t* stream) {
  constexpr const char* kCall = "stream_synchronize";
  StatusOr<HandleRecord> record =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!record.ok()) return ToCStatus(record.status());
  phal_status_t* status = Returned(kCall, plugin_.stream_synchronize(stream));
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = pending_errors_.find(stream);
  if (it == pending_errors_.end()) return status;
  phal_status_t* pending = it->second;
  pending_errors_.erase(it);
  phal_status_free(status);
  return pending;
}

phal_status_t* ValidatedPlugin::StreamCopyFromHost(phal_plugin_stream_t* stream,
                                                   const void* source,
                                                   phal_plugin_buffer_t* buffer,
                                                   uint64_t offset,
                                                   uint64_t byte_size) {
  constexpr const char* kCall = "stream_copy_from_host";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> target =
      Expect(buffer, HandleKind::kBuffer, kCall, "buffer");
  if (!target.ok()) return ToCStatus(target.status());
  Status checked = CheckSameDevice(kCall, *queue, *target, "buffer");
  if (checked.ok())
    checked = CheckRange(kCall, *target, offset, byte_size, "copy");
  if (!checked.ok()) return ToCStatus(checked);
  if (source == nullptr && byte_size != 0) {
    return Report("argument.null", kCallerError, kCall,
                  "source is NULL for a copy of " + Bytes(byte_size));
  }
  return Returned(kCall, plugin_.stream_copy_from_host(stream, source, buffer,
                                                       offset, byte_size));
}

phal_status_t* ValidatedPlugin::StreamCopyToHost(phal_plugin_stream_t* stream,
                                                 phal_plugin_buffer_t* buffer,
                                                 uint64_t offset,
                                                 void* destination,
                                                 uint64_t byte_size) {
  constexpr const char* kCall = "stream_copy_to_host";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> target =
      Expect(buffer, HandleKind::kBuffer, kCall, "buffer");
  if (!target.ok()) return ToCStatus(target.status());
  Status checked = CheckSameDevice(kCall, *queue, *target, "buffer");
  if (checked.ok())
    checked = CheckRange(kCall, *target, offset, byte_size, "copy");
  if (!checked.ok()) return ToCStatus(checked);
  if (destination == nullptr && byte_size != 0) {
    return Report("argument.null", kCallerError, kCall,
                  "destination is NULL for a copy of " + Bytes(byte_size));
  }
  return Returned(kCall, plugin_.stream_copy_to_host(stream, buffer, offset,
                                                     destination, byte_size));
}

phal_status_t* ValidatedPlugin::StreamCopyBuffer(
    phal_plugin_stream_t* stream, phal_plugin_buffer_t* source,
    uint64_t source_offset, phal_plugin_buffer_t* destination,
    uint64_t destination_offset, uint64_t byte_size) {
  constexpr const char* kCall = "stream_copy_buffer";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> from =
      Expect(source, HandleKind::kBuffer, kCall, "source");
  if (!from.ok()) return ToCStatus(from.status());
  StatusOr<HandleRecord> to =
      Expect(destination, HandleKind::kBuffer, kCall, "destination");
  if (!to.ok()) return ToCStatus(to.status());
  Status checked = CheckRange(kCall, *from, source_offset, byte_size, "source");
  if (checked.ok()) {
    checked =
        CheckRange(kCall, *to, destination_offset, byte_size, "destination");
  }
  if (!checked.ok()) return ToCStatus(checked);
  if (source == destination && byte_size != 0 &&
      source_offset < destination_offset + byte_size &&
      destination_offset < source_offset + byte_size) {
    return Report("range.overlap", kCallerError, kCall,
                  "source and destination ranges overlap in " + Label(*from));
  }
  return Returned(kCall, plugin_.stream_copy_buffer(
                             stream, source, source_offset, destination,
                             destination_offset, byte_size));
}

phal_status_t* ValidatedPlugin::EventCreate(phal_plugin_device_t* device,
                                            phal_plugin_event_t** out_event) {
  return CreateOnDevice("event_create", "out_event", HandleKind::kEvent, device,
                        out_event, plugin_.event_create, plugin_.event_destroy);
}

void ValidatedPlugin::EventDestroy(phal_plugin_event_t* event) {
  if (!Expect(event, HandleKind::kEvent, "event_destroy", "event").ok()) {
    return;
  }
  registry_.Remove(event);
  plugin_.event_destroy(event);
}

phal_status_t* ValidatedPlugin::StreamRecordEvent(phal_plugin_stream_t* stream,
                                                  phal_plugin_event_t* event) {
  constexpr const char* kCall = "stream_record_event";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> signal =
      Expect(event, HandleKind::kEvent, kCall, "event");
  if (!signal.ok()) return ToCStatus(signal.status());
  return Returned(kCall, plugin_.stream_record_event(stream, event));
}

phal_status_t* ValidatedPlugin::StreamWaitEvent(phal_plugin_stream_t* stream,
                                                phal_plugin_event_t* event) {
  constexpr const char* kCall = "stream_wait_event";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> signal =
      Expect(event, HandleKind::kEvent, kCall, "event");
  if (!signal.ok()) return ToCStatus(signal.status());
  return Returned(kCall, plugin_.stream_wait_event(stream, event));
}

phal_status_t* ValidatedPlugin::EventSynchronize(phal_plugin_event_t* event) {
  constexpr const char* kCall = "event_synchronize";
  StatusOr<HandleRecord> signal =
      Expect(event, HandleKind::kEvent, kCall, "event");
  if (!signal.ok()) return ToCStatus(signal.status());
  return Returned(kCall, plugin_.event_synchronize(event));
}

phal_status_t* ValidatedPlugin::EventQuery(phal_plugin_event_t* event,
                                           int* out_done) {
  constexpr const char* kCall = "event_query";
  StatusOr<HandleRecord> signal =
      Expect(event, HandleKind::kEvent, kCall, "event");
  if (!signal.ok()) return ToCStatus(signal.status());
  if (out_done == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_done is NULL");
  }
  phal_status_t* status = Returned(kCall, plugin_.event_query(event, out_done));
  if (status != nullptr) return status;
  if (*out_done != 0 && *out_done != 1) {
    return Report("event_query.done", kPluginError, kCall,
                  "*out_done is " + std::to_string(*out_done) + " for " +
                      Label(*signal) + "; it must be 0 or 1");
  }
  return nullptr;
}

// ---- kernels ---------------------------------------------------------------

Status ValidatedPlugin::CheckEmittedKind(const HandleRecord& device,
                                         const phal_kernel_desc_t& kernel) {
  const uint32_t kind = KernelKindValue(kernel);
  const uint32_t added = KernelKindAbiVersion(kind);
  const std::string what = std::string("kernel '") +
                           (kernel.name != nullptr ? kernel.name : "") +
                           "' is of kind " + std::to_string(kind) + " (" +
                           KernelKindName(kind) + ")";
  if (added == 0) {
    return Violation("kernel.kind", kCallerError, "kernel_emit",
                     what + ", which no ABI version defines");
  }
  if (added > plugin_.abi_version) {
    return Violation("kernel.kind", kCallerError, "kernel_emit",
                     what + ", which ABI " + VersionText(added) +
                         " added; the plugin negotiated ABI " +
                         VersionText(plugin_.abi_version));
  }
  if (device.kernel_kinds_known &&
      (device.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind)) == 0) {
    return Violation(
        "kernel.kind", kCallerError, "kernel_emit",
        what + ", which " + Label(device) + " does not report in kernel_kinds");
  }
  return OkStatus();
}

phal_status_t* ValidatedPlugin::KernelEmit(phal_plugin_device_t* device,
                                           const phal_kernel_desc_t* kernel,
                                           const phal_kernel_options_t* options,
                                           phal_plugin_kernel_t** out_kernel) {
  constexpr const char* kCall = "kernel_emit";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (kernel == nullptr || out_kernel == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "kernel or out_kernel is NULL");
  }
  if (Status kind = CheckEmittedKind(*owner, *kernel); !kind.ok()) {
    return ToCStatus(kind);
  }
  HandleRecord record;
  record.kind = HandleKind::kKernel;
  record.device = device;
  record.name = kernel->name != nullptr ? kernel->name : "";
  record.origin = "kernel_emit(" + DeviceLabel(device) + ", kernel '" +
                  record.name + "', " + std::to_string(kernel->buffer_count) +
                  " buffers)";
  for (uint32_t i = 0; i < kernel->buffer_count; ++i) {
    record.binding_bytes.push_back(BindingBytes(kernel->buffers[i]));
  }
  phal_status_t* status =
      plugin_.kernel_emit(device, kernel, options, out_kernel);
  return Register(kCall, status, status ? nullptr : *out_kernel,
                  std::move(record));
}

void ValidatedPlugin::KernelDestroy(phal_plugin_kernel_t* kernel) {
  if (!Expect(kernel, HandleKind::kKernel, "kernel_destroy", "kernel").ok()) {
    return;
  }
  registry_.Remove(kernel);
  plugin_.kernel_destroy(kernel);
}

phal_status_t* ValidatedPlugin::KernelSerialize(phal_plugin_kernel_t* kernel,
                                                void** out_data,
                                                uint64_t* out_size) {
  constexpr const char* kCall = "kernel_serialize";
  StatusOr<HandleRecord> record =
      Expect(kernel, HandleKind::kKernel, kCall, "kernel");
  if (!record.ok()) return ToCStatus(record.status());
  if (out_data == nullptr || out_size == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "out_data or out_size is NULL");
  }
  phal_status_t* status =
      Returned(kCall, plugin_.kernel_serialize(kernel, out_data, out_size));
  if (status != nullptr) return status;
  if (*out_data == nullptr || *out_size == 0) {
    HostServices()->host_free(*out_data);
    *out_data = nullptr;
    return Report("kernel_serialize.output", kPluginError, kCall,
                  "returned success and no bytes for " + Label(*record));
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::KernelDeserialize(
    phal_plugin_device_t* device, const void* data, uint64_t size,
    phal_plugin_kernel_t** out_kernel) {
  constexpr const char* kCall = "kernel_deserialize";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if ((data == nullptr && size != 0) || out_kernel == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "data or out_kernel is NULL");
  }
  HandleRecord record;
  record.kind = HandleKind::kKernel;
  record.device = device;
  record.origin =
      "kernel_deserialize(" + DeviceLabel(device) + ", " + Bytes(size) + ")";
  phal_status_t* status =
      plugin_.kernel_deserialize(device, data, size, out_kernel);
  return Register(kCall, status, status ? nullptr : *out_kernel,
                  std::move(record));
}

phal_status_t* ValidatedPlugin::StreamLaunch(
    phal_plugin_stream_t* stream, phal_plugin_kernel_t* kernel,
    phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  constexpr const char* kCall = "stream_launch";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> code =
      Expect(kernel, HandleKind::kKernel, kCall, "kernel");
  if (!code.ok()) return ToCStatus(code.status());
  Status checked = CheckSameDevice(kCall, *queue, *code, "kernel");
  if (!checked.ok()) return ToCStatus(checked);
  if (buffers == nullptr && buffer_count != 0) {
    return Report(
        "argument.null", kCallerError, kCall,
        "buffers is NULL and buffer_count " + std::to_string(buffer_count));
  }
  const std::vector<uint64_t>& bindings = code->binding_bytes;
  if (!bindings.empty() && bindings.size() != buffer_count) {
    return Report("launch.binding", kCallerError, kCall,
                  std::to_string(buffer_count) + " buffers bound to " +
                      Label(*code) + ", which takes " +
                      std::to_string(bindings.size()));
  }
  for (uint32_t i = 0; i < buffer_count; ++i) {
    std::string argument = "buffers[" + std::to_string(i) + "]";
    StatusOr<HandleRecord> bound =
        Expect(buffers[i], HandleKind::kBuffer, kCall, argument.c_str());
    if (!bound.ok()) return ToCStatus(bound.status());
    checked = CheckSameDevice(kCall, *queue, *bound, argument.c_str());
    if (!checked.ok()) return ToCStatus(checked);
    if (!bindings.empty() && bound->byte_size < bindings[i]) {
      return Report("launch.binding", PHAL_OUT_OF_RANGE, kCall,
                    argument + " " + Label(*bound) + " holds " +
                        Bytes(bound->byte_size) + "; " + Label(*code) +
                        " reads or writes " + Bytes(bindings[i]) + " there");
    }
  }
  phal_status_t* status = Returned(
      kCall, plugin_.stream_launch(stream, kernel, buffers, buffer_count));
  if (status != nullptr) return status;
  return CheckGuardBands(stream, *code, buffers, buffer_count);
}

phal_status_t* ValidatedPlugin::CheckGuardBands(
    phal_plugin_stream_t* stream, const HandleRecord& kernel,
    phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  struct Band {
    uint32_t binding;
    HandleRecord buffer;
  };
  std::vector<Band> bands;
  std::set<phal_plugin_buffer_t*> seen;
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (!seen.insert(buffers[i]).second) continue;
    std::optional<HandleRecord> record = registry_.Find(buffers[i]);
    if (record && record->guard_bytes != 0) bands.push_back({i, *record});
  }
  if (bands.empty()) return nullptr;
  std::vector<uint8_t> read(bands.size() * kGuardBandBytes);
  for (size_t i = 0; i < bands.size(); ++i) {
    Status copied = TakeCStatus(plugin_.stream_copy_to_host(
        stream, buffers[bands[i].binding], bands[i].buffer.byte_size,
        &read[i * kGuardBandBytes], kGuardBandBytes));
    if (!copied.ok()) return nullptr;
  }
  std::optional<HandleRecord> queue = registry_.Find(stream);
  StreamWaitResult waited =
      WaitForStream(&plugin_,
                    const_cast<phal_plugin_device_t*>(
                        static_cast<const phal_plugin_device_t*>(
                            queue ? queue->device : nullptr)),
                    stream, wait_seconds_);
  if (waited.outcome == StreamWaitOutcome::kTimedOut) {
    // The launch outlived PHAL_EXECUTE_TIMEOUT: the core's own wait
    // reports it; the reads stay queued behind it.
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_reads_.push_back(std::move(read));
    return nullptr;
  }
  if (!waited.status.ok()) {
    // The launch failed; its error belongs to the core's synchronize.
    KeepPendingError(stream, ToCStatus(waited.status));
    return nullptr;
  }
  std::string damage;
  for (size_t i = 0; i < bands.size(); ++i) {
    std::string found = DescribeGuardBandDamage(&read[i * kGuardBandBytes]);
    if (found.empty()) continue;
    phal_plugin_buffer_t* buffer = buffers[bands[i].binding];
    KeepPendingError(stream, plugin_.stream_copy_from_host(
                                 stream, GuardBandPattern(), buffer,
                                 bands[i].buffer.byte_size, kGuardBandBytes));
    KeepPendingError(stream, plugin_.stream_synchronize(stream));
    if (!damage.empty()) damage += "; ";
    damage += "buffers[" + std::to_string(bands[i].binding) + "] " +
              Label(bands[i].buffer) + ": the guard band after its " +
              Bytes(bands[i].buffer.byte_size) + " was written, " + found;
  }
  if (damage.empty()) return nullptr;
  return Report("memory.guard_band", kPluginError, "stream_launch",
                Label(kernel) + " wrote past the end of a buffer: " + damage);
}

// ---- ahead-of-time compilation ---------------------------------------------

phal_status_t* ValidatedPlugin::TargetGetNames(const char* const** out_names,
                                               size_t* out_count) {
  constexpr const char* kCall = "target_get_names";
  if (out_names == nullptr || out_count == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "out_names or out_count is NULL");
  }
  phal_status_t* status =
      Returned(kCall, plugin_.target_get_names(out_names, out_count));
  if (status != nullptr || *out_count == 0) return status;
  if (*out_names == nullptr) {
    return Report("targets.names", kPluginError, kCall,
                  std::to_string(*out_count) + " targets and a NULL array");
  }
  for (size_t i = 0; i < *out_count; ++i) {
    const char* name = (*out_names)[i];
    if (name == nullptr || name[0] == '\0' || std::strchr(name, ',')) {
      return Report("targets.names", kPluginError, kCall,
                    "target " + std::to_string(i) + " is " + Quoted(name) +
                        "; names are non-empty and contain no ','");
    }
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::TargetDeviceOpen(
    const char* target, phal_plugin_device_t** out_device) {
  constexpr const char* kCall = "target_device_open";
  if (out_device == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_device is NULL");
  }
  HandleRecord record;
  record.kind = HandleKind::kDevice;
  record.compile_only = true;
  record.origin = "compile-only device of target " + Quoted(target);
  phal_status_t* status = plugin_.target_device_open(target, out_device);
  return Register(kCall, status, status ? nullptr : *out_device,
                  std::move(record));
}

// ---- performance counters --------------------------------------------------

phal_status_t* ValidatedPlugin::DeviceGetCounters(
    phal_plugin_device_t* device, phal_device_counter_t** out_counters,
    size_t* out_count) {
  constexpr const char* kCall = "device_get_counters";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (out_counters == nullptr || out_count == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "out_counters or out_count is NULL");
  }
  if (owner->compile_only) {
    return Report("compile_only.counters", kCallerError, kCall,
                  "called on compile-only " + Label(*owner));
  }
  phal_status_t* status = Returned(
      kCall, plugin_.device_get_counters(device, out_counters, out_count));
  if (status != nullptr || *out_count == 0) return status;
  std::string problem;
  if (*out_counters == nullptr) {
    problem = std::to_string(*out_count) + " counters and a NULL array";
  }
  static const std::set<std::string> kUnits = {"cycles", "bytes", "count",
                                               "ratio"};
  for (size_t i = 0; problem.empty() && i < *out_count; ++i) {
    const phal_device_counter_t& counter = (*out_counters)[i];
    if (counter.name == nullptr || counter.kernel == nullptr ||
        counter.unit == nullptr || kUnits.count(counter.unit) == 0) {
      problem = "counter " + std::to_string(i) + " (" + Quoted(counter.name) +
                ") has a NULL string or a unit (" + Quoted(counter.unit) +
                ") other than cycles, bytes, count or ratio";
    }
  }
  if (problem.empty()) return nullptr;
  HostServices()->host_free(*out_counters);
  *out_counters = nullptr;
  *out_count = 0;
  return Report("counters.block", kPluginError, kCall,
                Label(*owner) + ": " + problem);
}

phal_status_t* ValidatedPlugin::DeviceResetCounters(
    phal_plugin_device_t* device) {
  constexpr const char* kCall = "device_reset_counters";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  return Returned(kCall, plugin_.device_reset_counters(device));
}

// ---- collectives -----------------------------------------------------------

Status ValidatedPlugin::CheckRunnableDevice(const char* call,
                                            const void* device,
                                            const char* argument,
                                            HandleRecord* out) {
  PHAL_ASSIGN_OR_RETURN(*out,
                        Expect(device, HandleKind::kDevice, call, argument));
  if (out->compile_only) {
    return Violation("compile_only.collective", kCallerError, call,
                     std::string(argument) + " is compile-only " + Label(*out));
  }
  return OkStatus();
}

phal_status_t* ValidatedPlugin::CheckSupportAnswer(
    const char* call, phal_plugin_device_t* device,
    const phal_collective_desc_t* desc, int* out_supported, bool arguments_ok,
    const char* bad_arguments, const std::function<phal_status_t*()>& ask) {
  HandleRecord owner;
  Status checked = CheckRunnableDevice(call, device, "device", &owner);
  if (!checked.ok()) return ToCStatus(checked);
  StatusOr<CollectiveDesc> read = CollectiveDesc::From(desc);
  if (!read.ok()) {
    return Report("collective.desc", kCallerError, call,
                  read.status().message());
  }
  if (out_supported == nullptr || !arguments_ok) {
    return Report("argument.null", kCallerError, call, bad_arguments);
  }
  *out_supported = -1;
  phal_status_t* status = Returned(call, ask());
  if (status != nullptr) return status;
  if (*out_supported != 0 && *out_supported != 1) {
    return Report("collective.supported_value", kPluginError, call,
                  "set *out_supported to " + std::to_string(*out_supported) +
                      " for " + read->ToString() + "; it must be 0 or 1");
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::CheckCommunicatorDevices(
    const char* call, phal_plugin_device_t* const* devices, uint32_t count,
    std::string* labels) {
  std::set<const void*> seen;
  for (uint32_t i = 0; i < count; ++i) {
    HandleRecord owner;
    const std::string argument = "devices[" + std::to_string(i) + "]";
    Status checked =
        CheckRunnableDevice(call, devices[i], argument.c_str(), &owner);
    if (!checked.ok()) return ToCStatus(checked);
    if (!seen.insert(devices[i]).second) {
      return Report("collective.distinct_devices", kCallerError, call,
                    argument + " repeats " + Label(owner));
    }
    *labels += (i > 0 ? ", " : "") + Label(owner);
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::RegisterCommunicators(
    const char* call, phal_plugin_device_t* const* devices,
    const uint32_t* ranks, uint32_t count, uint32_t rank_count, bool joined,
    const std::string& labels, phal_plugin_communicator_t** communicators) {
  for (uint32_t i = 0; i < count; ++i) {
    HandleRecord record;
    record.kind = HandleKind::kCommunicator;
    record.device = devices[i];
    record.rank = ranks != nullptr ? ranks[i] : i;
    record.ranks = rank_count;
    record.joined = joined;
    record.origin = std::string(call) + "(rank " + std::to_string(record.rank) +
                    " of " + std::to_string(rank_count) + ": " + labels + ")";
    phal_status_t* registered =
        Register(call, nullptr, communicators[i], std::move(record));
    if (registered != nullptr) return registered;
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::DeviceSupportsCollective(
    phal_plugin_device_t* device, const phal_collective_desc_t* desc,
    int* out_supported) {
  return CheckSupportAnswer("device_supports_collective", device, desc,
                            out_supported, true, "out_supported is NULL", [&] {
                              return plugin_.device_supports_collective(
                                  device, desc, out_supported);
                            });
}

phal_status_t* ValidatedPlugin::CommunicatorCreate(
    phal_plugin_device_t* const* devices, uint32_t count,
    phal_plugin_communicator_t** out_communicators) {
  constexpr const char* kCall = "communicator_create";
  if (devices == nullptr || out_communicators == nullptr || count == 0) {
    return Report("argument.null", kCallerError, kCall,
                  "devices or out_communicators is NULL, or count is 0");
  }
  std::string labels;
  if (phal_status_t* bad =
          CheckCommunicatorDevices(kCall, devices, count, &labels)) {
    return bad;
  }
  for (uint32_t i = 0; i < count; ++i) out_communicators[i] = nullptr;
  phal_status_t* status = Returned(
      kCall, plugin_.communicator_create(devices, count, out_communicators));
  if (status != nullptr) return status;
  return RegisterCommunicators(kCall, devices, nullptr, count, count, false,
                               labels, out_communicators);
}

void ValidatedPlugin::CommunicatorDestroy(
    phal_plugin_communicator_t* communicator) {
  if (!Expect(communicator, HandleKind::kCommunicator, "communicator_destroy",
              "communicator")
           .ok()) {
    return;
  }
  registry_.Remove(communicator);
  plugin_.communicator_destroy(communicator);
}

phal_status_t* ValidatedPlugin::CommunicatorAbort(
    phal_plugin_communicator_t* communicator) {
  constexpr const char* kCall = "communicator_abort";
  StatusOr<HandleRecord> record =
      Expect(communicator, HandleKind::kCommunicator, kCall, "communicator");
  if (!record.ok()) return ToCStatus(record.status());
  return Returned(kCall, plugin_.communicator_abort(communicator));
}

phal_status_t* ValidatedPlugin::StreamCollective(
    phal_plugin_stream_t* stream, phal_plugin_communicator_t* communicator,
    const phal_collective_desc_t* desc, phal_plugin_buffer_t* send,
    uint64_t send_offset, phal_plugin_buffer_t* recv, uint64_t recv_offset) {
  constexpr const char* kCall = "stream_collective";
  StatusOr<HandleRecord> queue =
      Expect(stream, HandleKind::kStream, kCall, "stream");
  if (!queue.ok()) return ToCStatus(queue.status());
  StatusOr<HandleRecord> rank =
      Expect(communicator, HandleKind::kCommunicator, kCall, "communicator");
  if (!rank.ok()) return ToCStatus(rank.status());
  StatusOr<HandleRecord> from =
      Expect(send, HandleKind::kBuffer, kCall, "send");
  if (!from.ok()) return ToCStatus(from.status());
  StatusOr<HandleRecord> to = Expect(recv, HandleKind::kBuffer, kCall, "recv");
  if (!to.ok()) return ToCStatus(to.status());
  Status checked = CheckSameDevice(kCall, *queue, *rank, "communicator");
  if (checked.ok()) checked = CheckSameDevice(kCall, *queue, *from, "send");
  if (checked.ok()) checked = CheckSameDevice(kCall, *queue, *to, "recv");
  if (!checked.ok()) return ToCStatus(checked);
  StatusOr<CollectiveDesc> read = CollectiveDesc::From(desc);
  StatusOr<CollectiveBytes> bytes =
      read.ok() ? CheckCollectiveDesc(*read, rank->ranks)
                : StatusOr<CollectiveBytes>(read.status());
  if (!bytes.ok()) {
    return Report("collective.desc", kCallerError, kCall,
                  bytes.status().message());
  }
  const uint64_t element = ElementTypeByteSize(read->element_type);
  if (send_offset % element != 0 || recv_offset % element != 0) {
    return Report("collective.alignment", kCallerError, kCall,
                  "send_offset " + std::to_string(send_offset) +
                      " or recv_offset " + std::to_string(recv_offset) +
                      " is not a multiple of the element size " +
                      std::to_string(element));
  }
  checked = CheckRange(kCall, *from, send_offset, bytes->send, "send");
  if (checked.ok()) {
    checked = CheckRange(kCall, *to, recv_offset, bytes->recv, "recv");
  }
  if (!checked.ok()) return ToCStatus(checked);
  if (send == recv && bytes->send != 0 && bytes->recv != 0 &&
      send_offset < recv_offset + bytes->recv &&
      recv_offset < send_offset + bytes->send) {
    return Report("range.overlap", kCallerError, kCall,
                  "send and recv ranges overlap in " + Label(*from));
  }
  int supported = 0;
  auto* device =
      static_cast<phal_plugin_device_t*>(const_cast<void*>(queue->device));
  phal_status_t* query =
      rank->joined
          ? plugin_.device_supports_joined_collective(device, desc, rank->ranks,
                                                      &supported)
          : plugin_.device_supports_collective(device, desc, &supported);
  if (query != nullptr) phal_status_free(query);
  if (supported != 1) {
    return Report(
        "collective.unsupported", kCallerError, kCall,
        read->ToString() + " on " + DeviceLabel(queue->device) +
            (rank->joined ? ", which device_supports_joined_collective does "
                            "not run over " +
                                std::to_string(rank->ranks) + " ranks"
                          : ", which device_supports_collective does not "
                            "run"));
  }
  return Returned(kCall,
                  plugin_.stream_collective(stream, communicator, desc, send,
                                            send_offset, recv, recv_offset));
}

phal_status_t* ValidatedPlugin::DeviceSupportsJoinedCollective(
    phal_plugin_device_t* device, const phal_collective_desc_t* desc,
    uint32_t rank_count, int* out_supported) {
  return CheckSupportAnswer("device_supports_joined_collective", device, desc,
                            out_supported, rank_count != 0,
                            "out_supported is NULL or rank_count is 0", [&] {
                              return plugin_.device_supports_joined_collective(
                                  device, desc, rank_count, out_supported);
                            });
}

phal_status_t* ValidatedPlugin::CommunicatorMakeId(
    phal_plugin_device_t* device, phal_communicator_id_t* out_id) {
  constexpr const char* kCall = "communicator_make_id";
  HandleRecord owner;
  Status checked = CheckRunnableDevice(kCall, device, "device", &owner);
  if (!checked.ok()) return ToCStatus(checked);
  if (out_id == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_id is NULL");
  }
  return Returned(kCall, plugin_.communicator_make_id(device, out_id));
}

phal_status_t* ValidatedPlugin::CommunicatorJoin(
    const phal_communicator_id_t* id, uint32_t rank_count,
    phal_plugin_device_t* const* devices, const uint32_t* ranks, uint32_t count,
    uint64_t timeout_ms, phal_plugin_communicator_t** out_communicators) {
  constexpr const char* kCall = "communicator_join";
  if (id == nullptr || devices == nullptr || ranks == nullptr ||
      out_communicators == nullptr || count == 0) {
    return Report("argument.null", kCallerError, kCall,
                  "id, devices, ranks or out_communicators is NULL, or count "
                  "is 0");
  }
  std::string labels;
  if (phal_status_t* bad =
          CheckCommunicatorDevices(kCall, devices, count, &labels)) {
    return bad;
  }
  std::set<uint32_t> taken;
  for (uint32_t i = 0; i < count; ++i) {
    if (ranks[i] >= rank_count || !taken.insert(ranks[i]).second) {
      return Report("collective.rank", kCallerError, kCall,
                    "ranks[" + std::to_string(i) +
                        "] = " + std::to_string(ranks[i]) +
                        " is repeated or not below rank_count " +
                        std::to_string(rank_count));
    }
  }
  for (uint32_t i = 0; i < count; ++i) out_communicators[i] = nullptr;
  phal_status_t* status = Returned(
      kCall, plugin_.communicator_join(id, rank_count, devices, ranks, count,
                                       timeout_ms, out_communicators));
  if (status != nullptr) return status;
  return RegisterCommunicators(kCall, devices, ranks, count, rank_count, true,
                               labels, out_communicators);
}

// ---- whole programs (ABI 1.13) ---------------------------------------------

phal_status_t* ValidatedPlugin::ProgramGetFormats(phal_plugin_device_t* device,
                                                  uint32_t* out_formats) {
  constexpr const char* kCall = "program_get_formats";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (out_formats == nullptr) {
    return Report("argument.null", kCallerError, kCall, "out_formats is NULL");
  }
  *out_formats = 0;
  phal_status_t* status =
      Returned(kCall, plugin_.program_get_formats(device, out_formats));
  if (status != nullptr) return status;
  constexpr uint32_t kKnown =
      PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_HLO_TEXT) |
      PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_STABLEHLO) |
      PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_KIR_GRAPH);
  if ((*out_formats & ~kKnown) != 0) {
    return Report("program.formats", kPluginError, kCall,
                  "answered formats " + std::to_string(*out_formats) + " for " +
                      DeviceLabel(device) +
                      ", with bits of no phal_plugin_program_format_t");
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::ProgramAcceptsOp(phal_plugin_device_t* device,
                                                 const phal_program_op_t* op,
                                                 int* out_accepted) {
  constexpr const char* kCall = "program_accepts_op";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (op == nullptr || out_accepted == nullptr || op->opcode == nullptr ||
      op->text == nullptr) {
    return Report("argument.null", kCallerError, kCall,
                  "op, its opcode or text, or out_accepted is NULL");
  }
  *out_accepted = -1;
  phal_status_t* status =
      Returned(kCall, plugin_.program_accepts_op(device, op, out_accepted));
  if (status != nullptr) return status;
  if (*out_accepted != 0 && *out_accepted != 1) {
    return Report("program.accepts", kPluginError, kCall,
                  "set *out_accepted to " + std::to_string(*out_accepted) +
                      " for '" + op->opcode + "'; the answer is 0 or 1");
  }
  return nullptr;
}

phal_status_t* ValidatedPlugin::ProgramCompile(
    phal_plugin_device_t* device, const phal_program_desc_t* program,
    const phal_kernel_options_t* options, phal_plugin_kernel_t** out_kernel) {
  constexpr const char* kCall = "program_compile";
  StatusOr<HandleRecord> owner =
      Expect(device, HandleKind::kDevice, kCall, "device");
  if (!owner.ok()) return ToCStatus(owner.status());
  if (program == nullptr || out_kernel == nullptr ||
      (program->parameter_count + program->result_count > 0 &&
       program->buffers == nullptr)) {
    return Report("argument.null", kCallerError, kCall,
                  "program, its buffers or out_kernel is NULL");
  }
  const bool graph = program->format == PHAL_PLUGIN_PROGRAM_KIR_GRAPH;
  if (graph ? program->graph == nullptr
            : program->data == nullptr || program->size == 0) {
    return Report("program.format", kCallerError, kCall,
                  "format " + std::to_string(program->format) +
                      (graph ? " has no graph" : " has no bytes"));
  }
  HandleRecord record;
  record.kind = HandleKind::kKernel;
  record.device = device;
  record.name = program->name != nullptr ? program->name : "";
  const uint32_t buffer_count =
      program->parameter_count + program->result_count;
  record.origin = "program_compile(" + DeviceLabel(device) + ", program '" +
                  record.name + "', " + std::to_string(buffer_count) +
                  " buffers)";
  for (uint32_t i = 0; i < buffer_count; ++i) {
    record.binding_bytes.push_back(BindingBytes(program->buffers[i]));
  }
  *out_kernel = nullptr;
  phal_status_t* status =
      plugin_.program_compile(device, program, options, out_kernel);
  return Register(kCall, status, status ? nullptr : *out_kernel,
                  std::move(record));
}

// ---- leaks -----------------------------------------------------------------

std::vector<std::string> ValidatedPlugin::LiveObjects() const {
  std::vector<std::string> live;
  for (const HandleRecord& record : registry_.Live()) {
    live.push_back(Label(record));
  }
  return live;
}

size_t ValidatedPlugin::ReportLeaks(const std::string& moment) {
  std::vector<std::string> live = LiveObjects();
  if (live.empty()) return 0;
  std::string list;
  for (const std::string& object : live) list += "\n  " + object;
  Violation("lifetime.leak", kCallerError, moment,
            std::to_string(live.size()) +
                " objects of the plugin never released:" + list)
      .ok();
  return live.size();
}

}  // namespace phal
