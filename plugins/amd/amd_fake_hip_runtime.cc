// A HIP runtime on a machine with no GPU, for the plugin's tests: a shared
// library exporting every entry point amd_hip.h lists, each answering
// hipErrorNoDevice (100), as ROCm's runtime does where the kernel driver
// finds no AMD GPU. The tests load it through PHAL_AMD_HIP_LIBRARY.
#include "plugins/amd/amd_hip.h"

// The entry points' parameters come from the table, unnamed uses and all.
#pragma GCC diagnostic ignored "-Wunused-parameter"

namespace phal::amd {
namespace {

template <typename Result>
Result NoDevice();

template <>
hipError_t NoDevice() {
  return hipErrorNoDevice;
}

// hipGetErrorName and hipGetErrorString.
template <>
const char* NoDevice() {
  return "hipErrorNoDevice";
}

}  // namespace

#define PHAL_FAKE_HIP_ENTRY_POINT(requirement, result, name, parameters)     \
  extern "C" __attribute__((visibility("default"))) result name parameters { \
    return NoDevice<result>();                                               \
  }
PHAL_HIP_ENTRY_POINTS(PHAL_FAKE_HIP_ENTRY_POINT)
#undef PHAL_FAKE_HIP_ENTRY_POINT

}  // namespace phal::amd
