// Certification: a plugin is certified at tier T when every case of tiers
// 1..T passed on every device, or is NotSupported because the device lacks
// an element type the case uses, and at least one case passed. Files of a
// --corpus directory (tier 0) are judged apart: all must pass, or fail on
// the reference too.
#ifndef POLYHAL_CONFORMANCE_REPORT_VERDICT_H_
#define POLYHAL_CONFORMANCE_REPORT_VERDICT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/report/case_result.h"

namespace phal::conformance {

// The tier of StableHLO corpus files, outside the certification tiers.
inline constexpr int kCorpusTier = 0;

struct StatusCounts {
  int64_t pass = 0;
  int64_t fail = 0;
  int64_t not_supported = 0;
  int64_t crash = 0;
  int64_t timeout = 0;
  // NotSupported for a kernel kind or op rather than an element type.
  int64_t not_supported_uncertifiable = 0;

  void Add(const CaseResult& result);
  int64_t Total() const {
    return pass + fail + not_supported + crash + timeout;
  }
  int64_t Broken() const { return fail + crash + timeout; }
};

struct TierVerdict {
  int tier = 1;
  StatusCounts counts;
  bool certified = false;
};

struct Verdict {
  int requested_tier = 3;
  std::vector<TierVerdict> tiers;  // 1..requested_tier
  StatusCounts corpus;             // --corpus files
  StatusCounts all;
  // At requested_tier, and the corpus passed; for a run of corpus files
  // only, that they passed.
  bool certified = false;
  std::string summary;  // one sentence
};

Verdict Judge(const std::vector<CaseResult>& results, int requested_tier);

// "N passed, N failed, N skipped": failed counts Fail, Crash and Timeout;
// skipped counts NotSupported.
std::string ClosingLine(const StatusCounts& counts);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_REPORT_VERDICT_H_
