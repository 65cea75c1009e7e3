// What the plugins' emulated runtimes share below their entry points: a
// CUDA driver table (plugins/nvidia/nvidia_emulator.cc) and a HIP table
// (plugins/amd/amd_emulator.cc) over the toolkit's emulated GPU
// (sdk/emitters/llvm/grid/grid_device.h) differ in names, handles and
// result codes, not in what they do. Each helper answers a Status; the
// vendor's entry point turns it into its result code and leaves the
// message as the thread's error detail, which the plugin appends to the
// vendor's error string.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_EMULATOR_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_EMULATOR_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/grid/grid_device.h"

namespace phal::gpu_plugin {

// The launch limits an emulated device reports and checks.
struct EmulatedLaunchLimits {
  int max_threads_per_block = 0;
  int max_block[3] = {};
  int max_grid[3] = {};
};

// The emulated device's memory (host memory), for the process's life.
llvm_emitter::grid::GridDeviceMemory& EmulatedMemory();

// The calling thread's explanation of the last result an emulated entry
// point returned ("" after a success).
void SetEmulatorErrorDetail(std::string detail);
std::string EmulatorErrorDetail();

// The devices an emulated runtime has: one, or PHAL_VIRTUAL_DEVICES
// (sdk/plugin_support/virtual_devices.h); none when the knob is wrong.
int EmulatedDeviceCount();
// INVALID_ARGUMENT unless `device` is one of the EmulatedDeviceCount().
Status CheckEmulatedDevice(int device);
// `name`, cut to `length` bytes with its terminator, into `out`.
Status CopyEmulatedName(std::string_view name, char* out, int length);
// INVALID_ARGUMENT for a launch outside `limits`.
Status CheckEmulatedLaunch(const EmulatedLaunchLimits& limits,
                           const unsigned int grid[3],
                           const unsigned int block[3]);

// Entry points of an emulated runtime whose work has finished when its
// call returns (synchronize, wait, record, query), handles that hold
// nothing (created and destroyed), and copies in host memory; `kSuccess`
// is the runtime's success result.
template <auto kSuccess, typename... Arguments>
decltype(kSuccess) EmulatedNothingToDo(Arguments...) {
  SetEmulatorErrorDetail("");
  return kSuccess;
}

template <auto kSuccess, typename Handle>
decltype(kSuccess) EmulatedCreate(Handle* handle, unsigned int /*flags*/) {
  *handle = new std::remove_pointer_t<Handle>();
  return EmulatedNothingToDo<kSuccess>();
}

template <auto kSuccess, typename Handle>
decltype(kSuccess) EmulatedDestroy(Handle handle) {
  delete handle;
  return EmulatedNothingToDo<kSuccess>();
}

template <auto kSuccess, typename Destination, typename Source, typename Stream>
decltype(kSuccess) EmulatedCopy(Destination destination, Source source,
                                size_t bytes, Stream /*stream*/) {
  std::memmove(reinterpret_cast<void*>(destination),
               reinterpret_cast<const void*>(source), bytes);
  return EmulatedNothingToDo<kSuccess>();
}

}  // namespace phal::gpu_plugin

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_EMULATOR_H_
