// The CUDA driver API as the plugin calls it: the few types, constants and
// entry points it uses, declared here with the numeric values NVIDIA
// documents (so nothing needs cuda.h to build), and a table of entry points
// resolved at run time. Two tables exist: the driver's (libcuda.so.1, opened
// with dlopen, never linked) and the grid emulator's (nvidia_emulator.h),
// which implements the same entry points over host memory. Every device,
// buffer, stream, event and kernel of the plugin goes through a table, so
// the emulated device runs the code path a GPU runs.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_CUDA_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_CUDA_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "sdk/base/status.h"

namespace phal::nvidia {

// cuda.h's CUresult is a C enum: an int at the ABI. A fixed underlying type
// keeps the codes this header does not name representable.
enum CUresult : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

inline constexpr unsigned int CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned int CU_EVENT_DISABLE_TIMING = 0x2;

using CUdevice = int;
using CUdeviceptr = unsigned long long;  // NOLINT: the driver's own spelling
// Opaque to the plugin; the grid emulator defines the ones it hands out.
struct CUctx_st;
struct CUstream_st;
struct CUevent_st;
struct CUmod_st;
struct CUfunc_st;
using CUcontext = CUctx_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
struct CUuuid {
  char bytes[16];
};

// Every entry point the plugin calls: whether a driver must export it, the
// table's member, the exported symbol (the _v2 names where the driver has
// replaced an entry point and kept the old one for old binaries), the
// result and the parameters.
#define PHAL_CUDA_ENTRY_POINTS(X)                                             \
  X(kRequired, cuInit, "cuInit", (unsigned int flags))                        \
  X(kRequired, cuDriverGetVersion, "cuDriverGetVersion", (int* version))      \
  X(kRequired, cuGetErrorName, "cuGetErrorName",                              \
    (CUresult error, const char** name))                                      \
  X(kRequired, cuGetErrorString, "cuGetErrorString",                          \
    (CUresult error, const char** text))                                      \
  X(kRequired, cuDeviceGetCount, "cuDeviceGetCount", (int* count))            \
  X(kRequired, cuDeviceGet, "cuDeviceGet", (CUdevice * device, int ordinal))  \
  X(kRequired, cuDeviceGetName, "cuDeviceGetName",                            \
    (char* name, int length, CUdevice device))                                \
  X(kRequired, cuDeviceGetAttribute, "cuDeviceGetAttribute",                  \
    (int* value, CUdevice_attribute attribute, CUdevice device))              \
  X(kRequired, cuDeviceTotalMem, "cuDeviceTotalMem_v2",                       \
    (size_t * bytes, CUdevice device))                                        \
  X(kOptional, cuDeviceGetUuid, "cuDeviceGetUuid_v2",                         \
    (CUuuid * uuid, CUdevice device))                                         \
  X(kRequired, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",          \
    (CUcontext * context, CUdevice device))                                   \
  X(kRequired, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",     \
    (CUdevice device))                                                        \
  X(kRequired, cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext context))  \
  X(kRequired, cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * context))  \
  X(kRequired, cuMemAlloc, "cuMemAlloc_v2",                                   \
    (CUdeviceptr * address, size_t bytes))                                    \
  X(kRequired, cuMemFree, "cuMemFree_v2", (CUdeviceptr address))              \
  X(kRequired, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                     \
    (CUdeviceptr destination, const void* source, size_t bytes,               \
     CUstream stream))                                                        \
  X(kRequired, cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                     \
    (void* destination, CUdeviceptr source, size_t bytes, CUstream stream))   \
  X(kRequired, cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                     \
    (CUdeviceptr destination, CUdeviceptr source, size_t bytes,               \
     CUstream stream))                                                        \
  X(kOptional, cuMemcpyPeerAsync, "cuMemcpyPeerAsync",                        \
    (CUdeviceptr destination, CUcontext destination_context,                  \
     CUdeviceptr source, CUcontext source_context, size_t bytes,              \
     CUstream stream))                                                        \
  X(kRequired, cuStreamCreate, "cuStreamCreate",                              \
    (CUstream * stream, unsigned int flags))                                  \
  X(kRequired, cuStreamDestroy, "cuStreamDestroy_v2", (CUstream stream))      \
  X(kRequired, cuStreamSynchronize, "cuStreamSynchronize", (CUstream stream)) \
  X(kRequired, cuStreamWaitEvent, "cuStreamWaitEvent",                        \
    (CUstream stream, CUevent event, unsigned int flags))                     \
  X(kRequired, cuEventCreate, "cuEventCreate",                                \
    (CUevent * event, unsigned int flags))                                    \
  X(kRequired, cuEventDestroy, "cuEventDestroy_v2", (CUevent event))          \
  X(kRequired, cuEventRecord, "cuEventRecord",                                \
    (CUevent event, CUstream stream))                                         \
  X(kRequired, cuEventSynchronize, "cuEventSynchronize", (CUevent event))     \
  X(kRequired, cuEventQuery, "cuEventQuery", (CUevent event))                 \
  X(kRequired, cuModuleLoadDataEx, "cuModuleLoadDataEx",                      \
    (CUmodule * module, const void* image, unsigned int option_count,         \
     CUjit_option* options, void** option_values))                            \
  X(kRequired, cuModuleUnload, "cuModuleUnload", (CUmodule module))           \
  X(kRequired, cuModuleGetFunction, "cuModuleGetFunction",                    \
    (CUfunction * function, CUmodule module, const char* name))               \
  X(kRequired, cuLaunchKernel, "cuLaunchKernel",                              \
    (CUfunction function, unsigned int grid_x, unsigned int grid_y,           \
     unsigned int grid_z, unsigned int block_x, unsigned int block_y,         \
     unsigned int block_z, unsigned int shared_bytes, CUstream stream,        \
     void** parameters, void** extra))

#define PHAL_CUDA_DECLARE_ENTRY_POINT(requirement, member, symbol, parameters) \
  CUresult(*member) parameters = nullptr;

struct Cuda {
  // Names the implementation in messages and properties: the library
  // opened, or the grid emulator.
  std::string implementation;
  // cuDriverGetVersion's answer: 1000 * major + 10 * minor.
  int driver_version = 0;
  PHAL_CUDA_ENTRY_POINTS(PHAL_CUDA_DECLARE_ENTRY_POINT)
  // The grid emulator's explanation of the last error it returned on the
  // calling thread (a kernel's out-of-bounds access, ...); NULL for the
  // driver, whose cuGetErrorString is all there is.
  std::string (*last_error_detail)() = nullptr;
};

#undef PHAL_CUDA_DECLARE_ENTRY_POINT

// The driver's table: libcuda.so.1 (or PHAL_NVIDIA_CUDA_LIBRARY) opened,
// its entry points resolved, cuInit run and the version read, on the first
// call; on every call after a failure, the reason (no library, an entry
// point missing, cuInit's error).
StatusOr<const Cuda*> GetCuda();

// OK for CUDA_SUCCESS; else an error naming `what`, the result's name and
// its description (and the emulator's detail): out of memory results as
// RESOURCE_EXHAUSTED, a driver too old as FAILED_PRECONDITION.
Status CudaStatus(const Cuda& cuda, CUresult result, const std::string& what);

// "12.4" for 12040.
std::string DriverVersionText(int version);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_CUDA_H_
