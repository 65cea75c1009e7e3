// `polyhal run MODULE --devices N`: a program for N processes (replicas x
// partitions) on the first N devices of a plugin, or on the reference's
// grid. The inputs are global arrays, split over the devices by each entry
// parameter's sharding (the whole array on every device where it has
// none); the outputs are global arrays assembled by the root's shardings
// (process 0's value where a result has none).
#include <cstdio>
#include <string>
#include <vector>

#include "cli/grid_program.h"
#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "core/hlo/sharded_array.h"
#include "core/io/npy.h"
#include "core/reference/spmd_interpreter.h"

namespace phal::cli {
namespace {

// Every process's result leaves on the reference's grid.
StatusOr<std::vector<std::vector<Literal>>> RunOnReference(
    const GridProgram& program,
    const std::vector<std::vector<Literal>>& arguments) {
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> results,
                        EvaluateSpmd(*program.module, arguments));
  std::vector<std::vector<Literal>> leaves(results.size());
  for (std::size_t k = 0; k < results.size(); ++k) {
    TakeLeaves(std::move(results[k]), &leaves[k]);
  }
  return leaves;
}

// Every process's result leaves on the first devices of `options.plugin`.
StatusOr<std::vector<std::vector<Literal>>> RunOnPluginDevices(
    const GridProgram& program,
    const std::vector<std::vector<Literal>>& arguments,
    const RunOptions& options) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceRun> run,
                        PrepareDeviceRun(arguments, options));
  Result<std::vector<std::vector<Buffer>>> results =
      run->executable.ExecuteOnDevices(run->inputs);
  PHAL_RETURN_IF_ERROR(StatusFromError(results.error()));
  return Download(program, *results);
}

Status RunOnDevices(const RunOptions& options) {
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(options));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, options));
  std::vector<std::vector<Literal>> leaves;
  if (options.plugin == "reference") {
    PHAL_ASSIGN_OR_RETURN(leaves, RunOnReference(program, arguments));
  } else {
    PHAL_ASSIGN_OR_RETURN(leaves,
                          RunOnPluginDevices(program, arguments, options));
  }
  std::vector<Literal> globals;
  for (std::size_t i = 0; i < program.result_shapes.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(Literal global, GlobalResult(program, leaves, i));
    globals.push_back(std::move(global));
  }
  PHAL_RETURN_IF_ERROR(
      EmitOutputs(Literal::Tuple(std::move(globals)), options));
  if (!options.per_device || options.output_dir.empty()) return OkStatus();
  for (std::size_t d = 0; d < leaves.size(); ++d) {
    for (std::size_t i = 0; i < leaves[d].size(); ++i) {
      const std::string path = options.output_dir + "/output_" +
                               std::to_string(i) + ".device_" +
                               std::to_string(d) + ".npy";
      PHAL_RETURN_IF_ERROR(WriteNpy(path, leaves[d][i]));
    }
  }
  return OkStatus();
}

}  // namespace

int RunOnDevicesFile(const RunOptions& options) {
  Status status = RunOnDevices(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
  return kExitFailure;
}

}  // namespace phal::cli
