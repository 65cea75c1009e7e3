// The report of `polyhal stress`: what the run counted and measured, and
// its printing as text or JSON.
#ifndef POLYHAL_CLI_STRESS_REPORT_H_
#define POLYHAL_CLI_STRESS_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/stress/options.h"

namespace phal::cli::stress {

struct StressReport {
  std::vector<std::string> devices;
  size_t modules = 0;
  std::vector<std::string> unsupported;  // "module on device: why"
  double prepare_s = 0;
  double run_s = 0;
  int64_t executions = 0;
  std::vector<int64_t> executions_by_device;
  int64_t compiles = 0;
  int64_t mismatches = 0;
  int64_t errors = 0;
  int64_t log_errors = 0;
  int64_t leaks = 0;
  std::vector<std::string> failures;
  std::vector<double> rss_mib;  // one per second of the timed run
  double rss_warmup_mib = 0;
  double rss_end_mib = 0;
  double rss_peak_mib = 0;
  double rss_growth_mib = 0;
  // The allocator's figures beside each resident sample (HeapFigures).
  std::vector<double> heap_in_use_mib;
  std::vector<double> heap_held_mib;
  // Memory in use: resident memory less the bytes the allocator holds
  // freed (held - in use); resident memory where the allocator cannot say.
  // What the memory check judges.
  std::vector<double> in_use_mib;
  double in_use_warmup_mib = 0;
  double in_use_end_mib = 0;
  double in_use_growth_mib = 0;
  std::vector<std::string> verdicts;  // why the run failed; empty: passed
};

void PrintText(const StressOptions& options, const StressReport& report);

void PrintJson(const StressOptions& options, const StressReport& report);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_REPORT_H_
