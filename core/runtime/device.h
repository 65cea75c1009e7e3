// phal_device: a device opened from a loaded plugin, with its properties
// cached and a pool of plugin streams used by the synchronous copies.
#ifndef POLYHAL_CORE_RUNTIME_DEVICE_H_
#define POLYHAL_CORE_RUNTIME_DEVICE_H_

#include <mutex>
#include <string>
#include <vector>

#include "polyhal/plugin.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

struct phal_device {
  phal_client_t* client = nullptr;
  size_t plugin_index = 0;
  std::string plugin_name;
  const phal_plugin_api_t* api = nullptr;
  phal_plugin_device_t* handle = nullptr;

  // A compile-only device (phal_client_open_target_device) and its target;
  // a device of hardware has an empty target.
  bool compile_only = false;
  std::string target;

  phal_device_properties_t properties{};
  std::vector<phal_memory_space_info_t> memory_spaces;

  // Prefixes a plugin's status with the plugin name, taking ownership.
  phal::Status Check(phal_status_t* status) const;
  // FAILED_PRECONDITION on a compile-only device, saying it cannot `what`
  // ("allocate buffers").
  phal::Status CheckRunnable(const char* what) const;

  // A plugin stream for one synchronous operation; Release returns it to
  // the pool. Streams are created on demand, so concurrent synchronous
  // copies on one device do not serialise.
  phal::Status AcquireSyncStream(phal_plugin_stream_t** out);
  void ReleaseSyncStream(phal_plugin_stream_t* stream);

  // Destroys pooled streams and closes the plugin device.
  void Close();

  // Owned copies of the strings properties and memory spaces point at.
  std::vector<std::string> strings;

 private:
  std::mutex sync_streams_mutex_;
  std::vector<phal_plugin_stream_t*> idle_sync_streams_;
};

namespace phal {

// Opens device `ordinal` of a plugin and caches its description.
StatusOr<phal_device*> OpenDevice(phal_client_t* client, size_t plugin_index,
                                  const std::string& plugin_name,
                                  const phal_plugin_api_t* api, size_t ordinal);
// Opens a compile-only device of a plugin for `target` (plugin.h,
// target_device_open; "" is the plugin's default) and caches its
// description, with PHAL_DEVICE_FLAG_COMPILE_ONLY set.
StatusOr<phal_device*> OpenTargetDevice(phal_client_t* client,
                                        size_t plugin_index,
                                        const std::string& plugin_name,
                                        const phal_plugin_api_t* api,
                                        const std::string& target);

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_DEVICE_H_
