#include "plugins/nvidia/nvidia_cuda.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace phal::nvidia {
namespace {

// Whether a driver without the entry point is refused (kRequired) or used
// without it (kOptional: the plugin then takes another way).
constexpr bool kRequired = true;
constexpr bool kOptional = false;

struct Loaded {
  std::once_flag once;
  void* library = nullptr;
  Cuda cuda;
  Status status;
};

Loaded& State() {
  // Never destroyed: the driver runs exit handlers of its own, and a
  // plugin unloaded and loaded again finds the driver initialised.
  static Loaded* loaded = new Loaded();
  return *loaded;
}

Status Load(Loaded& loaded) {
  // PHAL_NVIDIA_CUDA_LIBRARY names another driver library (tests, a driver
  // outside the loader's path).
  const char* name = std::getenv("PHAL_NVIDIA_CUDA_LIBRARY");
  if (name == nullptr || *name == '\0') name = "libcuda.so.1";
  loaded.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (loaded.library == nullptr) {
    const char* error = dlerror();
    return NotFound(
        std::string("no CUDA driver: ") + name +
        " cannot be opened: " + (error != nullptr ? error : "dlopen failed"));
  }
  Cuda& cuda = loaded.cuda;
  cuda.implementation = name;
  std::string missing;
#define PHAL_CUDA_RESOLVE(requirement, member, symbol, parameters)            \
  cuda.member =                                                               \
      reinterpret_cast<decltype(cuda.member)>(dlsym(loaded.library, symbol)); \
  if (cuda.member == nullptr && requirement) missing += " " symbol;
  PHAL_CUDA_ENTRY_POINTS(PHAL_CUDA_RESOLVE)
#undef PHAL_CUDA_RESOLVE
  if (!missing.empty()) {
    return FailedPrecondition(std::string("the CUDA driver ") + name +
                              " lacks entry points the plugin needs (a "
                              "driver older than CUDA 11?):" +
                              missing);
  }
  PHAL_RETURN_IF_ERROR(CudaStatus(cuda, cuda.cuInit(0), "cuInit"));
  return CudaStatus(cuda, cuda.cuDriverGetVersion(&cuda.driver_version),
                    "cuDriverGetVersion");
}

}  // namespace

StatusOr<const Cuda*> GetCuda() {
  Loaded& loaded = State();
  std::call_once(loaded.once, [&] { loaded.status = Load(loaded); });
  if (!loaded.status.ok()) return loaded.status;
  return &loaded.cuda;
}

Status CudaStatus(const Cuda& cuda, CUresult result, const std::string& what) {
  if (result == CUDA_SUCCESS) return OkStatus();
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuda.cuGetErrorName == nullptr ||
      cuda.cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) {
    name = "CUresult";
  }
  if (cuda.cuGetErrorString == nullptr ||
      cuda.cuGetErrorString(result, &text) != CUDA_SUCCESS) {
    text = nullptr;
  }
  std::string message = "nvidia plugin: " + what + " failed: " + name + " (" +
                        std::to_string(static_cast<int>(result)) + ")";
  if (text != nullptr) message += std::string(": ") + text;
  if (cuda.last_error_detail != nullptr) {
    const std::string detail = cuda.last_error_detail();
    if (!detail.empty()) message += ": " + detail;
  }
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return ResourceExhausted(message);
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
      return FailedPrecondition(message);
    case CUDA_ERROR_NO_DEVICE:
      return NotFound(message);
    default:
      return Internal(message);
  }
}

std::string DriverVersionText(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

}  // namespace phal::nvidia
