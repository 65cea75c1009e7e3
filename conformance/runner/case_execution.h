// Runs one case on one device in the calling process and classifies the
// outcome (Pass, Fail or NotSupported; Crash and Timeout are only seen by
// the isolating runner from outside).
#ifndef POLYHAL_CONFORMANCE_RUNNER_CASE_EXECUTION_H_
#define POLYHAL_CONFORMANCE_RUNNER_CASE_EXECUTION_H_

#include "conformance/cases/case.h"
#include "conformance/report/case_result.h"
#include "conformance/runner/target.h"

namespace phal::conformance {

// A result carrying the case's identity, before it ran.
CaseResult PendingResult(const Case& c, int device_index);

CaseResult RunCase(const Case& c, const Target& target, int device_index);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_CASE_EXECUTION_H_
