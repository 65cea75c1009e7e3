#include "sdk/gpu_plugin/gpu_emulator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "sdk/plugin_support/virtual_devices.h"

namespace phal::gpu_plugin {
namespace {

thread_local std::string error_detail;

}  // namespace

llvm_emitter::grid::GridDeviceMemory& EmulatedMemory() {
  static auto* memory = new llvm_emitter::grid::GridDeviceMemory();
  return *memory;
}

void SetEmulatorErrorDetail(std::string detail) {
  error_detail = std::move(detail);
}

std::string EmulatorErrorDetail() { return error_detail; }

int EmulatedDeviceCount() {
  StatusOr<size_t> count = VirtualDeviceCount(1);
  return count.ok() ? static_cast<int>(*count) : 0;
}

Status CheckEmulatedDevice(int device) {
  const int count = EmulatedDeviceCount();
  if (device >= 0 && device < count) return OkStatus();
  return InvalidArgument("the emulator has " + std::to_string(count) +
                         (count == 1 ? " device" : " devices") +
                         " (PHAL_VIRTUAL_DEVICES), not device " +
                         std::to_string(device));
}

Status CopyEmulatedName(std::string_view name, char* out, int length) {
  if (length <= 0) return InvalidArgument("name length");
  const size_t copied = std::min(name.size(), static_cast<size_t>(length) - 1);
  std::memcpy(out, name.data(), copied);
  out[copied] = '\0';
  return OkStatus();
}

Status CheckEmulatedLaunch(const EmulatedLaunchLimits& limits,
                           const unsigned int grid[3],
                           const unsigned int block[3]) {
  for (int d = 0; d < 3; ++d) {
    if (grid[d] == 0 || grid[d] > static_cast<unsigned>(limits.max_grid[d]) ||
        block[d] == 0 ||
        block[d] > static_cast<unsigned>(limits.max_block[d])) {
      return InvalidArgument("grid or block dimension " + std::to_string(d) +
                             " out of the device's range");
    }
  }
  if (uint64_t{block[0]} * block[1] * block[2] >
      static_cast<uint64_t>(limits.max_threads_per_block)) {
    return InvalidArgument("more than " +
                           std::to_string(limits.max_threads_per_block) +
                           " threads per block");
  }
  return OkStatus();
}

}  // namespace phal::gpu_plugin
