// `polyhal conformance`: certifies a plugin against the reference semantics
// (docs/conformance.md). The suite itself lives in conformance/; this file
// reads the flags, shows progress and writes the report.
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "cli/command.h"
#include "conformance/cases/corpus.h"
#include "conformance/report/report.h"
#include "conformance/runner/runner.h"

namespace phal::cli {
namespace {

using conformance::Case;
using conformance::CaseResult;
using conformance::CaseStatus;

struct ConformanceOptions {
  std::string plugin;
  int tier = 3;
  std::vector<std::string> filters;
  int jobs = 1;
  bool isolate = false;
  bool validate = false;
  double timeout = 120;
  std::string corpus_dir;
  std::string report_dir;
  bool list = false;
};

bool ParseInt(const std::string& text, int* out) {
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

std::vector<std::string> SplitCommas(const std::vector<std::string>& values) {
  std::vector<std::string> parts;
  for (const std::string& value : values) {
    std::size_t start = 0;
    while (start <= value.size()) {
      const std::size_t comma = std::min(value.find(',', start), value.size());
      if (comma > start) parts.push_back(value.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return parts;
}

int ParseOptions(const Arguments& arguments, ConformanceOptions* options) {
  ArgumentReader reader("conformance", arguments);
  options->plugin = reader.Value("--plugin");
  const std::string tier = reader.Value("--tier");
  options->filters = SplitCommas(reader.Values("--filter"));
  const std::string jobs = reader.Value("--jobs");
  options->isolate = reader.Flag("--isolate");
  options->validate = reader.Flag("--validate");
  const std::string timeout = reader.Value("--timeout");
  options->corpus_dir = reader.Value("--corpus");
  options->report_dir = reader.Value("--report");
  options->list = reader.Flag("--list");
  if (!reader.Positionals().empty()) {
    return reader.UsageError("takes no positional arguments");
  }
  if (!reader.Done()) return kExitUsage;
  if (options->plugin.empty() && !options->list) {
    return reader.UsageError("--plugin NAME|PATH is required");
  }
  if (!tier.empty() && (!ParseInt(tier, &options->tier) || options->tier < 1 ||
                        options->tier > 3)) {
    return reader.UsageError("--tier takes 1, 2 or 3, not '" + tier + "'");
  }
  if (!jobs.empty() && (!ParseInt(jobs, &options->jobs) || options->jobs < 1)) {
    return reader.UsageError("--jobs takes a positive integer, not '" + jobs +
                             "'");
  }
  if (!timeout.empty()) {
    int seconds = 0;
    if (!ParseInt(timeout, &seconds) || seconds < 1) {
      return reader.UsageError(
          "--timeout takes a positive number of seconds, not '" + timeout +
          "'");
    }
    options->timeout = seconds;
  }
  return kExitSuccess;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// A one-line bar on stderr, redrawn in place; only on a terminal.
class Progress {
 public:
  Progress() : enabled_(isatty(STDERR_FILENO) != 0) {}

  void Update(const CaseResult& result, std::size_t done, std::size_t total) {
    if (result.status != CaseStatus::kPass &&
        result.status != CaseStatus::kNotSupported) {
      Clear();
      std::fprintf(stderr, "%s %s: %s\n",
                   conformance::CaseStatusName(result.status),
                   result.id.c_str(), FirstLine(result.message).c_str());
    }
    if (!enabled_) return;
    const int width = 30;
    const int filled =
        static_cast<int>(width * done / std::max<std::size_t>(total, 1));
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s",
                 std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total,
                 result.id.c_str());
    std::fflush(stderr);
  }

  void Clear() {
    if (enabled_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  static std::string FirstLine(const std::string& text) {
    return text.substr(0, text.find('\n'));
  }
  bool enabled_;
};

int ListCases(const std::vector<const Case*>& cases) {
  for (const Case* c : cases) {
    std::printf("%s\ttier %d\t%s\t%s\n", c->id.c_str(), c->tier, c->op.c_str(),
                c->dtype.c_str());
  }
  return kExitSuccess;
}

}  // namespace

int RunConformance(const Arguments& arguments) {
  ConformanceOptions options;
  if (const int status = ParseOptions(arguments, &options);
      status != kExitSuccess) {
    return status;
  }
  std::vector<Case> cases = conformance::BuiltInCases();
  if (!options.corpus_dir.empty()) {
    StatusOr<std::vector<Case>> corpus =
        conformance::StableHloCorpusCases(options.corpus_dir);
    if (!corpus.ok()) {
      std::fprintf(stderr, "polyhal conformance: %s\n",
                   corpus.status().message().c_str());
      return kExitFailure;
    }
    cases.insert(cases.end(), std::make_move_iterator(corpus->begin()),
                 std::make_move_iterator(corpus->end()));
  }
  const std::vector<const Case*> selected =
      conformance::SelectCases(cases, options.tier, options.filters);
  if (options.list) return ListCases(selected);

  const std::string report_dir =
      options.report_dir.empty() ? "conformance-report" : options.report_dir;
  StatusOr<conformance::PluginLocation> location =
      conformance::LocatePlugin(options.plugin, report_dir);
  if (!location.ok()) {
    std::fprintf(stderr, "polyhal conformance: %s\n",
                 location.status().message().c_str());
    return kExitFailure;
  }
  conformance::RunnerOptions runner;
  runner.plugin = *location;
  runner.jobs = options.jobs;
  runner.isolate = options.isolate;
  runner.validate = options.validate;
  runner.timeout_seconds = options.timeout;
  Progress progress;
  runner.on_result = [&](const CaseResult& result, std::size_t done,
                         std::size_t total) {
    progress.Update(result, done, total);
  };

  conformance::Report report;
  report.settings = {options.plugin,     options.tier,    options.filters,
                     options.jobs,       options.isolate, options.timeout,
                     options.corpus_dir, UtcNow(),        0,
                     cases.size()};
  StatusOr<conformance::RunResults> run =
      conformance::RunCases(selected, runner);
  progress.Clear();
  if (!run.ok()) {
    std::fprintf(stderr, "polyhal conformance: %s\n",
                 run.status().message().c_str());
    return kExitFailure;
  }
  report.settings.seconds = run->seconds;
  report.settings.validate = options.validate;
  report.target = run->target;
  report.results = run->results;
  report.verdict = conformance::Judge(report.results, options.tier);
  if (!options.filters.empty()) {
    report.verdict.summary += " (only the " + std::to_string(selected.size()) +
                              " of " + std::to_string(cases.size()) +
                              " cases --filter selected)";
  }
  const Status written = conformance::WriteReport(report, report_dir);
  if (!written.ok()) {
    std::fprintf(stderr, "polyhal conformance: %s\n",
                 written.message().c_str());
  } else {
    std::printf("report: %s/report.html\n", report_dir.c_str());
  }
  if (run->abandoned) {
    std::printf(
        "the run stopped at a case that hung; %zu cases were not run "
        "(--isolate runs past hangs)\n",
        run->not_run);
  }
  std::printf("%s\n%s\n", report.verdict.summary.c_str(),
              conformance::ClosingLine(report.verdict.all).c_str());
  const int status = report.verdict.certified && written.ok() && !run->abandoned
                         ? kExitSuccess
                         : kExitFailure;
  if (run->abandoned) {
    // Threads are still inside the plugin: unloading it would crash.
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}

}  // namespace phal::cli
