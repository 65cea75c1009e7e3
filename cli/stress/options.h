// The options of `polyhal stress` and their defaults.
#ifndef POLYHAL_CLI_STRESS_OPTIONS_H_
#define POLYHAL_CLI_STRESS_OPTIONS_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/sanitizer_build.h"

namespace phal::cli::stress {

// How many seeds each module's inputs are drawn from; the reference's
// results for each are computed once, before the timed run.
constexpr int64_t kDefaultInputSets = 4;
// One iteration in this many compiles the module afresh (and frees it)
// instead of running the executable compiled before the run.
constexpr int64_t kDefaultCompileEvery = 8;
// Growth of memory in use (StressReport::in_use_mib) allowed after the
// warm-up. Under AddressSanitizer or ThreadSanitizer freed memory waits in a
// quarantine (ASan's holds up to 256 MiB) before it is reused, so resident
// memory climbs for minutes without a leak; the sanitizer finds leaks
// itself there, so the default check is widened to what only a leak could
// pass.
#if PHAL_SANITIZER_BUILD
constexpr double kDefaultRssToleranceMib = 1024;
#else
constexpr double kDefaultRssToleranceMib = 32;
#endif

struct StressOptions {
  std::vector<std::string> plugins;  // empty: every plugin with a device
  std::vector<std::string> module_paths;
  std::vector<std::string> filters;
  int64_t threads = 4;
  double duration_s = 60;
  std::optional<double> warmup_s;  // default: a third of the run, <= 60 s
  int64_t input_sets = kDefaultInputSets;
  int64_t compile_every = kDefaultCompileEvery;
  uint64_t seed = 0;
  double rss_tolerance_mib = kDefaultRssToleranceMib;
  bool validate = false;
  bool json = false;

  double Warmup() const {
    return warmup_s ? *warmup_s : std::min(60.0, duration_s / 3);
  }
};

// Reads the options of `polyhal stress`; returns kExitSuccess or the usage
// exit code, the error printed.
int ParseStressOptions(ArgumentReader& reader, StressOptions* options);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_OPTIONS_H_
