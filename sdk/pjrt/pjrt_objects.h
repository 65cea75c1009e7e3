// The objects behind PJRT's opaque handles, each a thin wrapper of a
// Polyhal object of the public C API (polyhal/runtime.h). Internal to
// libpolyhal_pjrt.
#ifndef POLYHAL_SDK_PJRT_PJRT_OBJECTS_H_
#define POLYHAL_SDK_PJRT_PJRT_OBJECTS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "polyhal/runtime.h"
#include "xla/pjrt/c/pjrt_c_api.h"

struct PJRT_Error {
  PJRT_Error_Code code = PJRT_Error_Code_UNKNOWN;
  std::string message;
};

// Polyhal's calls complete before they return, so every event is born
// signalled; it carries the error of the work it stands for, if any.
struct PJRT_Event {
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message;
};

struct PJRT_DeviceDescription {
  int id = 0;
  int process_index = 0;
  std::string kind;          // "polyhal:cpu"
  std::string debug_string;  // "PolyhalDevice(id=0, plugin=cpu)"
  std::string to_string;
};

struct PJRT_Memory {
  int id = 0;
  std::string kind = "device";
  std::string debug_string;
  std::vector<PJRT_Device*> devices;  // the one device it belongs to
};

struct PJRT_Device {
  phal_device_t* device = nullptr;
  PJRT_DeviceDescription description;
  PJRT_Memory memory;
  std::vector<PJRT_Memory*> memories;  // {&memory}
  int local_hardware_id = 0;
  uint64_t memory_bytes = 0;  // of the device's default memory space
  // The plugin's buffers on the device, counted as they come and go.
  std::mutex stats_mutex;
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t num_allocs = 0;
  int64_t largest_alloc_size = 0;

  void CountAllocation(int64_t bytes) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    bytes_in_use += bytes;
    if (bytes_in_use > peak_bytes_in_use) peak_bytes_in_use = bytes_in_use;
    ++num_allocs;
    if (bytes > largest_alloc_size) largest_alloc_size = bytes;
  }
  void CountRelease(int64_t bytes) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    bytes_in_use -= bytes;
  }
};

// Buffers and executables keep their client alive: PJRT_Client_Destroy
// drops the caller's reference, and the Polyhal client closes when the last
// buffer or executable made from it is gone.
struct PJRT_Client {
  std::atomic<int64_t> references{1};
  phal_client_t* client = nullptr;
  std::string plugin;  // the Polyhal plugin whose devices these are
  std::string platform_version;
  std::vector<std::unique_ptr<PJRT_Device>> owned_devices;
  std::vector<PJRT_Device*> devices;
  std::vector<PJRT_Memory*> memories;

  ~PJRT_Client() {
    owned_devices.clear();
    phal_client_destroy(client);
  }

  void Retain() { references.fetch_add(1, std::memory_order_relaxed); }
  void Release() {
    if (references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
};

struct PJRT_Buffer {
  PJRT_Client* client = nullptr;
  PJRT_Device* device = nullptr;
  phal_buffer_t* buffer = nullptr;  // null once deleted
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  std::vector<int64_t> minor_to_major;  // row-major: rank-1 .. 0
  uint64_t byte_size = 0;
  std::mutex mutex;

  // Frees the device memory; the handle stays until PJRT_Buffer_Destroy.
  void Release() {
    std::lock_guard<std::mutex> lock(mutex);
    if (buffer == nullptr) return;
    phal_buffer_free(buffer);
    buffer = nullptr;
    device->CountRelease(static_cast<int64_t>(byte_size));
  }
  ~PJRT_Buffer() {
    Release();
    if (client != nullptr) client->Release();
  }
};

// A compiled program: the StableHLO it was compiled from, its replica and
// partition counts, and the Polyhal executables made of it, one per device
// it was asked to run on (or one for its whole device assignment). Shared by
// the loaded executable and every PJRT_Executable handle given out for it.
struct ExecutableState {
  PJRT_Client* client = nullptr;
  std::string name;
  std::string program;  // the StableHLO portable artifact or text
  std::string fingerprint;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  std::vector<PJRT_Device*> assignment;  // process k runs on assignment[k]
  std::vector<PJRT_Buffer_Type> output_types;
  std::vector<int64_t> output_dims_flat;
  std::vector<size_t> output_dim_sizes;
  std::vector<const char*> output_memory_kinds;
  std::vector<size_t> output_memory_kind_sizes;
  std::vector<PJRT_Device*> addressable_devices;
  std::mutex mutex;
  // Keyed by the device for single-device programs; a program of several
  // processes has one entry, keyed by null.
  std::map<PJRT_Device*, phal_executable_t*> compiled;

  ~ExecutableState() {
    for (auto& entry : compiled) phal_executable_free(entry.second);
    if (client != nullptr) client->Release();
  }
};

struct PJRT_Executable {
  std::shared_ptr<ExecutableState> state;
};

struct PJRT_DeviceAssignmentSerialized {
  std::string bytes;
};

struct PJRT_LoadedExecutable {
  std::shared_ptr<ExecutableState> state;
  bool deleted = false;
};

#endif  // POLYHAL_SDK_PJRT_PJRT_OBJECTS_H_
