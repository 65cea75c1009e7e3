// phal_device_* functions and the device's synchronous-stream pool.
#include "core/runtime/device.h"

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/loader/host_services.h"
#include "core/runtime/api_guard.h"
#include "core/runtime/client.h"
#include "sdk/base/device_counters.h"
#include "sdk/base/extensible_struct.h"

phal::Status phal_device::Check(phal_status_t* status) const {
  phal::Status result = phal::TakeCStatus(status);
  if (result.ok()) return result;
  return phal::Status(result.code(),
                      "plugin '" + plugin_name + "': " + result.message());
}

phal::Status phal_device::CheckRunnable(const char* what) const {
  if (!compile_only) return phal::OkStatus();
  return phal::FailedPrecondition("device '" + std::string(properties.name) +
                                  "' is compile-only (plugin '" + plugin_name +
                                  "', target '" + target + "'): it cannot " +
                                  what);
}

phal::Status phal_device::AcquireSyncStream(phal_plugin_stream_t** out) {
  {
    std::lock_guard<std::mutex> lock(sync_streams_mutex_);
    if (!idle_sync_streams_.empty()) {
      *out = idle_sync_streams_.back();
      idle_sync_streams_.pop_back();
      return phal::OkStatus();
    }
  }
  return Check(api->stream_create(handle, out));
}

void phal_device::ReleaseSyncStream(phal_plugin_stream_t* stream) {
  std::lock_guard<std::mutex> lock(sync_streams_mutex_);
  idle_sync_streams_.push_back(stream);
}

void phal_device::Close() {
  {
    std::lock_guard<std::mutex> lock(sync_streams_mutex_);
    for (phal_plugin_stream_t* stream : idle_sync_streams_) {
      api->stream_destroy(stream);
    }
    idle_sync_streams_.clear();
  }
  if (handle != nullptr) api->device_close(handle);
  handle = nullptr;
}

