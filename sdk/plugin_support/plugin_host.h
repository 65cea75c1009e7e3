// A plugin's side of the ABI boundary, shared by every plugin: the host
// services the core passed to phal_plugin_entry, the conversion of
// phal::Status into the core's phal_status_t, and the fence that keeps
// exceptions from crossing the ABI. Each plugin links its own copy (a
// static library), so each keeps its own host table.
//
// Thread safety: every function may be called from any thread once the
// entry point has installed the host services (plugin_entry.h does);
// Install and Uninstall are for the entry point and shutdown.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_HOST_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_HOST_H_

#include <cstdint>
#include <string_view>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

// Keeps `host` for the plugin's lifetime, and the plugin's name (a static
// string) for the messages of exceptions. Returns false, keeping nothing,
// when the table has no status_create: without it no error can be reported.
bool InstallHostServices(const phal_host_services_t* host,
                         const char* plugin_name);
// Forgets the host services; called after the plugin's shutdown
// (ShutdownPlugin, plugin_entry.h), after which the core makes no call.
void UninstallHostServices();

// NULL for OK, else a status made by the core, owned by the caller.
phal_status_t* ToAbiStatus(const Status& status) noexcept;
// Writes `message` to the core's log when the core offers one.
void Log(phal_log_level_t level, const char* message) noexcept;

// Host memory from the core's allocator (host_allocate), or NULL when the
// core offers none or is out of memory. The core frees it.
void* HostAllocate(size_t byte_size, size_t alignment) noexcept;

// Hands `bytes` to the core as a slot returning host-allocated bytes does
// (kernel_serialize): a copy in HostAllocate's memory in *out_data, its
// size in *out_size. RESOURCE_EXHAUSTED, naming `what` ("acme plugin:
// serialized kernel") and the size and setting nothing, when no host memory
// is to be had.
Status ReturnHostBytes(std::string_view bytes, std::string_view what,
                       void** out_data, uint64_t* out_size);

// The status for the exception being handled, as
// StatusFromCurrentException (sdk/base/exception_status.h) names it, made
// by the core. Call only inside a catch block.
phal_status_t* AbiStatusFromCurrentException() noexcept;

// Runs `body`, which returns a Status, and hands its result to the core. An
// exception escaping `body` becomes a status: the ABI forbids unwinding
// into the core.
template <typename Body>
phal_status_t* RunAtAbiBoundary(Body&& body) noexcept {
  try {
    return ToAbiStatus(body());
  } catch (...) {
    return AbiStatusFromCurrentException();
  }
}

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_HOST_H_
