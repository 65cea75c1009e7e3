// The HIP runtime as the plugin calls it: the few types, constants and
// entry points it uses, declared with the values AMD documents (so nothing
// needs the HIP headers to build), and a table of entry points resolved at
// run time. Two tables exist: the runtime's (libamdhip64, opened with
// dlopen, never linked) and the grid emulator's (amd_emulator.h), which
// implements the same entry points over host memory. Every device, buffer,
// stream, event and kernel of the plugin goes through a table, so the
// emulated device runs the code path a GPU runs.
#ifndef POLYHAL_PLUGINS_AMD_AMD_HIP_H_
#define POLYHAL_PLUGINS_AMD_AMD_HIP_H_

#include <cstddef>
#include <string>

#include "sdk/base/status.h"

namespace phal::amd {

// hipError_t is a C enum: an int at the ABI. A fixed underlying type keeps
// the codes this header does not name representable.
enum hipError_t : int {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInsufficientDriver = 35,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
};

// The attributes the plugin reads, numbered as ROCm 5 and 6 number them.
enum hipDeviceAttribute_t : int {
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

inline constexpr unsigned int hipStreamNonBlocking = 0x1;
inline constexpr unsigned int hipEventDisableTiming = 0x2;

// hipDeviceProp_t's layout differs between ROCm 5 and ROCm 6 (and grows):
// the plugin reads only its gcnArchName string ("gfx90a:sramecc+:xnack-")
// out of a buffer larger than either layout (amd_device.cc).
inline constexpr size_t kDevicePropertiesBytes = 16 * 1024;

// Opaque to the plugin; the grid emulator defines the ones it hands out.
struct ihipStream_t;
struct ihipEvent_t;
struct ihipModule_t;
struct ihipModuleSymbol_t;
using hipStream_t = ihipStream_t*;
using hipEvent_t = ihipEvent_t*;
using hipModule_t = ihipModule_t*;
using hipFunction_t = ihipModuleSymbol_t*;
using hipDeviceptr_t = void*;

// Every entry point the plugin calls: whether a runtime must export it, the
// table's member and exported symbol (the same), the result and the
// parameters.
#define PHAL_HIP_ENTRY_POINTS(X)                                            \
  X(kRequired, hipError_t, hipInit, (unsigned int flags))                   \
  X(kRequired, hipError_t, hipRuntimeGetVersion, (int* version))            \
  X(kRequired, hipError_t, hipDriverGetVersion, (int* version))             \
  X(kRequired, const char*, hipGetErrorName, (hipError_t error))            \
  X(kRequired, const char*, hipGetErrorString, (hipError_t error))          \
  X(kRequired, hipError_t, hipGetDeviceCount, (int* count))                 \
  X(kRequired, hipError_t, hipGetDevice, (int* device))                     \
  X(kRequired, hipError_t, hipSetDevice, (int device))                      \
  X(kRequired, hipError_t, hipDeviceGetName,                                \
    (char* name, int length, int device))                                   \
  X(kRequired, hipError_t, hipDeviceGetAttribute,                           \
    (int* value, hipDeviceAttribute_t attribute, int device))               \
  X(kRequired, hipError_t, hipDeviceTotalMem, (size_t * bytes, int device)) \
  X(kRequired, hipError_t, hipGetDeviceProperties,                          \
    (void* properties, int device))                                         \
  X(kRequired, hipError_t, hipMalloc, (void** address, size_t bytes))       \
  X(kRequired, hipError_t, hipFree, (void* address))                        \
  X(kRequired, hipError_t, hipMemcpyHtoDAsync,                              \
    (hipDeviceptr_t destination, void* source, size_t bytes,                \
     hipStream_t stream))                                                   \
  X(kRequired, hipError_t, hipMemcpyDtoHAsync,                              \
    (void* destination, hipDeviceptr_t source, size_t bytes,                \
     hipStream_t stream))                                                   \
  X(kRequired, hipError_t, hipMemcpyDtoDAsync,                              \
    (hipDeviceptr_t destination, hipDeviceptr_t source, size_t bytes,       \
     hipStream_t stream))                                                   \
  X(kOptional, hipError_t, hipMemcpyPeerAsync,                              \
    (void* destination, int destination_device, const void* source,         \
     int source_device, size_t bytes, hipStream_t stream))                  \
  X(kRequired, hipError_t, hipStreamCreateWithFlags,                        \
    (hipStream_t * stream, unsigned int flags))                             \
  X(kRequired, hipError_t, hipStreamDestroy, (hipStream_t stream))          \
  X(kRequired, hipError_t, hipStreamSynchronize, (hipStream_t stream))      \
  X(kRequired, hipError_t, hipStreamWaitEvent,                              \
    (hipStream_t stream, hipEvent_t event, unsigned int flags))             \
  X(kRequired, hipError_t, hipEventCreateWithFlags,                         \
    (hipEvent_t * event, unsigned int flags))                               \
  X(kRequired, hipError_t, hipEventDestroy, (hipEvent_t event))             \
  X(kRequired, hipError_t, hipEventRecord,                                  \
    (hipEvent_t event, hipStream_t stream))                                 \
  X(kRequired, hipError_t, hipEventSynchronize, (hipEvent_t event))         \
  X(kRequired, hipError_t, hipEventQuery, (hipEvent_t event))               \
  X(kRequired, hipError_t, hipModuleLoadData,                               \
    (hipModule_t * module, const void* image))                              \
  X(kRequired, hipError_t, hipModuleUnload, (hipModule_t module))           \
  X(kRequired, hipError_t, hipModuleGetFunction,                            \
    (hipFunction_t * function, hipModule_t module, const char* name))       \
  X(kRequired, hipError_t, hipModuleLaunchKernel,                           \
    (hipFunction_t function, unsigned int grid_x, unsigned int grid_y,      \
     unsigned int grid_z, unsigned int block_x, unsigned int block_y,       \
     unsigned int block_z, unsigned int shared_bytes, hipStream_t stream,   \
     void** parameters, void** extra))

#define PHAL_HIP_DECLARE_ENTRY_POINT(requirement, result, name, parameters) \
  result(*name) parameters = nullptr;

struct Hip {
  // Names the implementation in messages and properties: the library
  // opened, or the grid emulator.
  std::string implementation;
  // hipRuntimeGetVersion's and hipDriverGetVersion's answers.
  int runtime_version = 0;
  int driver_version = 0;
  PHAL_HIP_ENTRY_POINTS(PHAL_HIP_DECLARE_ENTRY_POINT)
  // The grid emulator's explanation of the last error it returned on the
  // calling thread; NULL for the runtime, whose hipGetErrorString is all
  // there is.
  std::string (*last_error_detail)() = nullptr;
};

#undef PHAL_HIP_DECLARE_ENTRY_POINT

// The runtime's table: PHAL_AMD_HIP_LIBRARY, or the first of the sonames
// ROCm and Debian ship that opens, its entry points resolved, hipInit run
// and the versions read, on the first call; on every call after a failure,
// the reason (no library, an entry point missing, hipInit's error).
StatusOr<const Hip*> GetHip();

// OK for hipSuccess; else an error naming `what`, the result's name and
// description (and the emulator's detail): out of memory as
// RESOURCE_EXHAUSTED, no device as NOT_FOUND, an image for another GPU as
// FAILED_PRECONDITION.
Status HipStatus(const Hip& hip, hipError_t result, const std::string& what);

// "6.1.40093" for HIP_VERSION 60140093 (major * 10^7 + minor * 10^5 +
// patch).
std::string HipVersionText(int version);

}  // namespace phal::amd

#endif  // POLYHAL_PLUGINS_AMD_AMD_HIP_H_
