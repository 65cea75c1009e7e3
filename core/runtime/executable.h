// phal_executable: a program compiled for one device (core/compiler) and
// loaded on it, with the shapes of its parameters and results.
#ifndef POLYHAL_CORE_RUNTIME_EXECUTABLE_H_
#define POLYHAL_CORE_RUNTIME_EXECUTABLE_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "core/executor/executor.h"
#include "core/runtime/device.h"

struct phal_executable {
  phal_device* device = nullptr;
  std::unique_ptr<phal::LoadedProgram> program;
  // Dims storage the descs point at.
  std::vector<std::vector<int64_t>> parameter_dims;
  std::vector<std::vector<int64_t>> result_dims;

  // Executions in flight, so that freeing waits for them.
  std::mutex mutex;
  std::condition_variable idle;
  int running = 0;
};

#endif  // POLYHAL_CORE_RUNTIME_EXECUTABLE_H_
