// The report of a conformance run: report.json (the schema is in
// docs/conformance.md) and a self-contained report.html.
#ifndef POLYHAL_CONFORMANCE_REPORT_REPORT_H_
#define POLYHAL_CONFORMANCE_REPORT_REPORT_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/report/case_result.h"
#include "conformance/report/verdict.h"
#include "sdk/base/status.h"

namespace phal::conformance {

// The version of the suite: its corpus, tolerance policy and report
// schema. A report names it so that two reports are known comparable.
inline constexpr const char* kSuiteVersion = "1.0";

// How the run was asked for.
struct RunSettings {
  std::string plugin;  // --plugin as given
  int tier = 3;
  std::vector<std::string> filters;
  int jobs = 1;
  bool isolate = false;
  double timeout_seconds = 0;
  std::string corpus_dir;
  std::string started_at;             // UTC, ISO 8601
  double seconds = 0;                 // wall time of the run
  std::size_t corpus_case_count = 0;  // cases before --tier and --filter
  bool validate = false;              // --validate: the validation layer on
};

struct Report {
  RunSettings settings;
  nlohmann::json target;  // plugin manifest and device properties
  std::vector<CaseResult> results;
  Verdict verdict;
};

nlohmann::json ReportToJson(const Report& report);
std::string ReportToHtml(const Report& report);

// Writes DIR/report.json and DIR/report.html, creating DIR.
Status WriteReport(const Report& report, const std::string& directory);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_REPORT_REPORT_H_
