// report.html: one file with its own style, readable without a network. A
// summary, then per tier a matrix of op x dtype (each cell the cases of
// that op and type, coloured by the worst status among them), then every
// case that did not pass with its inputs and the worst elements.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "conformance/report/report.h"

namespace phal::conformance {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

constexpr const char* kStyle = R"css(
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
h1{margin-bottom:.2em} .verdict{font-size:1.3em;font-weight:600;padding:.4em .8em;display:inline-block;border-radius:4px}
.ok{background:#c8e6c9} .bad{background:#ffcdd2}
table{border-collapse:collapse;margin:1em 0} td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}
th{background:#f5f5f5;position:sticky;top:0} td.op{text-align:left;font-family:monospace}
.Pass{background:#a5d6a7} .Fail{background:#ef9a9a} .Crash{background:#ce93d8}
.Timeout{background:#ffcc80} .NotSupported{background:#e0e0e0} .none{background:#fff}
td.cell{text-align:center;min-width:3em} td.cell a{color:#222;text-decoration:none}
.failure{border-left:4px solid #e57373;padding:.2em 1em;margin:1em 0}
code,pre{font-family:monospace;font-size:12px} pre{white-space:pre-wrap}
.legend span{padding:2px 8px;margin-right:6px;border-radius:3px}
)css";

// Higher is worse: the colour of a cell is its worst status.
int Severity(CaseStatus status) {
  switch (status) {
    case CaseStatus::kPass:
      return 0;
    case CaseStatus::kNotSupported:
      return 1;
    case CaseStatus::kFail:
      return 2;
    case CaseStatus::kTimeout:
      return 3;
    case CaseStatus::kCrash:
      return 4;
  }
  return 2;
}

struct Cell {
  int passed = 0;
  int total = 0;
  CaseStatus worst = CaseStatus::kPass;
  std::string first_problem;  // anchor of the first case that did not pass
};

std::string Anchor(const CaseResult& result) {
  return "case-" + std::to_string(result.device) + "-" + result.id;
}

std::string Summary(const Report& report) {
  const Verdict& v = report.verdict;
  const nlohmann::json& plugin =
      report.target.value("plugin", nlohmann::json::object());
  std::string html =
      "<h1>Polyhal conformance: " +
      Escape(plugin.value("name", report.settings.plugin)) +
      "</h1>\n<p><span class=\"verdict " + (v.certified ? "ok" : "bad") +
      "\">" + Escape(v.summary) + "</span></p>\n<p>" +
      Escape(ClosingLine(v.all)) + " &mdash; suite " + kSuiteVersion + ", " +
      std::to_string(report.results.size()) + " results in " +
      std::to_string(static_cast<int>(report.settings.seconds)) +
      " s, started " + Escape(report.settings.started_at) + "</p>\n<table>";
  auto row = [&](const std::string& key, const std::string& value) {
    html += "<tr><th>" + key + "</th><td>" + Escape(value) + "</td></tr>";
  };
  row("plugin", plugin.value("name", "") + " " + plugin.value("version", "") +
                    " (ABI " + plugin.value("abi_version", "") + ")");
  row("library", plugin.value("library_path", ""));
  row("manifest", plugin.value("manifest_path", ""));
  const nlohmann::json devices =
      report.target.value("devices", nlohmann::json::array());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::string types;
    for (const auto& type :
         devices[i].value("element_types", nlohmann::json::array())) {
      types += type.get<std::string>() + " ";
    }
    row("device " + std::to_string(i),
        devices[i].value("name", "") + ", " + devices[i].value("vendor", "") +
            ", " + devices[i].value("kind", "") + "; element types: " + types);
  }
  for (const TierVerdict& tier : v.tiers) {
    row("tier " + std::to_string(tier.tier),
        std::string(tier.certified ? "certified" : "not certified") + ": " +
            ClosingLine(tier.counts));
  }
  if (v.corpus.Total() > 0) row("corpus files", ClosingLine(v.corpus));
  html += "</table>\n<p class=\"legend\">";
  for (const char* status :
       {"Pass", "Fail", "NotSupported", "Crash", "Timeout"}) {
    html += std::string("<span class=\"") + status + "\">" + status + "</span>";
  }
  return html + "</p>\n";
}

std::string Matrix(const Report& report, int tier) {
  std::map<std::string, std::map<std::string, Cell>> cells;
  std::set<std::string> dtypes;
  for (const CaseResult& result : report.results) {
    if (result.tier != tier) continue;
    Cell& cell = cells[result.op][result.dtype];
    dtypes.insert(result.dtype);
    ++cell.total;
    if (result.status == CaseStatus::kPass) ++cell.passed;
    if (Severity(result.status) > Severity(cell.worst))
      cell.worst = result.status;
    if (result.status != CaseStatus::kPass && cell.first_problem.empty()) {
      cell.first_problem = Anchor(result);
    }
  }
  if (cells.empty()) return "";
  const std::string title = tier == kCorpusTier
                                ? "StableHLO corpus files"
                                : "Tier " + std::to_string(tier);
  std::string html = "<h2>" + title + "</h2>\n<table><tr><th>op</th>";
  for (const std::string& dtype : dtypes)
    html += "<th>" + Escape(dtype) + "</th>";
  html += "</tr>\n";
  for (const auto& [op, row] : cells) {
    html += "<tr><td class=\"op\">" + Escape(op) + "</td>";
    for (const std::string& dtype : dtypes) {
      auto it = row.find(dtype);
      if (it == row.end()) {
        html += "<td class=\"none\"></td>";
        continue;
      }
      const Cell& cell = it->second;
      const std::string text =
          std::to_string(cell.passed) + "/" + std::to_string(cell.total);
      html += std::string("<td class=\"cell ") + CaseStatusName(cell.worst) +
              "\" title=\"" + CaseStatusName(cell.worst) + "\">" +
              (cell.first_problem.empty()
                   ? text
                   : "<a href=\"#" + Escape(cell.first_problem) + "\">" + text +
                         "</a>") +
              "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

std::string MismatchTable(const CaseResult& result) {
  if (result.worst.empty()) return "";
  std::string html =
      "<table><tr><th>output</th><th>position</th><th>inputs</th>"
      "<th>expected</th><th>actual</th><th>error</th></tr>\n";
  for (const ElementMismatch& m : result.worst) {
    std::string inputs;
    for (const std::string& input : m.inputs) {
      inputs += (inputs.empty() ? "" : ", ") +
                (input.empty() ? "&ndash;" : Escape(input));
    }
    html += "<tr><td>" + std::to_string(m.output) + "</td><td>" +
            Escape(m.position) + "</td><td><code>" + inputs +
            "</code></td><td><code>" + Escape(m.expected) +
            "</code></td><td><code>" + Escape(m.actual) + "</code></td><td>" +
            Escape(m.error) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

std::string Failures(const Report& report) {
  std::string html;
  int count = 0;
  for (const CaseResult& result : report.results) {
    if (result.status == CaseStatus::kPass) continue;
    ++count;
    html += "<div class=\"failure\" id=\"" + Escape(Anchor(result)) +
            "\"><h3><span class=\"" + CaseStatusName(result.status) + "\">" +
            CaseStatusName(result.status) + "</span> <code>" +
            Escape(result.id) + "</code> (device " +
            std::to_string(result.device) + ", tier " +
            std::to_string(result.tier) + ")</h3>\n<pre>" +
            Escape(result.message) + "</pre>\n";
    if (!result.bound.empty()) {
      html += "<p>bound: " + Escape(result.bound) + "; worst error: " +
              (std::isfinite(result.error) ? std::to_string(result.error)
                                           : std::string("infinite")) +
              "</p>\n";
    }
    for (std::size_t i = 0; i < result.inputs.size(); ++i) {
      html += "<div>input " + std::to_string(i) + ": <code>" +
              Escape(result.inputs[i]) + "</code></div>\n";
    }
    html += MismatchTable(result) + "</div>\n";
  }
  if (count == 0) return "<h2>Every case passed</h2>\n";
  return "<h2>Cases that did not pass (" + std::to_string(count) + ")</h2>\n" +
         html;
}

// The ten slowest results: where a run's minutes go.
std::string SlowestCases(const Report& report) {
  std::vector<const CaseResult*> results;
  for (const CaseResult& result : report.results) results.push_back(&result);
  const std::size_t count = std::min<std::size_t>(10, results.size());
  std::partial_sort(
      results.begin(), results.begin() + static_cast<std::ptrdiff_t>(count),
      results.end(), [](const CaseResult* a, const CaseResult* b) {
        return a->seconds > b->seconds;
      });
  std::string html =
      "<details><summary>Slowest cases</summary><table>"
      "<tr><th>case</th><th>device</th><th>seconds</th></tr>\n";
  for (std::size_t i = 0; i < count; ++i) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.3f", results[i]->seconds);
    html += "<tr><td class=\"op\">" + Escape(results[i]->id) + "</td><td>" +
            std::to_string(results[i]->device) + "</td><td>" + seconds +
            "</td></tr>\n";
  }
  return html + "</table></details>\n";
}

}  // namespace

std::string ReportToHtml(const Report& report) {
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Polyhal "
      "conformance report</title><style>" +
      std::string(kStyle) + "</style></head><body>\n" + Summary(report);
  for (const TierVerdict& tier : report.verdict.tiers) {
    html += Matrix(report, tier.tier);
  }
  html += Matrix(report, kCorpusTier);
  html += Failures(report);
  html += SlowestCases(report);
  return html + "</body></html>\n";
}

}  // namespace phal::conformance
