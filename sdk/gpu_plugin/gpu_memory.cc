#include "sdk/gpu_plugin/gpu_memory.h"

#include <algorithm>
#include <string>

#include "sdk/gpu_plugin/gpu_plugin.h"
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
  if (offset > byte_size_ || byte_size > byte_size_ - offset) {
    return OutOfRange(PluginMessage("bytes [" + std::to_string(offset) + ", " +
                                    std::to_string(offset + byte_size) +
                                    ") are outside a buffer of " +
                                    std::to_string(byte_size_) + " bytes"));
  }
  return OkStatus();
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    if (memory_space != Device::kDeviceMemorySpace) {
      return OutOfRange(PluginMessage(
          "memory space " + std::to_string(memory_space) + " does not exist"));
    }
    if (byte_size > device->info().memory_bytes) {
      return ResourceExhausted(PluginMessage(
          std::to_string(byte_size) + " bytes exceed the device's memory (" +
          std::to_string(device->info().memory_bytes) + " bytes)"));
    }
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> buffer,
                          Buffer::Create(*device, byte_size));
    *out_buffer = new phal_plugin_buffer{std::move(buffer)};
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::gpu_plugin
