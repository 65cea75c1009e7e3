#include "asic_ref_memory.h"

#include "asic_ref_device.h"
#include "asic_ref_plugin.h"
#include "sdk/plugin_support/buffer_checks.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::asic_ref {

Status Buffer::CheckRange(uint64_t offset, uint64_t byte_size) const {
  return CheckBufferRange("asic-ref plugin", offset, byte_size, byte_size_);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
    PHAL_RETURN_IF_ERROR(
        CheckMemorySpace("asic-ref plugin", memory_space, kDramMemorySpace));
    Dram& dram = device->dram();
    PHAL_ASSIGN_OR_RETURN(uint64_t address, dram.Allocate(byte_size));
    *out_buffer = new phal_plugin_buffer(dram, address, byte_size);
    return OkStatus();
  });
}

void BufferFree(phal_plugin_buffer_t* buffer) noexcept { delete buffer; }

}  // namespace phal::asic_ref
