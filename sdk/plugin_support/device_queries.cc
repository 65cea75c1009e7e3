#include "sdk/plugin_support/device_queries.h"

#include <unistd.h>

#include <string>

#include "sdk/base/extensible_struct.h"

namespace phal {

Status CheckDeviceOrdinal(std::string_view plugin, size_t ordinal,
                          size_t count) {
  if (ordinal < count) return OkStatus();
  return InvalidArgument(
      std::string(plugin) + ": device ordinal " + std::to_string(ordinal) +
      " does not exist; the plugin has " + std::to_string(count) +
      (count == 1 ? " device" : " devices"));
}

Status AnswerMemorySpace(std::string_view plugin, uint32_t index,
                         uint32_t device_space, const char* name,
                         phal_memory_kind_t kind, uint64_t capacity_bytes,
                         phal_memory_space_info_t* out) {
  if (index != device_space) {
    return OutOfRange(std::string(plugin) + ": memory space " +
                      std::to_string(index) +
                      " does not exist; the device has 1 (index " +
                      std::to_string(device_space) + ", " + name + ")");
  }
  phal_memory_space_info_t full{};
  full.name = name;
  full.kind = kind;
  full.capacity_bytes = capacity_bytes;
  return CopyFittingMembers(full, out);
}

uint64_t HostPhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

}  // namespace phal
