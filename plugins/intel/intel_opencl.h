// The OpenCL entry points, resolved at run time from the ICD loader
// (libOpenCL.so.1, ocl-icd or any other), so the plugin loads and reports
// why it has no device on a machine without one.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_OPENCL_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_OPENCL_H_

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

#include "sdk/base/status.h"

namespace phal::intel {

// One member per entry point the plugin calls, named as OpenCL names it
// without the "cl" prefix. Filled once; immutable afterwards.
struct OpenCl {
#define PHAL_OPENCL_ENTRY(name) decltype(&::cl##name) name = nullptr;
// clang-format off
#define PHAL_OPENCL_ENTRIES(X) \
  X(GetPlatformIDs) \
  X(GetPlatformInfo) \
  X(GetDeviceIDs) \
  X(GetDeviceInfo) \
  X(CreateContext) \
  X(ReleaseContext) \
  X(CreateCommandQueue) \
  X(ReleaseCommandQueue) \
  X(CreateBuffer) \
  X(ReleaseMemObject) \
  X(EnqueueWriteBuffer) \
  X(EnqueueReadBuffer) \
  X(EnqueueCopyBuffer) \
  X(Finish) \
  X(Flush) \
  X(EnqueueMarkerWithWaitList) \
  X(EnqueueBarrierWithWaitList) \
  X(WaitForEvents) \
  X(GetEventInfo) \
  X(ReleaseEvent) \
  X(RetainEvent) \
  X(CreateProgramWithSource) \
  X(CreateProgramWithBinary) \
  X(BuildProgram) \
  X(GetProgramBuildInfo) \
  X(GetProgramInfo) \
  X(ReleaseProgram) \
  X(RetainProgram) \
  X(CreateKernel) \
  X(ReleaseKernel) \
  X(SetKernelArg) \
  X(EnqueueNDRangeKernel)
  // clang-format on
  PHAL_OPENCL_ENTRIES(PHAL_OPENCL_ENTRY)
#undef PHAL_OPENCL_ENTRY
};

// The entry points, or NULL with *reason set when the ICD loader cannot be
// opened or lacks one of them. The library is $PHAL_INTEL_OPENCL_LIBRARY
// when set, else libOpenCL.so.1. Loaded once per process, never unloaded.
const OpenCl* LoadOpenCl(std::string* reason);

// The entry points; only valid once LoadOpenCl has succeeded (every device
// exists only then).
const OpenCl& Cl();

// "CL_OUT_OF_RESOURCES (-5)" and the like.
std::string ErrorName(cl_int error);
// An error status for a failed OpenCL call: RESOURCE_EXHAUSTED for
// allocation failures, INTERNAL otherwise, naming `what` and the code.
Status ClError(const std::string& what, cl_int error);

}  // namespace phal::intel

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_OPENCL_H_
