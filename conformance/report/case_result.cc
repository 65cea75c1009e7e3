#include "conformance/report/case_result.h"

#include <cmath>

namespace phal::conformance {
namespace {

constexpr const char* kStatusNames[] = {"Pass", "Fail", "NotSupported", "Crash",
                                        "Timeout"};

// JSON has no infinity: an infinite error is written as null.
nlohmann::json NumberOrNull(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

}  // namespace

const char* CaseStatusName(CaseStatus status) {
  return kStatusNames[static_cast<int>(status)];
}

bool ParseCaseStatus(const std::string& name, CaseStatus* out) {
  for (int i = 0; i < 5; ++i) {
    if (name == kStatusNames[i]) {
      *out = static_cast<CaseStatus>(i);
      return true;
    }
  }
  return false;
}

nlohmann::json CaseResultToJson(const CaseResult& result) {
  nlohmann::json worst = nlohmann::json::array();
  for (const ElementMismatch& m : result.worst) {
    worst.push_back({{"output", m.output},
                     {"index", m.index},
                     {"position", m.position},
                     {"expected", m.expected},
                     {"actual", m.actual},
                     {"error", m.error},
                     {"inputs", m.inputs}});
  }
  return {{"id", result.id},
          {"op", result.op},
          {"dtype", result.dtype},
          {"tier", result.tier},
          {"kind", result.kind},
          {"device", result.device},
          {"status", CaseStatusName(result.status)},
          {"dtype_unsupported", result.dtype_unsupported},
          {"devices_unsupported", result.devices_unsupported},
          {"message", result.message},
          {"bound", result.bound},
          {"error", NumberOrNull(result.error)},
          {"seconds", result.seconds},
          {"inputs", result.inputs},
          {"worst", worst}};
}

CaseResult CaseResultFromJson(const nlohmann::json& json) {
  CaseResult result;
  result.id = json.value("id", "");
  result.op = json.value("op", "");
  result.dtype = json.value("dtype", "");
  result.tier = json.value("tier", 1);
  result.kind = json.value("kind", "");
  result.device = json.value("device", 0);
  if (!ParseCaseStatus(json.value("status", ""), &result.status)) {
    result.status = CaseStatus::kFail;
  }
  result.dtype_unsupported = json.value("dtype_unsupported", false);
  result.devices_unsupported = json.value("devices_unsupported", false);
  result.message = json.value("message", "");
  result.bound = json.value("bound", "");
  const nlohmann::json& error =
      json.contains("error") ? json["error"] : nlohmann::json();
  result.error = error.is_number() ? error.get<double>() : INFINITY;
  result.seconds = json.value("seconds", 0.0);
  result.inputs = json.value("inputs", std::vector<std::string>());
  for (const nlohmann::json& m : json.value("worst", nlohmann::json::array())) {
    ElementMismatch mismatch;
    mismatch.output = m.value("output", int64_t{0});
    mismatch.index = m.value("index", int64_t{0});
    mismatch.position = m.value("position", "");
    mismatch.expected = m.value("expected", "");
    mismatch.actual = m.value("actual", "");
    mismatch.error = m.value("error", "");
    mismatch.inputs = m.value("inputs", std::vector<std::string>());
    result.worst.push_back(std::move(mismatch));
  }
  return result;
}

}  // namespace phal::conformance
