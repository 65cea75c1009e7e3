// What `polyhal stress` prepares before the timed run: the reference's
// results and the executables every thread shares.
#ifndef POLYHAL_CLI_STRESS_PREPARATION_H_
#define POLYHAL_CLI_STRESS_PREPARATION_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "cli/plugin_program.h"
#include "cli/stress/devices.h"
#include "cli/stress/modules.h"
#include "cli/stress/options.h"
#include "cli/stress/report.h"
#include "sdk/base/status.h"

namespace phal::cli::stress {

// A module compiled for a device before the run, shared by every thread.
struct CompiledPair {
  size_t module = 0;
  size_t device = 0;
  std::shared_ptr<PluginProgram> program;
};

// The reference's results of every input set of every module.
Status ComputeExpected(std::vector<StressModule>& modules,
                       const StressOptions& options);

// Compiles every module for every device that supports it; a device that
// refuses a module (an element type or kernel kind it lacks) is listed in
// the report, any other compile error fails the run.
StatusOr<std::vector<CompiledPair>> CompileAll(
    const std::vector<StressModule>& modules,
    const std::vector<StressDevice>& devices, const StressOptions& options,
    StressReport& report);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_PREPARATION_H_