namespace phal {
namespace {

// Keeps a copy of `text` in the device and returns a pointer to it.
const char* Keep(phal_device* device, const char* text) {
  device->strings.emplace_back(text ? text : "");
  return device->strings.back().c_str();
}

Status DescribeDevice(phal_device* device) {
  phal_device_properties_t& properties = device->properties;
  properties.struct_size = sizeof(properties);
  PHAL_RETURN_IF_ERROR(device->Check(
      device->api->device_get_properties(device->handle, &properties)));
  // Strings are copied so they outlive nothing of the plugin's; reserve so
  // pointers into the vector stay put.
  device->strings.reserve(8 + properties.memory_space_count);
  properties.name = Keep(device, properties.name);
  properties.vendor = Keep(device, properties.vendor);
  properties.driver_version = Keep(device, properties.driver_version);
  properties.features = Keep(device, properties.features);
  if (properties.memory_space_count == 0) {
    return Internal("plugin '" + device->plugin_name +
                    "' reports a device without memory spaces");
  }
  for (uint32_t i = 0; i < properties.memory_space_count; ++i) {
    phal_memory_space_info_t space{};
    space.struct_size = sizeof(space);
    PHAL_RETURN_IF_ERROR(device->Check(
        device->api->device_get_memory_space(device->handle, i, &space)));
    space.name = Keep(device, space.name);
    device->memory_spaces.push_back(space);
  }
  return OkStatus();
}

// Describes the device `open` opens, closing it again when that fails.
template <typename Open>
StatusOr<phal_device*> OpenWith(phal_client_t* client, size_t plugin_index,
                                const std::string& plugin_name,
                                const phal_plugin_api_t* api, Open open) {
  auto device = std::make_unique<phal_device>();
  device->client = client;
  device->plugin_index = plugin_index;
  device->plugin_name = plugin_name;
  device->api = api;
  PHAL_RETURN_IF_ERROR(device->Check(open(&device->handle)));
  Status described = DescribeDevice(device.get());
  if (!described.ok()) {
    device->Close();
    return described;
  }
  return device.release();
}

}  // namespace

StatusOr<phal_device*> OpenDevice(phal_client_t* client, size_t plugin_index,
                                  const std::string& plugin_name,
                                  const phal_plugin_api_t* api,
                                  size_t ordinal) {
  return OpenWith(client, plugin_index, plugin_name, api,
                  [&](phal_plugin_device_t** out) {
                    return api->device_open(ordinal, out);
                  });
}

StatusOr<phal_device*> OpenTargetDevice(phal_client_t* client,
                                        size_t plugin_index,
                                        const std::string& plugin_name,
                                        const phal_plugin_api_t* api,
                                        const std::string& target) {
  PHAL_ASSIGN_OR_RETURN(phal_device * device,
                        OpenWith(client, plugin_index, plugin_name, api,
                                 [&](phal_plugin_device_t** out) {
                                   return api->target_device_open(
                                       target.c_str(), out);
                                 }));
  device->compile_only = true;
  device->target = target;
  device->properties.flags |= PHAL_DEVICE_FLAG_COMPILE_ONLY;
  return device;
}

namespace {

// A snapshot of a device's performance counters in one malloc block
// (sdk/base/device_counters.h), as phal_device_get_counters hands it out.
struct DeviceCounterBlock {
  std::unique_ptr<phal_device_counter_t, decltype(&std::free)> counters{
      nullptr, &std::free};
  size_t count = 0;
};

// The device's counters as its plugin reports them (plugin.h,
// device_get_counters), copied out of the plugin's block: none for a
// compile-only device or a plugin without counters.
StatusOr<DeviceCounterBlock> ReadDeviceCounters(const phal_device& device) {
  DeviceCounterBlock copy;
  if (device.compile_only) return copy;
  phal_device_counter_t* counters = nullptr;
  size_t count = 0;
  PHAL_RETURN_IF_ERROR(device.Check(
      device.api->device_get_counters(device.handle, &counters, &count)));
  // The plugin's block came from the host services' allocator; the copy is
  // plain malloc memory, which phal_free releases.
  std::unique_ptr<phal_device_counter_t, void (*)(void*)> plugin_block(
      counters, HostServices()->host_free);
  if (count == 0) return copy;
  if (counters == nullptr) {
    return Internal("plugin '" + device.plugin_name + "' reported " +
                    std::to_string(count) + " counters and no array");
  }
  const std::vector<CounterView> views = ViewCounters(counters, count);
  void* block = std::malloc(CounterBlockSize(views));
  if (block == nullptr) {
    return ResourceExhausted("no memory for " + std::to_string(count) +
                             " device counters");
  }
  copy.counters.reset(WriteCounterBlock(views, block));
  copy.count = count;
  return copy;
}

}  // namespace

}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_device_get_properties(
    const phal_device_t* device, phal_device_properties_t* out) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (device == nullptr) return phal::NullArgument("device");
    return phal::CopyFittingMembers(device->properties, out);
  });
}

PHAL_API phal_status_t* phal_device_get_memory_space(
    const phal_device_t* device, uint32_t index,
    phal_memory_space_info_t* out) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (device == nullptr) return phal::NullArgument("device");
    if (index >= device->memory_spaces.size()) {
      return phal::OutOfRange("memory space " + std::to_string(index) +
                              " is not below the device's " +
                              std::to_string(device->memory_spaces.size()));
    }
    return phal::CopyFittingMembers(device->memory_spaces[index], out);
  });
}

PHAL_API phal_status_t* phal_device_get_plugin_index(
    const phal_device_t* device, size_t* out_index) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (device == nullptr) return phal::NullArgument("device");
    if (out_index == nullptr) return phal::NullArgument("out_index");
    *out_index = device->plugin_index;
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_device_get_counters(
    const phal_device_t* device, phal_device_counter_t** out_counters,
    size_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (device == nullptr) return phal::NullArgument("device");
    if (out_counters == nullptr) return phal::NullArgument("out_counters");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    PHAL_ASSIGN_OR_RETURN(phal::DeviceCounterBlock block,
                          phal::ReadDeviceCounters(*device));
    *out_counters = block.counters.release();
    *out_count = block.count;
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_device_reset_counters(phal_device_t* device) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (device == nullptr) return phal::NullArgument("device");
    if (device->compile_only) return phal::OkStatus();
    return device->Check(device->api->device_reset_counters(device->handle));
  });
}

}  // extern "C"
