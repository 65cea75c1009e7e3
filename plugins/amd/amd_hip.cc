#include "plugins/amd/amd_hip.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace phal::amd {
namespace {

// Whether a runtime without the entry point is refused (kRequired) or used
// without it (kOptional: the plugin then takes another way).
constexpr bool kRequired = true;
constexpr bool kOptional = false;

// Debian bookworm's libamdhip64-5, ROCm 6's, and the development link a
// ROCm install has whatever its version.
constexpr const char* kSonames[] = {"libamdhip64.so.5", "libamdhip64.so.6",
                                    "libamdhip64.so"};

struct Loaded {
  std::once_flag once;
  void* library = nullptr;
  Hip hip;
  Status status;
};

Loaded& State() {
  // Never destroyed: the runtime runs exit handlers of its own, and a
  // plugin unloaded and loaded again finds it initialised.
  static Loaded* loaded = new Loaded();
  return *loaded;
}

// Opens PHAL_AMD_HIP_LIBRARY when set, else the first soname that opens;
// the dlopen errors of every name tried otherwise.
Status Open(Loaded& loaded) {
  const char* chosen = std::getenv("PHAL_AMD_HIP_LIBRARY");
  std::string errors;
  const auto try_open = [&](const char* name) {
    loaded.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (loaded.library != nullptr) {
      loaded.hip.implementation = name;
      return true;
    }
    const char* error = dlerror();
    errors += std::string(errors.empty() ? "" : "; ") +
              (error != nullptr ? error : name);
    return false;
  };
  if (chosen != nullptr && *chosen != '\0') {
    if (try_open(chosen)) return OkStatus();
  } else {
    for (const char* name : kSonames) {
      if (try_open(name)) return OkStatus();
    }
  }
  return NotFound("no HIP runtime: " + errors);
}

Status Load(Loaded& loaded) {
  PHAL_RETURN_IF_ERROR(Open(loaded));
  Hip& hip = loaded.hip;
  std::string missing;
#define PHAL_HIP_RESOLVE(requirement, result, name, parameters)           \
  hip.name =                                                              \
      reinterpret_cast<decltype(hip.name)>(dlsym(loaded.library, #name)); \
  if (hip.name == nullptr && requirement) missing += " " #name;
  PHAL_HIP_ENTRY_POINTS(PHAL_HIP_RESOLVE)
#undef PHAL_HIP_RESOLVE
  if (!missing.empty()) {
    return FailedPrecondition("the HIP runtime " + hip.implementation +
                              " lacks entry points the plugin needs (a "
                              "runtime older than ROCm 5?):" +
                              missing);
  }
  PHAL_RETURN_IF_ERROR(HipStatus(hip, hip.hipInit(0), "hipInit"));
  PHAL_RETURN_IF_ERROR(HipStatus(hip,
                                 hip.hipRuntimeGetVersion(&hip.runtime_version),
                                 "hipRuntimeGetVersion"));
  return HipStatus(hip, hip.hipDriverGetVersion(&hip.driver_version),
                   "hipDriverGetVersion");
}

}  // namespace

StatusOr<const Hip*> GetHip() {
  Loaded& loaded = State();
  std::call_once(loaded.once, [&] { loaded.status = Load(loaded); });
  if (!loaded.status.ok()) return loaded.status;
  return &loaded.hip;
}

Status HipStatus(const Hip& hip, hipError_t result, const std::string& what) {
  if (result == hipSuccess) return OkStatus();
  const char* name =
      hip.hipGetErrorName != nullptr ? hip.hipGetErrorName(result) : nullptr;
  const char* text = hip.hipGetErrorString != nullptr
                         ? hip.hipGetErrorString(result)
                         : nullptr;
  std::string message = "amd plugin: " + what +
                        " failed: " + (name != nullptr ? name : "hipError_t") +
                        " (" + std::to_string(static_cast<int>(result)) + ")";
  if (text != nullptr) message += std::string(": ") + text;
  if (hip.last_error_detail != nullptr) {
    const std::string detail = hip.last_error_detail();
    if (!detail.empty()) message += ": " + detail;
  }
  switch (result) {
    case hipErrorOutOfMemory:
    case hipErrorLaunchOutOfResources:
      return ResourceExhausted(message);
    case hipErrorNoBinaryForGpu:
    case hipErrorInsufficientDriver:
      return FailedPrecondition(message);
    case hipErrorNoDevice:
      return NotFound(message);
    default:
      return Internal(message);
  }
}

std::string HipVersionText(int version) {
  return std::to_string(version / 10000000) + "." +
         std::to_string(version / 100000 % 100) + "." +
         std::to_string(version % 100000);
}

}  // namespace phal::amd
