// phal_client: the loaded plugins, their devices, and the application
// objects created on them (tracked so leaks are reclaimed and reported at
// destroy).
#ifndef POLYHAL_CORE_RUNTIME_CLIENT_H_
#define POLYHAL_CORE_RUNTIME_CLIENT_H_

#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "core/loader/plugin_registry.h"
#include "core/loader/validation_layer.h"
#include "core/runtime/buffer.h"
#include "core/runtime/event.h"
#include "core/runtime/executable_cache.h"
#include "core/runtime/job.h"
#include "core/runtime/stream.h"
#include "sdk/base/log.h"

struct phal_client {
  explicit phal_client(const phal::Logger& log) : logger(log) {}

  phal::Logger logger;
  std::vector<phal::PluginRecord> plugins;
  // Executables compiled by earlier processes (executable_cache.h).
  phal::ExecutableCache executable_cache;
  // Per plugin, the table the client calls: the plugin's own, or with
  // PHAL_VALIDATION=1 the table of its validation layer (NULL otherwise).
  std::vector<const phal_plugin_api_t*> plugin_apis;
  std::vector<std::unique_ptr<phal::ValidationLayer>> validation_layers;
  std::vector<uint32_t> plugin_device_counts;
  std::vector<std::string> plugin_device_reasons;
  std::vector<std::unique_ptr<phal_device>> devices;
  // Per plugin, the targets it compiles for without a device (plugin.h,
  // target_get_names), copied at load, and the pointers
  // phal_client_get_plugin_targets hands out.
  std::vector<std::vector<std::string>> plugin_targets;
  std::vector<std::vector<const char*>> plugin_target_names;
  // Compile-only devices, opened on first request, one per plugin and
  // target (phal_client_open_target_device).
  std::mutex target_devices_mutex;
  std::vector<std::unique_ptr<phal_device>> target_devices;
  // The job this client is a process of, and its devices (job.h).
  phal::ClientJob job;

  // Live application objects, for leak reclamation at destroy.
  std::mutex objects_mutex;
  std::set<phal_buffer*> buffers;
  std::set<phal_stream*> streams;
  std::set<phal_event*> events;

  template <typename T>
  void Track(std::set<T*>& set, T* object) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    set.insert(object);
  }
  template <typename T>
  void Untrack(std::set<T*>& set, T* object) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    set.erase(object);
  }
};

namespace phal {

// The destroy entry points: removes `object` (null is a no-op) from its
// client's live `set` and hands it to `destroy`; they report nothing, so
// nothing escapes.
template <typename T, typename Destroy>
void UntrackAndDestroy(T* object, std::set<T*> phal_client::*set,
                       Destroy destroy) noexcept {
  if (object == nullptr) return;
  try {
    phal_client* client = object->device->client;
    client->Untrack(client->*set, object);
    destroy(object);
  } catch (...) {
  }
}

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_CLIENT_H_
