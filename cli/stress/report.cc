#include "cli/stress/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <utility>

#include "cli/stress/judge.h"

namespace phal::cli::stress {

void PrintText(const StressOptions& options, const StressReport& report) {
  for (const std::string& refusal : report.unsupported) {
    std::printf("not run     %s\n", refusal.c_str());
  }
  std::printf("devices     ");
  for (size_t d = 0; d < report.devices.size(); ++d) {
    std::printf("%s%s: %lld executions", d == 0 ? "" : ", ",
                report.devices[d].c_str(),
                static_cast<long long>(report.executions_by_device[d]));
  }
  std::printf("\n");
  std::printf("modules     %zu, %lld input sets each\n", report.modules,
              static_cast<long long>(options.input_sets));
  std::printf("run         %.1f s on %lld threads (prepared in %.1f s)\n",
              report.run_s, static_cast<long long>(options.threads),
              report.prepare_s);
  std::printf("executions  %lld (%.1f per second)\n",
              static_cast<long long>(report.executions),
              report.run_s > 0
                  ? static_cast<double>(report.executions) / report.run_s
                  : 0.0);
  std::printf("compiles    %lld during the run\n",
              static_cast<long long>(report.compiles));
  std::printf("mismatches  %lld\n", static_cast<long long>(report.mismatches));
  std::printf("errors      %lld\n", static_cast<long long>(report.errors));
  std::printf(
      "memory      medians over the %.0f s after the warm-up (%.0f s) and "
      "the last %.0f s\n",
      WindowSeconds(options), options.Warmup(), WindowSeconds(options));
  std::printf("rss         %.1f -> %.1f MiB (%+.1f MiB), peak %.1f MiB\n",
              report.rss_warmup_mib, report.rss_end_mib, report.rss_growth_mib,
              report.rss_peak_mib);
  if (!report.heap_held_mib.empty() && report.heap_held_mib.back() > 0) {
    const auto [warm, end] = WarmAndEnd(report.heap_in_use_mib, options);
    const auto [held_warm, held_end] =
        WarmAndEnd(report.heap_held_mib, options);
    std::printf(
        "heap        %.1f -> %.1f MiB in use (%+.1f MiB); %.1f -> %.1f MiB "
        "held by the allocator\n",
        warm, end, end - warm, held_warm, held_end);
  }
  std::printf(
      "in use      %.1f -> %.1f MiB (%+.1f MiB; tolerance %.1f MiB): "
      "resident memory less the allocator's free bytes\n",
      report.in_use_warmup_mib, report.in_use_end_mib, report.in_use_growth_mib,
      options.rss_tolerance_mib);
  std::printf("leaks       %s\n",
              report.leaks == 0 ? "none" : "reported (see above)");
  for (const std::string& failure : report.failures) {
    std::printf("failure     %s\n", failure.c_str());
  }
  if (report.verdicts.empty()) {
    std::printf("PASS\n");
    return;
  }
  for (const std::string& verdict : report.verdicts) {
    std::printf("FAIL: %s\n", verdict.c_str());
  }
}

void PrintJson(const StressOptions& options, const StressReport& report) {
  nlohmann::ordered_json document;
  document["passed"] = report.verdicts.empty();
  document["verdicts"] = report.verdicts;
  document["threads"] = options.threads;
  document["duration_s"] = options.duration_s;
  document["warmup_s"] = options.Warmup();
  document["memory_window_s"] = WindowSeconds(options);
  document["run_s"] = report.run_s;
  document["prepare_s"] = report.prepare_s;
  document["modules"] = report.modules;
  document["input_sets"] = options.input_sets;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (size_t d = 0; d < report.devices.size(); ++d) {
    devices.push_back({{"device", report.devices[d]},
                       {"executions", report.executions_by_device[d]}});
  }
  document["devices"] = std::move(devices);
  document["not_run"] = report.unsupported;
  document["executions"] = report.executions;
  document["compiles"] = report.compiles;
  document["mismatches"] = report.mismatches;
  document["errors"] = report.errors;
  document["logged_errors"] = report.log_errors;
  document["leak_reports"] = report.leaks;
  document["failures"] = report.failures;
  document["rss_mib"] = {{"after_warmup", report.rss_warmup_mib},
                         {"end", report.rss_end_mib},
                         {"peak_after_warmup", report.rss_peak_mib},
                         {"growth", report.rss_growth_mib}};
  document["in_use_mib"] = {{"after_warmup", report.in_use_warmup_mib},
                            {"end", report.in_use_end_mib},
                            {"growth", report.in_use_growth_mib},
                            {"tolerance", options.rss_tolerance_mib}};
  document["rss_samples_mib"] = report.rss_mib;
  document["heap_in_use_samples_mib"] = report.heap_in_use_mib;
  document["heap_held_samples_mib"] = report.heap_held_mib;
  document["in_use_samples_mib"] = report.in_use_mib;
  std::printf("%s\n", document.dump(2).c_str());
}

}  // namespace phal::cli::stress
