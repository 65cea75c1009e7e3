// Buffers: OpenCL buffer objects (clCreateBuffer) in the device's context.
// Their contents are reached only through commands on a stream: the host
// never dereferences them. Freed buffers are kept (up to 256 MiB) for reuse
// by allocations of the same size.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_MEMORY_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_MEMORY_H_

#include <cstdint>

#include "plugins/intel/intel_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::intel {

// Immutable: a buffer may be used from many threads; its contents are
// ordered by the streams that touch them.
class Buffer {
 public:
  Buffer(const Device* device, cl_mem memory, uint64_t byte_size)
      : device_(device), memory_(memory), byte_size_(byte_size) {}
  // Hands the cl_mem to the buffer cache (reused by an allocation of the
  // same size) or releases it.
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Device* device() const { return device_; }
  cl_mem memory() const { return memory_; }
  uint64_t byte_size() const { return byte_size_; }

  // OK when [offset, offset + byte_size) lies inside the buffer (the core
  // checked already; this turns a core bug into an error).
  Status CheckRange(uint64_t offset, uint64_t byte_size) const;

 private:
  const Device* device_;
  cl_mem memory_;
  uint64_t byte_size_;
};

// Releases the buffers the cache keeps. Called by shutdown, after every
// buffer has been freed.
void ReleaseCachedBuffers();

}  // namespace phal::intel

struct phal_plugin_buffer final : phal::intel::Buffer {
  using Buffer::Buffer;
};

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_MEMORY_H_
