// The memory layout of an array of performance counters as it crosses the
// ABI (types.h, phal_device_counter_t, ABI 1.5): one block holding the
// array and, after it, every string the counters point at, so a single
// free releases a snapshot. Plugins write it for the core
// (sdk/plugin_support/device_counters.h), and the core writes it again
// for applications (phal_device_get_counters).
//
// Every function is pure and thread-safe.
#ifndef POLYHAL_SDK_BASE_DEVICE_COUNTERS_H_
#define POLYHAL_SDK_BASE_DEVICE_COUNTERS_H_

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "polyhal/types.h"

namespace phal {

// One counter, its strings viewed, not owned.
struct CounterView {
  std::string_view name;
  std::string_view kernel;  // "" for the device's totals
  std::string_view unit;
  double value = 0;
};

// The bytes a block of `counters` takes: the array, then each string with
// its terminating NUL.
size_t CounterBlockSize(std::span<const CounterView> counters);

// Writes `counters` into `block`, which holds CounterBlockSize(counters)
// bytes aligned for phal_device_counter_t, and returns the array at its
// start.
phal_device_counter_t* WriteCounterBlock(std::span<const CounterView> counters,
                                         void* block);

// Views of `count` counters at `counters` (another side's block); a NULL
// string reads as "".
std::vector<CounterView> ViewCounters(const phal_device_counter_t* counters,
                                      size_t count);

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_DEVICE_COUNTERS_H_
