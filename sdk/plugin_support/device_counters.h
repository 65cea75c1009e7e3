// A plugin's side of device_get_counters (plugin.h, ABI 1.5): the counters
// it keeps, handed to the core as the one block of
// sdk/base/device_counters.h, allocated with the host's allocator so the
// core frees it.
//
//   phal_status_t* DeviceGetCounters(phal_plugin_device_t* device,
//                                    phal_device_counter_t** out_counters,
//                                    size_t* out_count) noexcept {
//     return RunAtAbiBoundary([&] {
//       return ReturnDeviceCounters(device->CounterSnapshot(), out_counters,
//                                   out_count);
//     });
//   }
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_COUNTERS_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_COUNTERS_H_

#include <cstddef>
#include <span>

#include "polyhal/types.h"
#include "sdk/base/device_counters.h"
#include "sdk/base/status.h"

namespace phal {

// Writes `counters` into one block from the host's allocator and sets
// *out_counters and *out_count to it (NULL and 0 for no counters).
// RESOURCE_EXHAUSTED when the host has no memory for it.
Status ReturnDeviceCounters(std::span<const CounterView> counters,
                            phal_device_counter_t** out_counters,
                            size_t* out_count);

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_DEVICE_COUNTERS_H_
