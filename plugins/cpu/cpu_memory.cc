#include "plugins/cpu/cpu_memory.h"
#include "plugins/cpu/cpu_plugin.h"

#include <memory>
#include <string>
#include <utility>

#include "plugins/cpu/cpu_block_cache.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::cpu {
namespace {

Status Exhausted(uint64_t byte_size, const char* why) {
  return ResourceExhausted("cpu plugin: cannot allocate " +
                           std::to_string(byte_size) + " bytes: " + why);
}

}  // namespace

Buffer::~Buffer() { BlockCache::Instance().Free(data_, block_bytes_); }

StatusOr<std::byte*> Buffer::RangeStart(uint64_t offset,
                                        uint64_t byte_size) const {
  if (offset <= byte_size_ && byte_size <= byte_size_ - offset) {
    return data_ + offset;
  }
  return OutOfRange("cpu plugin: range [" + std::to_string(offset) + ", +" +
                    std::to_string(byte_size) + ") exceeds a buffer of " +
                    std::to_string(byte_size_) + " bytes");
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    if (memory_space != Device::kHostMemorySpace) {
      return InvalidArgument("cpu plugin: memory space " +
                             std::to_string(memory_space) +
                             " does not exist; the device has only 0 (host)");
    }
    if (byte_size > device->max_allocation_bytes()) {
      return Exhausted(byte_size, "larger than the device's physical memory");
    }
    // aligned_alloc wants a multiple of the alignment; rounding a size of 0
    // up to one line also gives every zero-size buffer its own address.
    const uint64_t alignment = device->min_alignment();
    const uint64_t rounded =
        byte_size == 0 ? alignment
                       : (byte_size + alignment - 1) & ~(alignment - 1);
    std::byte* data = BlockCache::Instance().Allocate(rounded, alignment);
    if (data == nullptr) return Exhausted(byte_size, "out of host memory");
    auto buffer =
        std::make_unique<phal_plugin_buffer>(device, data, byte_size, rounded);
    *out_buffer = buffer.release();
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::cpu
