// phal_executable: a program compiled (core/compiler) for one device, or for
// the devices of a device assignment (one per process of the program's
// grid), and loaded on each, with the shapes of its parameters and results.
#ifndef POLYHAL_CORE_RUNTIME_EXECUTABLE_H_
#define POLYHAL_CORE_RUNTIME_EXECUTABLE_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "core/executor/device_collectives.h"
#include "core/executor/distributed_grid.h"
#include "core/executor/executor.h"
#include "core/runtime/device.h"

struct phal_executable {
  // The device and loaded program of process 0.
  phal_device* device = nullptr;
  std::unique_ptr<phal::LoadedProgram> program;
  // Those of processes 1, 2, ... of an executable of several devices.
  std::vector<phal_device*> peer_devices;
  std::vector<std::unique_ptr<phal::LoadedProgram>> peer_programs;
  // An executable over a job's devices (phal_executable_compile_global):
  // where the grid's processes run; the devices above are this process's,
  // in process order. Null otherwise.
  std::unique_ptr<phal::DistributedGrid> job_grid;
  // Dims storage the descs point at.
  std::vector<std::vector<int64_t>> parameter_dims;
  std::vector<std::vector<int64_t>> result_dims;

  // Executions in flight, so that freeing waits for them.
  std::mutex mutex;
  std::condition_variable idle;
  int running = 0;
  // The plugins' communicators of earlier executions on several devices,
  // each for one execution at a time (ExecuteSpmd); guarded by `mutex`.
  // Declared after the programs, so destroyed before them.
  std::vector<std::unique_ptr<phal::DeviceCollectives>> idle_collectives;
  // The plugins' communicators of an executable over a job's devices, made
  // with the grid by every process at once; used by one execution at a
  // time (the job's lock held). Null where it has none.
  std::unique_ptr<phal::DeviceCollectives> job_collectives;

  size_t device_count() const { return 1 + peer_devices.size(); }
  phal_device* device_at(size_t index) const {
    return index == 0 ? device : peer_devices[index - 1];
  }
  const phal::LoadedProgram& program_at(size_t index) const {
    return index == 0 ? *program : *peer_programs[index - 1];
  }
};

#endif  // POLYHAL_CORE_RUNTIME_EXECUTABLE_H_
