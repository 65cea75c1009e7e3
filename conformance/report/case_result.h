// What running one case on one device produced, as the runner records it
// and the reports print it.
#ifndef POLYHAL_CONFORMANCE_REPORT_CASE_RESULT_H_
#define POLYHAL_CONFORMANCE_REPORT_CASE_RESULT_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/runner/tolerance.h"

namespace phal::conformance {

enum class CaseStatus {
  kPass,          // within the bound (API cases: the behaviour held)
  kFail,          // a wrong result, an error status, a broken API promise
  kNotSupported,  // the device said it cannot run the case
  kCrash,         // the case's process died (only seen with --isolate)
  kTimeout,       // the case ran longer than --timeout
};

// "Pass", "Fail", "NotSupported", "Crash", "Timeout".
const char* CaseStatusName(CaseStatus status);
bool ParseCaseStatus(const std::string& name, CaseStatus* out);

struct CaseResult {
  std::string id;
  std::string op;
  std::string dtype;
  int tier = 1;
  std::string kind;  // "numeric", "api", "corpus"
  int device = 0;    // index among the plugin's devices
  CaseStatus status = CaseStatus::kPass;
  // NotSupported because the device lacks an element type the case uses
  // (certifiable), rather than a kernel kind or op (not certifiable).
  bool dtype_unsupported = false;
  // NotSupported because the plugin offers fewer devices than a case of
  // several devices needs (certifiable).
  bool devices_unsupported = false;
  std::string message;  // why it did not pass; "" when it passed
  std::string bound;    // the tolerance, e.g. "4 ulp"; "" for API cases
  double error = 0;     // the worst error seen, in the bound's unit
  double seconds = 0;
  // Each parameter: its shape and first values, "f32[7,13] {1, -0.5, ...}".
  std::vector<std::string> inputs;
  std::vector<ElementMismatch> worst;  // failing elements, worst first
};

nlohmann::json CaseResultToJson(const CaseResult& result);
CaseResult CaseResultFromJson(const nlohmann::json& json);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_REPORT_CASE_RESULT_H_
