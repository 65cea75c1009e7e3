// The answers of the device slots that plugins give alike: the kernel
// kinds of ABI 1.1, an ordinal device_open does not know,
// device_get_memory_space of a device with one memory space, and the size of
// this machine's memory for a device made of it.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_QUERIES_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_QUERIES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

// The kernel_kinds mask of a device that runs every kernel kind of ABI 1.1
// (not FFT, of ABI 1.6, nor LINALG, of ABI 1.14: the core decomposes fft
// and expands the linear-algebra ops for such a device).
inline constexpr uint64_t kAllKernelKinds =
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LOOP) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_REDUCE) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_DOT) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_CONV) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_GATHER) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_SCATTER) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_SORT) |
    PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_COPY);

// OK when `ordinal` names one of the plugin's `count` devices, else
// INVALID_ARGUMENT; `plugin` ("acme plugin") begins the message.
Status CheckDeviceOrdinal(std::string_view plugin, size_t ordinal,
                          size_t count);

// device_get_memory_space of a device whose one memory space, at index
// `device_space`, is `name` of `kind` holding `capacity_bytes`: the space
// copied into *out up to out->struct_size (CopyFittingMembers), or
// OUT_OF_RANGE for another index.
Status AnswerMemorySpace(std::string_view plugin, uint32_t index,
                         uint32_t device_space, const char* name,
                         phal_memory_kind_t kind, uint64_t capacity_bytes,
                         phal_memory_space_info_t* out);

// The bytes of physical memory of this machine; 0 when it cannot be read.
uint64_t HostPhysicalMemoryBytes();

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_QUERIES_H_
