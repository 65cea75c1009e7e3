#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"

#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "sdk/plugin_support/plugin_host.h"
#include "asic_ref_device.h"

namespace phal::asic_ref {

Buffer::~Buffer() {
  ::operator delete (data_, std::align_val_t{kMinAlignment});
}

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  if (offset > byte_size_ || byte_size > byte_size_ - offset) {
    return OutOfRange("asic-ref plugin: bytes [" + std::to_string(offset) +
                      ", " + std::to_string(offset + byte_size) +
                      ") are outside a buffer of " +
                      std::to_string(byte_size_) + " bytes");
  }
  return OkStatus();
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    if (memory_space != kHostMemorySpace) {
      return OutOfRange("asic-ref plugin: memory space " +
                        std::to_string(memory_space) + " does not exist");
    }
    if (byte_size > device->memory_bytes()) {
      return ResourceExhausted("asic-ref plugin: " + std::to_string(byte_size) +
                               " bytes exceed the device's " +
                               std::to_string(device->memory_bytes()) +
                               " bytes of memory");
    }
    // A zero-byte buffer still gets a block of its own, so that buffers
    // stay distinct. TODO(vendor): allocate device memory here.
    const auto block_bytes =
        static_cast<std::size_t>(byte_size == 0 ? kMinAlignment : byte_size);
    auto* data = static_cast<std::byte*>(::operator new (
        block_bytes, std::align_val_t{kMinAlignment}, std::nothrow));
    if (data == nullptr) {
      return ResourceExhausted("asic-ref plugin: out of memory allocating " +
                               std::to_string(byte_size) + " bytes");
    }
    *out_buffer = new phal_plugin_buffer(data, byte_size);
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::asic_ref
