// The checks of the validation layer (PHAL_VALIDATION=1): one object per
// plugin a client uses, with one method per slot of phal_plugin_api_t. Each
// method checks the call against the contract plugin.h writes beside the
// slot, forwards it to the plugin, and checks what the plugin returned.
//
// What the core passes is checked before the plugin sees it: handles must
// be live handles of this plugin of the slot's kind, objects used together
// must share a device, copies must stay within the sizes the core asked
// for. A breach returns a status (INVALID_ARGUMENT, OUT_OF_RANGE or
// FAILED_PRECONDITION) and the plugin is not called; a void slot logs the
// breach and skips the call. What the plugin returns is checked after:
// statuses well formed, handles non-NULL and new, descriptions complete,
// no write past a buffer's end (its guard band, guard_band.h). A breach
// there returns INTERNAL. Every breach is logged as an error naming the
// rule, the call and the objects.
#ifndef POLYHAL_CORE_LOADER_VALIDATED_PLUGIN_H_
#define POLYHAL_CORE_LOADER_VALIDATED_PLUGIN_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/loader/handle_registry.h"
#include "polyhal/plugin.h"
#include "sdk/base/log.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/plugin_slot_list.h"

namespace phal {

class ValidatedPlugin {
 public:
  // `plugin` is a complete table (no NULL slot) that outlives this object.
  ValidatedPlugin(const phal_plugin_api_t& plugin, std::string plugin_name,
                  const Logger& log);
  ValidatedPlugin(const ValidatedPlugin&) = delete;
  ValidatedPlugin& operator=(const ValidatedPlugin&) = delete;
  ~ValidatedPlugin();

  // Breaches found so far.
  size_t violation_count() const { return violations_.load(); }
  // Every handle the plugin returned that the core has not released, in
  // creation order, each saying where it was created.
  std::vector<std::string> LiveObjects() const;
  // Logs LiveObjects as one error (rule lifetime.leak); returns how many.
  size_t ReportLeaks(const std::string& moment);

  // One check per slot, named and typed after it (plugin_slot_list.h):
  // DeviceCount for device_count. Shutdown only forwards: the layer's table
  // keeps the plugin's own shutdown (validation_layer.cc), which the library
  // calls once, last, after the client has reported leaks (ReportLeaks).
#define PHAL_VALIDATED_PLUGIN_CHECK_(major, minor, slot, Function, group) \
  std::remove_pointer_t<decltype(phal_plugin_api_t::slot)> Function;
  PHAL_PLUGIN_SLOTS(PHAL_VALIDATED_PLUGIN_CHECK_)
#undef PHAL_VALIDATED_PLUGIN_CHECK_

