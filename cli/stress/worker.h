// The work of one thread of `polyhal stress`.
#ifndef POLYHAL_CLI_STRESS_WORKER_H_
#define POLYHAL_CLI_STRESS_WORKER_H_

#include <cstdint>
#include <vector>

#include "cli/stress/clock.h"
#include "cli/stress/devices.h"
#include "cli/stress/modules.h"
#include "cli/stress/options.h"
#include "cli/stress/preparation.h"
#include "cli/stress/tally.h"

namespace phal::cli::stress {

// The work of one thread until `deadline`: a module and device chosen at
// random, run on the executable compiled before the run, or, one time in
// compile_every, compiled afresh (a kernel cache hit in the plugin) and
// freed after the run.
void StressThread(int64_t thread, const std::vector<StressModule>& modules,
                  const std::vector<StressDevice>& devices,
                  const std::vector<CompiledPair>& pairs,
                  const StressOptions& options, Clock::time_point deadline,
                  Tally& tally);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_WORKER_H_
