#include "template_memory.h"
#include "template_plugin.h"

#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "sdk/plugin_support/buffer_checks.h"
#include "sdk/plugin_support/plugin_host.h"
#include "template_device.h"

namespace phal::template_plugin {

Buffer::~Buffer() {
  ::operator delete (data_, std::align_val_t{kMinAlignment});
}

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  return CheckBufferRange("template plugin", offset, byte_size, byte_size_);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    PHAL_RETURN_IF_ERROR(
        CheckMemorySpace("template plugin", memory_space, kHostMemorySpace));
    PHAL_RETURN_IF_ERROR(CheckAllocationSize("template plugin", byte_size,
                                             device->memory_bytes(), "memory"));
    // A zero-byte buffer still gets a block of its own, so that buffers
    // stay distinct. TODO(vendor): allocate device memory here.
    const auto block_bytes =
        static_cast<std::size_t>(byte_size == 0 ? kMinAlignment : byte_size);
    auto* data = static_cast<std::byte*>(::operator new (
        block_bytes, std::align_val_t{kMinAlignment}, std::nothrow));
    if (data == nullptr) {
      return ResourceExhausted("template plugin: out of memory allocating " +
                               std::to_string(byte_size) + " bytes");
    }
    *out_buffer = new phal_plugin_buffer(data, byte_size);
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::template_plugin
