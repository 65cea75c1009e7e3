// The checks every plugin's buffers make at the ABI boundary, with one
// wording for their errors: an allocation against the device's one memory
// space and its size limit, and a byte range against a buffer. The core
// checks both before calling; checking again costs a comparison and turns a
// core bug into an error instead of a heap overrun.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_BUFFER_CHECKS_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_BUFFER_CHECKS_H_

#include <cstdint>
#include <string_view>

#include "sdk/base/status.h"

namespace phal {

// OK when [offset, offset + byte_size) lies inside a buffer of
// `buffer_bytes` bytes, else OUT_OF_RANGE; `plugin` ("acme plugin") begins
// the message.
Status CheckBufferRange(std::string_view plugin, uint64_t offset,
                        uint64_t byte_size, uint64_t buffer_bytes);

// OK when `memory_space`, which buffer_allocate asks for, is
// `device_space`, the device's one memory space; else OUT_OF_RANGE.
Status CheckMemorySpace(std::string_view plugin, uint32_t memory_space,
                        uint32_t device_space);

// OK when buffer_allocate may give `byte_size` bytes on a device whose
// allocations are at most `limit_bytes`; else RESOURCE_EXHAUSTED naming the
// limit (`limit`: "memory", "largest buffer").
Status CheckAllocationSize(std::string_view plugin, uint64_t byte_size,
                           uint64_t limit_bytes, std::string_view limit);

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_BUFFER_CHECKS_H_
