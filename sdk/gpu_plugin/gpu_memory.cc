#include "sdk/gpu_plugin/gpu_memory.h"

#include <algorithm>
#include <string>

#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/plugin_support/buffer_checks.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::gpu_plugin {

StatusOr<std::unique_ptr<Buffer>> Buffer::Create(const Device& device,
                                                 uint64_t byte_size) {
  std::unique_ptr<Buffer> buffer(new Buffer(device, byte_size));
  ScopedDevice scope(device);
  PHAL_RETURN_IF_ERROR(scope.status());
  // CUDA refuses zero bytes; a zero-byte buffer still gets an address of
  // its own, so buffers stay distinct.
  PHAL_RETURN_IF_ERROR(device.driver().Allocate(
      std::max<uint64_t>(byte_size, 1), &buffer->address_));
  return buffer;
}

Buffer::~Buffer() {
  if (address_ == 0) return;
  ScopedDevice scope(device_);
  if (scope.status().ok()) device_.driver().Free(address_);
}

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  return CheckBufferRange(PluginName(), offset, byte_size, byte_size_);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    PHAL_RETURN_IF_ERROR(CheckMemorySpace(PluginName(), memory_space,
                                          Device::kDeviceMemorySpace));
    PHAL_RETURN_IF_ERROR(CheckAllocationSize(
        PluginName(), byte_size, device->info().memory_bytes, "memory"));
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> buffer,
                          Buffer::Create(*device, byte_size));
    *out_buffer = new phal_plugin_buffer{std::move(buffer)};
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::gpu_plugin
