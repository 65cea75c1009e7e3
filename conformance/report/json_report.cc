#include <filesystem>
#include <fstream>

#include "conformance/report/report.h"
#include "polyhal/runtime.h"

namespace phal::conformance {
namespace {

nlohmann::json CountsToJson(const StatusCounts& counts) {
  return {{"pass", counts.pass},
          {"fail", counts.fail},
          {"not_supported", counts.not_supported},
          {"not_supported_uncertifiable", counts.not_supported_uncertifiable},
          {"crash", counts.crash},
          {"timeout", counts.timeout}};
}

}  // namespace

nlohmann::json ReportToJson(const Report& report) {
  const RunSettings& s = report.settings;
  nlohmann::json tiers = nlohmann::json::array();
  for (const TierVerdict& tier : report.verdict.tiers) {
    tiers.push_back({{"tier", tier.tier},
                     {"certified", tier.certified},
                     {"counts", CountsToJson(tier.counts)}});
  }
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& result : report.results) {
    cases.push_back(CaseResultToJson(result));
  }
  return {{"schema", "polyhal-conformance-report"},
          {"suite_version", kSuiteVersion},
          {"polyhal_version", phal_get_version_string()},
          {"run",
           {{"plugin", s.plugin},
            {"tier", s.tier},
            {"filters", s.filters},
            {"jobs", s.jobs},
            {"isolate", s.isolate},
            {"validate", s.validate},
            {"timeout_seconds", s.timeout_seconds},
            {"corpus_dir", s.corpus_dir},
            {"started_at", s.started_at},
            {"seconds", s.seconds},
            {"corpus_case_count", s.corpus_case_count}}},
          {"plugin", report.target.value("plugin", nlohmann::json::object())},
          {"devices", report.target.value("devices", nlohmann::json::array())},
          {"verdict",
           {{"certified", report.verdict.certified},
            {"tier", report.verdict.requested_tier},
            {"summary", report.verdict.summary},
            {"tiers", tiers},
            {"corpus", CountsToJson(report.verdict.corpus)},
            {"all", CountsToJson(report.verdict.all)}}},
          {"cases", cases}};
}

Status WriteReport(const Report& report, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return Internal("cannot create " + directory + ": " + error.message());
  }
  const std::pair<std::string, std::string> files[] = {
      {"report.json", ReportToJson(report).dump(1) + "\n"},
      {"report.html", ReportToHtml(report)}};
  for (const auto& [name, text] : files) {
    const std::string path = directory + "/" + name;
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) return Internal("cannot write " + path);
  }
  return OkStatus();
}

}  // namespace phal::conformance
