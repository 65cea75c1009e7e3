#include "cli/stress/judge.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <tuple>

namespace phal::cli::stress {
namespace {

// The median of `count` samples from `first` on (fewer at the end).
double Median(const std::vector<double>& samples, size_t first, size_t count) {
  if (samples.empty()) return 0;
  first = std::min(first, samples.size() - 1);
  const size_t last =
      std::min(samples.size(), first + std::max<size_t>(1, count));
  std::vector<double> window(
      samples.begin() + static_cast<std::ptrdiff_t>(first),
      samples.begin() + static_cast<std::ptrdiff_t>(last));
  const auto middle =
      window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2);
  std::nth_element(window.begin(), middle, window.end());
  return *middle;
}

}  // namespace

double WindowSeconds(const StressOptions& options) {
  return std::clamp((options.duration_s - options.Warmup()) / 4, 1.0, 60.0);
}

std::pair<double, double> WarmAndEnd(const std::vector<double>& samples,
                                     const StressOptions& options) {
  const size_t count = static_cast<size_t>(WindowSeconds(options));
  const size_t warm = static_cast<size_t>(std::max(0.0, options.Warmup()));
  const size_t end = samples.size() > count ? samples.size() - count : 0;
  return {Median(samples, warm, count),
          Median(samples, std::max(warm, end), count)};
}

void Judge(const StressOptions& options, StressReport& report) {
  const std::vector<double>& rss = report.rss_mib;
  std::tie(report.rss_warmup_mib, report.rss_end_mib) =
      WarmAndEnd(rss, options);
  for (size_t i = static_cast<size_t>(options.Warmup()); i < rss.size(); ++i) {
    report.rss_peak_mib = std::max(report.rss_peak_mib, rss[i]);
  }
  report.rss_growth_mib = report.rss_end_mib - report.rss_warmup_mib;
  report.in_use_mib = rss;
  for (size_t i = 0; i < rss.size() && i < report.heap_held_mib.size(); ++i) {
    report.in_use_mib[i] -= report.heap_held_mib[i] - report.heap_in_use_mib[i];
  }
  std::tie(report.in_use_warmup_mib, report.in_use_end_mib) =
      WarmAndEnd(report.in_use_mib, options);
  report.in_use_growth_mib = report.in_use_end_mib - report.in_use_warmup_mib;
  if (report.executions == 0) {
    report.verdicts.push_back("no execution finished");
  }
  if (report.mismatches > 0) {
    report.verdicts.push_back(std::to_string(report.mismatches) +
                              " results differ from the reference");
  }
  if (report.errors > 0) {
    report.verdicts.push_back(std::to_string(report.errors) +
                              " compiles or executions failed");
  }
  if (report.log_errors > 0) {
    report.verdicts.push_back(std::to_string(report.log_errors) +
                              " errors were logged");
  }
  if (report.leaks > 0) {
    report.verdicts.push_back(
        "objects were still alive at phal_client_destroy (" +
        std::to_string(report.leaks) + " reports)");
  }
  if (report.in_use_growth_mib > options.rss_tolerance_mib) {
    char text[256];
    std::snprintf(text, sizeof(text),
                  "memory in use grew by %.1f MiB after the warm-up (%.1f "
                  "-> %.1f MiB; resident %.1f -> %.1f MiB), beyond the "
                  "tolerance of %.1f MiB",
                  report.in_use_growth_mib, report.in_use_warmup_mib,
                  report.in_use_end_mib, report.rss_warmup_mib,
                  report.rss_end_mib, options.rss_tolerance_mib);
    report.verdicts.push_back(text);
  }
}

}  // namespace phal::cli::stress