 private:
  // Logs a breach of `rule` in `call` and returns it as a status.
  Status Violation(const char* rule, phal_status_code_t code,
                   const std::string& call, const std::string& detail);
  phal_status_t* Report(const char* rule, phal_status_code_t code,
                        const std::string& call, const std::string& detail);
  // The record of `handle`, which the core passed as `argument` of `call`
  // and which must be a live handle of `kind`.
  StatusOr<HandleRecord> Expect(const void* handle, HandleKind kind,
                                const char* call, const char* argument);
  // `status` as the plugin returned it from `call`, or a breach of the
  // status rules (the plugin's status is then freed).
  phal_status_t* Returned(const char* call, phal_status_t* status);
  // Checks the outcome of a slot that creates `record.kind` into *out and
  // records the new handle.
  phal_status_t* Register(const char* call, phal_status_t* status,
                          const void* handle, HandleRecord record);
  // A device the plugin must refuse to allocate, stream or signal on
  // (compile-only) accepted the call; `release` frees what it returned.
  template <typename Release>
  phal_status_t* CheckRefused(const char* call, const HandleRecord& device,
                              phal_status_t* status, Release&& release);
  // A stream or an event created on `device` by `create` into *out: the
  // device checked, the handle refused on compile-only devices (freed by
  // `destroy`) and recorded as `kind`.
  template <typename Handle>
  phal_status_t* CreateOnDevice(const char* call, const char* out_name,
                                HandleKind kind, phal_plugin_device_t* device,
                                Handle** out,
                                phal_status_t* (*create)(phal_plugin_device_t*,
                                                         Handle**),
                                void (*destroy)(Handle*));
  // A support query's checks: a runnable device, a valid description,
  // out_supported set and the other arguments ok (else `bad_arguments`),
  // then `ask`'s answer, which must be 0 or 1.
  phal_status_t* CheckSupportAnswer(const char* call,
                                    phal_plugin_device_t* device,
                                    const phal_collective_desc_t* desc,
                                    int* out_supported, bool arguments_ok,
                                    const char* bad_arguments,
                                    const std::function<phal_status_t*()>& ask);
  // A communicator's devices: runnable and distinct; their labels, comma
  // separated, appended to *labels.
  phal_status_t* CheckCommunicatorDevices(const char* call,
                                          phal_plugin_device_t* const* devices,
                                          uint32_t count, std::string* labels);
  // Records communicators[i], on devices[i], as rank ranks[i] (i where
  // `ranks` is null) of `rank_count`.
  phal_status_t* RegisterCommunicators(
      const char* call, phal_plugin_device_t* const* devices,
      const uint32_t* ranks, uint32_t count, uint32_t rank_count, bool joined,
      const std::string& labels, phal_plugin_communicator_t** communicators);
  // `device`, passed as `argument` of `call`, must be a live device that
  // is not compile-only; its record in *out.
  Status CheckRunnableDevice(const char* call, const void* device,
                             const char* argument, HandleRecord* out);
  std::string DeviceLabel(const void* device) const;
  static std::string Label(const HandleRecord& record);
  Status CheckRange(const char* call, const HandleRecord& buffer,
                    uint64_t offset, uint64_t byte_size, const char* what);
  Status CheckSameDevice(const char* call, const HandleRecord& stream,
                         const HandleRecord& object, const char* what);
  // kernel_emit of `kernel` on `device`: a kind of the ABI version the
  // plugin negotiated, which the device reported (when its properties
  // were read).
  Status CheckEmittedKind(const HandleRecord& device,
                          const phal_kernel_desc_t& kernel);

  // Guard bands (guard_band.h).
  phal_plugin_stream_t* GuardStream(const void* device);
  bool WriteGuardBand(phal_plugin_stream_t* stream,
                      phal_plugin_buffer_t* buffer, uint64_t byte_size);
  phal_status_t* CheckGuardBands(phal_plugin_stream_t* stream,
                                 const HandleRecord& kernel,
                                 phal_plugin_buffer_t* const* buffers,
                                 uint32_t buffer_count);
  // Keeps an error of queued work that the layer's own synchronize
  // collected, for the core's next stream_synchronize.
  void KeepPendingError(phal_plugin_stream_t* stream, phal_status_t* status);

  const phal_plugin_api_t plugin_;
  const std::string plugin_name_;
  const Logger log_;
  HandleRegistry registry_;
  std::atomic<size_t> violations_{0};
  std::atomic<size_t> device_count_{0};
  std::atomic<bool> device_count_known_{false};

  std::mutex mutex_;
  std::unordered_map<size_t, const void*> open_ordinals_;
  std::unordered_map<const void*, phal_plugin_stream_t*> guard_streams_;
  std::unordered_map<const void*, phal_status_t*> pending_errors_;
  // PHAL_EXECUTE_TIMEOUT: how long a launch's guard-band read waits.
  const double wait_seconds_;
  // Host memory that guard-band reads queued behind work that outlived the
  // wait may still write; kept until the layer goes.
  std::vector<std::vector<uint8_t>> abandoned_reads_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_VALIDATED_PLUGIN_H_
