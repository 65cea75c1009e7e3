#include "plugins/intel/intel_opencl.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace phal::intel {
namespace {

struct Loaded {
  OpenCl api;
  bool ok = false;
  std::string reason;
};

Loaded Load() {
  Loaded loaded;
  const char* configured = std::getenv("PHAL_INTEL_OPENCL_LIBRARY");
  const std::string path = configured != nullptr && *configured != '\0'
                               ? configured
                               : "libOpenCL.so.1";
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = ::dlerror();
    loaded.reason = "the OpenCL ICD loader " + path + " cannot be opened (" +
                    (error != nullptr ? error : "unknown error") +
                    "); install ocl-icd-libopencl1 and a driver";
    return loaded;
  }
#define PHAL_OPENCL_RESOLVE(name)                                   \
  loaded.api.name = reinterpret_cast<decltype(loaded.api.name)>(    \
      ::dlsym(library, "cl" #name));                                \
  if (loaded.api.name == nullptr) {                                 \
    loaded.reason = "the OpenCL ICD loader " + path +               \
                    " has no cl" #name " (it predates OpenCL 1.2)"; \
    return loaded;                                                  \
  }
  PHAL_OPENCL_ENTRIES(PHAL_OPENCL_RESOLVE)
#undef PHAL_OPENCL_RESOLVE
  loaded.ok = true;
  return loaded;
}

const Loaded& Instance() {
  static const Loaded loaded = Load();
  return loaded;
}

}  // namespace

const OpenCl* LoadOpenCl(std::string* reason) {
  const Loaded& loaded = Instance();
  if (!loaded.ok) {
    *reason = loaded.reason;
    return nullptr;
  }
  return &loaded.api;
}

const OpenCl& Cl() { return Instance().api; }

std::string ErrorName(cl_int error) {
  const char* name = "an OpenCL error";
  switch (error) {
    case CL_DEVICE_NOT_FOUND:
      name = "CL_DEVICE_NOT_FOUND";
      break;
    case CL_DEVICE_NOT_AVAILABLE:
      name = "CL_DEVICE_NOT_AVAILABLE";
      break;
    case CL_COMPILER_NOT_AVAILABLE:
      name = "CL_COMPILER_NOT_AVAILABLE";
      break;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      name = "CL_MEM_OBJECT_ALLOCATION_FAILURE";
      break;
    case CL_OUT_OF_RESOURCES:
      name = "CL_OUT_OF_RESOURCES";
      break;
    case CL_OUT_OF_HOST_MEMORY:
      name = "CL_OUT_OF_HOST_MEMORY";
      break;
    case CL_BUILD_PROGRAM_FAILURE:
      name = "CL_BUILD_PROGRAM_FAILURE";
      break;
    case CL_INVALID_VALUE:
      name = "CL_INVALID_VALUE";
      break;
    case CL_INVALID_DEVICE:
      name = "CL_INVALID_DEVICE";
      break;
    case CL_INVALID_CONTEXT:
      name = "CL_INVALID_CONTEXT";
      break;
    case CL_INVALID_MEM_OBJECT:
      name = "CL_INVALID_MEM_OBJECT";
      break;
    case CL_INVALID_BINARY:
      name = "CL_INVALID_BINARY";
      break;
    case CL_INVALID_BUILD_OPTIONS:
      name = "CL_INVALID_BUILD_OPTIONS";
      break;
    case CL_INVALID_KERNEL_NAME:
      name = "CL_INVALID_KERNEL_NAME";
      break;
    case CL_INVALID_KERNEL_ARGS:
      name = "CL_INVALID_KERNEL_ARGS";
      break;
    case CL_INVALID_WORK_GROUP_SIZE:
      name = "CL_INVALID_WORK_GROUP_SIZE";
      break;
    case CL_INVALID_WORK_ITEM_SIZE:
      name = "CL_INVALID_WORK_ITEM_SIZE";
      break;
    case CL_INVALID_GLOBAL_WORK_SIZE:
      name = "CL_INVALID_GLOBAL_WORK_SIZE";
      break;
    case CL_INVALID_EVENT_WAIT_LIST:
      name = "CL_INVALID_EVENT_WAIT_LIST";
      break;
    case CL_INVALID_BUFFER_SIZE:
      name = "CL_INVALID_BUFFER_SIZE";
      break;
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
      name = "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
      break;
    case -1001:
      name = "CL_PLATFORM_NOT_FOUND_KHR";
      break;
    default:
      break;
  }
  return std::string(name) + " (" + std::to_string(error) + ")";
}

Status ClError(const std::string& what, cl_int error) {
  const bool exhausted = error == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                         error == CL_OUT_OF_RESOURCES ||
                         error == CL_OUT_OF_HOST_MEMORY ||
                         error == CL_INVALID_BUFFER_SIZE;
  const std::string message = "intel plugin: " + what + ": " + ErrorName(error);
  return exhausted ? ResourceExhausted(message) : Internal(message);
}

}  // namespace phal::intel
