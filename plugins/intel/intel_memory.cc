#include "plugins/intel/intel_memory.h"
#include "plugins/intel/intel_plugin.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sdk/plugin_support/buffer_checks.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

// Freed buffers kept for reuse by an allocation of the same size in the
// same context, up to kCachedBytes in all. Drivers (PoCL among them) do not
// give a released buffer's memory back, so allocate-free cycles would grow
// the process without this.
constexpr uint64_t kCachedBytes = uint64_t{256} << 20;

struct CachedBuffer {
  cl_context context;
  size_t size;
  cl_mem memory;
};

struct BufferCache {
  std::mutex mutex;
  std::vector<CachedBuffer> buffers;
  uint64_t bytes = 0;
};

BufferCache& TheBufferCache() {
  static BufferCache* cache = new BufferCache;
  return *cache;
}

cl_mem TakeCached(cl_context context, size_t size) {
  BufferCache& cache = TheBufferCache();
  std::lock_guard lock(cache.mutex);
  for (auto it = cache.buffers.begin(); it != cache.buffers.end(); ++it) {
    if (it->context == context && it->size == size) {
      const cl_mem memory = it->memory;
      cache.bytes -= size;
      cache.buffers.erase(it);
      return memory;
    }
  }
  return nullptr;
}

// Keeps `memory` for reuse, or releases it when the cache is full.
void Recycle(cl_context context, size_t size, cl_mem memory) {
  BufferCache& cache = TheBufferCache();
  {
    std::lock_guard lock(cache.mutex);
    if (cache.bytes + size <= kCachedBytes) {
      cache.buffers.push_back({context, size, memory});
      cache.bytes += size;
      return;
    }
  }
  Cl().ReleaseMemObject(memory);
}

}  // namespace

Buffer::~Buffer() {
  Recycle(device_->context(),
          static_cast<size_t>(std::max<uint64_t>(byte_size_, 1)), memory_);
}

void ReleaseCachedBuffers() {
  BufferCache& cache = TheBufferCache();
  std::lock_guard lock(cache.mutex);
  for (const CachedBuffer& buffer : cache.buffers) {
    Cl().ReleaseMemObject(buffer.memory);
  }
  cache.buffers.clear();
  cache.bytes = 0;
}

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  return CheckBufferRange("intel plugin", offset, byte_size, byte_size_);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (memory_space != Device::kDeviceMemorySpace) {
      return InvalidArgument("intel plugin: memory space " +
                             std::to_string(memory_space) +
                             " does not exist; the device has 1 (global)");
    }
    PHAL_RETURN_IF_ERROR(CheckAllocationSize("intel plugin", byte_size,
                                             device->max_allocation_bytes(),
                                             "largest allocation"));
    // OpenCL has no empty buffer; a zero-byte buffer holds one unused byte.
    const auto size = static_cast<size_t>(std::max<uint64_t>(byte_size, 1));
    cl_int error = CL_SUCCESS;
    cl_mem memory = TakeCached(device->context(), size);
    if (memory == nullptr) {
      memory = Cl().CreateBuffer(device->context(), CL_MEM_READ_WRITE, size,
                                 nullptr, &error);
    }
    if (memory == nullptr) {
      return ClError(
          "clCreateBuffer of " + std::to_string(byte_size) + " bytes", error);
    }
    *out_buffer =
        std::make_unique<phal_plugin_buffer>(device, memory, byte_size)
            .release();
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::intel
