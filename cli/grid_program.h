// A program for several processes as `polyhal run --devices N` and
// `polyhal bench --devices N` take it: the module with the shardings that
// map its per-process parameters and results to global arrays, the global
// inputs split over the processes, and the program compiled for a plugin's
// first N devices with each device's inputs uploaded.
#ifndef POLYHAL_CLI_GRID_PROGRAM_H_
#define POLYHAL_CLI_GRID_PROGRAM_H_

#include <memory>
#include <optional>
#include <vector>

#include "cli/command.h"
#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "core/hlo/sharding.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/status.h"

namespace phal::cli {

// A program for several processes and how its arrays map to global ones.
struct GridProgram {
  std::unique_ptr<HloModule> module;
  int64_t processes = 1;
  int64_t partitions = 1;
  std::vector<Shape> parameter_shapes;  // one process's
  std::vector<std::optional<HloSharding>> parameter_shardings;
  std::vector<Shape> result_shapes;  // one process's leaves
  std::vector<std::optional<HloSharding>> result_shardings;
};

// The verified module of `options.module_path`; an error naming the grid
// when it is not for `options.devices` processes.
StatusOr<GridProgram> LoadGridProgram(const RunOptions& options);

// Each process's arguments: the global inputs (--input files, or random
// values of the global shapes) split by the parameters' shardings.
StatusOr<std::vector<std::vector<Literal>>> SplitInputs(
    const GridProgram& program, const RunOptions& options);

// The program compiled for the first devices of `options.plugin`, with
// each device's arguments uploaded. Members are destroyed before the
// client they came from.
struct DeviceRun {
  Client client;
  std::vector<Device> devices;
  Executable executable;
  std::vector<std::vector<Buffer>> inputs;
  double compile_ms = 0;
  double upload_ms = 0;
};
StatusOr<std::unique_ptr<DeviceRun>> PrepareDeviceRun(
    const std::vector<std::vector<Literal>>& arguments,
    const RunOptions& options);

// Every process's result leaves, downloaded.
StatusOr<std::vector<std::vector<Literal>>> Download(
    const GridProgram& program,
    const std::vector<std::vector<Buffer>>& results);

// The leaves of `literal` (a tuple's arrays in order), moved out into `out`.
void TakeLeaves(Literal literal, std::vector<Literal>* out);

// The global value of result `i`: assembled from the pieces of replica 0's
// partitions (leaves[p][i]) by its sharding, else process 0's value.
StatusOr<Literal> GlobalResult(const GridProgram& program,
                               const std::vector<std::vector<Literal>>& leaves,
                               std::size_t i);

}  // namespace phal::cli

#endif  // POLYHAL_CLI_GRID_PROGRAM_H_
