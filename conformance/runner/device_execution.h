// Compiling an HLO module for a device through the public C++ API
// (polyhal.hpp) and running it once, as an application would.
#ifndef POLYHAL_CONFORMANCE_RUNNER_DEVICE_EXECUTION_H_
#define POLYHAL_CONFORMANCE_RUNNER_DEVICE_EXECUTION_H_

#include <string>
#include <vector>

#include "core/hlo/literal.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal::conformance {

// Where a device run stopped.
enum class DeviceStage { kCompile, kUpload, kExecute, kDownload };

struct DeviceRunError {
  DeviceStage stage = DeviceStage::kCompile;
  Status status;
};

struct DeviceRun {
  bool ok = false;
  std::vector<Literal> results;  // the result leaves, on success
  DeviceRunError error;
};

// Compiles `hlo_text` for `device` (phal_executable_compile), uploads
// `arguments`, executes once and downloads every result leaf.
DeviceRun RunOnDevice(phal_device_t* device, const std::string& hlo_text,
                      const std::string& source_name,
                      const std::vector<Literal>& arguments);

// "compile", "upload", ...
const char* DeviceStageName(DeviceStage stage);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_DEVICE_EXECUTION_H_
