#include "sdk/plugin_support/plugin_host.h"

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "sdk/base/exception_status.h"

namespace phal {
namespace {

// Set by phal_plugin_entry and read by every thread afterwards.
std::atomic<const phal_host_services_t*> g_host{nullptr};
std::atomic<const char*> g_plugin_name{"unnamed"};

// A slot exists when the core's table is large enough to hold it and the
// core filled it in (plugin.h: slots beyond struct_size count as NULL).
template <typename Slot>
bool HasSlot(const phal_host_services_t* host, std::size_t slot_offset,
             Slot slot) {
  return host->struct_size >= slot_offset + sizeof(Slot) && slot != nullptr;
}

bool HasStatusCreate(const phal_host_services_t* host) {
  return HasSlot(host, offsetof(phal_host_services_t, status_create),
                 host->status_create);
}

bool HasLog(const phal_host_services_t* host) {
  return HasSlot(host, offsetof(phal_host_services_t, log), host->log);
}

bool HasHostAllocate(const phal_host_services_t* host) {
  return HasSlot(host, offsetof(phal_host_services_t, host_allocate),
                 host->host_allocate);
}

phal_status_t* MakeAbiStatus(phal_status_code_t code,
                             const char* message) noexcept {
  return g_host.load(std::memory_order_acquire)->status_create(code, message);
}

}  // namespace

bool InstallHostServices(const phal_host_services_t* host,
                         const char* plugin_name) {
  if (host == nullptr || !HasStatusCreate(host)) return false;
  g_plugin_name.store(plugin_name, std::memory_order_relaxed);
  g_host.store(host, std::memory_order_release);
  return true;
}

void UninstallHostServices() {
  g_host.store(nullptr, std::memory_order_release);
}

phal_status_t* ToAbiStatus(const Status& status) noexcept {
  if (status.ok()) return nullptr;
  return MakeAbiStatus(status.code(), status.message().c_str());
}

void Log(phal_log_level_t level, const char* message) noexcept {
  const phal_host_services_t* host = g_host.load(std::memory_order_acquire);
  if (host != nullptr && HasLog(host)) host->log(level, message);
}

void* HostAllocate(size_t byte_size, size_t alignment) noexcept {
  const phal_host_services_t* host = g_host.load(std::memory_order_acquire);
  if (host == nullptr || !HasHostAllocate(host)) return nullptr;
  return host->host_allocate(byte_size, alignment);
}

Status ReturnHostBytes(std::string_view bytes, std::string_view what,
                       void** out_data, uint64_t* out_size) {
  void* data = HostAllocate(bytes.size(), alignof(std::max_align_t));
  if (data == nullptr && !bytes.empty()) {
    return ResourceExhausted(std::string(what) + ": no host memory for " +
                             std::to_string(bytes.size()) + " bytes");
  }
  if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  *out_data = data;
  *out_size = bytes.size();
  return OkStatus();
}

phal_status_t* AbiStatusFromCurrentException() noexcept {
  char who[64];
  std::snprintf(who, sizeof(who), "%.48s plugin",
                g_plugin_name.load(std::memory_order_relaxed));
  return ToAbiStatus(StatusFromCurrentException(who));
}

}  // namespace phal
