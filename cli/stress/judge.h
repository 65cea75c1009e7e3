// The verdict of `polyhal stress`: the memory figures summarised over the
// ends of the timed run, and why the run failed.
#ifndef POLYHAL_CLI_STRESS_JUDGE_H_
#define POLYHAL_CLI_STRESS_JUDGE_H_

#include <utility>
#include <vector>

#include "cli/stress/options.h"
#include "cli/stress/report.h"

namespace phal::cli::stress {

// The seconds each end of the timed run is summarised over: the minute
// after the warm-up and the last minute, or a quarter of the time after the
// warm-up each when that is shorter (one sample at least). A median over
// them is not moved by a few large modules in flight at one sample.
double WindowSeconds(const StressOptions& options);

// The medians of the window after the warm-up and of the last window.
std::pair<double, double> WarmAndEnd(const std::vector<double>& samples,
                                     const StressOptions& options);

// Fills the report's memory figures from its samples, and its verdicts
// from its counts and the options' tolerance.
void Judge(const StressOptions& options, StressReport& report);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_JUDGE_H_
