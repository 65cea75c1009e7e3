#include "sdk/plugin_support/buffer_checks.h"

#include <string>

namespace phal {

Status CheckBufferRange(std::string_view plugin, uint64_t offset,
                        uint64_t byte_size, uint64_t buffer_bytes) {
  if (offset <= buffer_bytes && byte_size <= buffer_bytes - offset) {
    return OkStatus();
  }
  return OutOfRange(std::string(plugin) + ": bytes [" + std::to_string(offset) +
                    ", " + std::to_string(offset + byte_size) +
                    ") are outside a buffer of " +
                    std::to_string(buffer_bytes) + " bytes");
}

Status CheckMemorySpace(std::string_view plugin, uint32_t memory_space,
                        uint32_t device_space) {
  if (memory_space == device_space) return OkStatus();
  return OutOfRange(std::string(plugin) + ": memory space " +
                    std::to_string(memory_space) + " does not exist");
}

Status CheckAllocationSize(std::string_view plugin, uint64_t byte_size,
                           uint64_t limit_bytes, std::string_view limit) {
  if (byte_size <= limit_bytes) return OkStatus();
  return ResourceExhausted(std::string(plugin) + ": " +
                           std::to_string(byte_size) +
                           " bytes exceed the device's " + std::string(limit) +
                           " (" + std::to_string(limit_bytes) + " bytes)");
}

}  // namespace phal
