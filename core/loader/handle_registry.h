// The validation layer's record of every handle a plugin returned: its kind,
// the device it was created on and where it was created, so a handle the
// core passes back can be checked and a handle never released can be named.
#ifndef POLYHAL_CORE_LOADER_HANDLE_REGISTRY_H_
#define POLYHAL_CORE_LOADER_HANDLE_REGISTRY_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace phal {

enum class HandleKind {
  kDevice,
  kBuffer,
  kStream,
  kEvent,
  kKernel,
  kCommunicator
};

// "device", "buffer", "stream", "event", "kernel", "communicator".
const char* HandleKindName(HandleKind kind);

struct HandleRecord {
  HandleKind kind = HandleKind::kBuffer;
  const void* handle = nullptr;
  // The device the handle was created on; for a device, itself.
  const void* device = nullptr;
  // The slot that returned the handle and its arguments, e.g.
  // "buffer_allocate(device 0 'Host CPU', memory space 0, 4096 bytes)".
  std::string origin;
  // The order of creation within the layer, counted from 1.
  uint64_t serial = 0;

  // Buffers: the size the core asked for, and where the guard band
  // behind it starts and ends (equal when the buffer has none).
  uint64_t byte_size = 0;
  uint64_t guard_bytes = 0;

  // Kernels: the byte size of each buffer the kernel binds, as its
  // description declared; empty for a deserialized kernel.
  std::vector<uint64_t> binding_bytes;
  std::string name;

  // Communicators: the handle's rank and the number of ranks, and whether
  // it joins ranks of several processes (communicator_join).
  uint32_t rank = 0;
  uint32_t ranks = 0;
  bool joined = false;

  // Devices: a compile-only device (target_device_open) and the device's
  // memory spaces, once its properties were read; the kernel kinds it
  // reported (PHAL_KERNEL_KIND_BIT mask), once properties reaching them
  // were read.
  bool compile_only = false;
  uint32_t memory_space_count = 0;
  bool kernel_kinds_known = false;
  uint64_t kernel_kinds = 0;
};

class HandleRegistry {
 public:
  // Records `handle`; returns the record of a live handle with the same
  // address instead, leaving it in place, when there is one.
  std::optional<HandleRecord> Add(const void* handle, HandleRecord record);
  std::optional<HandleRecord> Find(const void* handle) const;
  // Applies `update` to the record of `handle`, if live.
  template <typename Change>
  void Update(const void* handle, Change&& update) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = records_.find(handle);
    if (it != records_.end()) update(it->second);
  }
  void Remove(const void* handle);
  // Live handles created on `device` (the device itself excluded), in
  // creation order.
  std::vector<HandleRecord> LiveOn(const void* device) const;
  // Every live handle, in creation order.
  std::vector<HandleRecord> Live() const;

  // "buffer #12 created by buffer_allocate(...)".
  static std::string Describe(const HandleRecord& record);

 private:
  mutable std::mutex mutex_;
  uint64_t next_serial_ = 1;
  std::unordered_map<const void*, HandleRecord> records_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_HANDLE_REGISTRY_H_
