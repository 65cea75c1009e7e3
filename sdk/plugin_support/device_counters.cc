#include "sdk/plugin_support/device_counters.h"

#include <string>

#include "sdk/plugin_support/plugin_host.h"

namespace phal {

Status ReturnDeviceCounters(std::span<const CounterView> counters,
                            phal_device_counter_t** out_counters,
                            size_t* out_count) {
  *out_counters = nullptr;
  *out_count = 0;
  if (counters.empty()) return OkStatus();
  const size_t bytes = CounterBlockSize(counters);
  void* block = HostAllocate(bytes, alignof(phal_device_counter_t));
  if (block == nullptr) {
    return ResourceExhausted("no host memory for " + std::to_string(bytes) +
                             " bytes of device counters");
  }
  *out_counters = WriteCounterBlock(counters, block);
  *out_count = counters.size();
  return OkStatus();
}

}  // namespace phal
