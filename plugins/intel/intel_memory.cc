#include "plugins/intel/intel_memory.h"

#include <algorithm>
#include <memory>
#include <string>

#include "plugins/intel/intel_host.h"

namespace phal::intel {

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  if (offset > byte_size_ || byte_size > byte_size_ - offset) {
    return OutOfRange("intel plugin: bytes [" + std::to_string(offset) + ", +" +
                      std::to_string(byte_size) + ") lie outside a buffer of " +
                      std::to_string(byte_size_) + " bytes");
  }
  return OkStatus();
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
    if (byte_size > device->max_allocation_bytes()) {
      return ResourceExhausted(
          "intel plugin: " + std::to_string(byte_size) +
          " bytes exceed the device's largest allocation (" +
          std::to_string(device->max_allocation_bytes()) + " bytes)");
    }
    // OpenCL has no empty buffer; a zero-byte buffer holds one unused byte.
    cl_int error = CL_SUCCESS;
    cl_mem memory = Cl().CreateBuffer(
        device->context(), CL_MEM_READ_WRITE,
        static_cast<size_t>(std::max<uint64_t>(byte_size, 1)), nullptr, &error);
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
