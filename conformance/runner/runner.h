// The conformance runner: selects cases, runs each on every device of the
// plugin under test (in this process on `jobs` threads, or in child
// processes with --isolate) and collects the results.
#ifndef POLYHAL_CONFORMANCE_RUNNER_RUNNER_H_
#define POLYHAL_CONFORMANCE_RUNNER_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/cases/case.h"
#include "conformance/report/case_result.h"
#include "conformance/runner/target.h"
#include "sdk/base/status.h"

namespace phal::conformance {

// The devices a plugin that can offer virtual devices
// (PHAL_VIRTUAL_DEVICES) is asked for when a run holds cases of several
// devices and the environment does not set the variable.
inline constexpr int kVirtualDevices = 8;

struct RunnerOptions {
  PluginLocation plugin;
  int jobs = 1;
  bool isolate = false;
  // Runs with the validation layer on (PHAL_VALIDATION=1, set for this
  // process and the children it starts): a call breaking the ABI contract
  // fails its case with a status naming the rule.
  bool validate = false;
  // A case running longer is a Timeout (a child killed with --isolate; in
  // process, the run stops there).
  double timeout_seconds = 120;
  // Called after each result, from the thread that runs the runner.
  std::function<void(const CaseResult&, std::size_t done, std::size_t total)>
      on_result;
};

struct RunResults {
  nlohmann::json target;  // Target::description()
  std::vector<CaseResult> results;
  double seconds = 0;
  // Without --isolate, a case that outlives the timeout stops the run: it
  // is a Timeout, later cases are not run (counted here), and the threads
  // stuck in the plugin are abandoned, so the process must end without
  // unloading the plugin (std::_Exit once the report is written).
  bool abandoned = false;
  std::size_t not_run = 0;
};

// Cases of tier <= `tier` whose id matches one of `filters` (shell globs,
// any of them; every case when empty), in corpus order.
std::vector<const Case*> SelectCases(const std::vector<Case>& cases, int tier,
                                     const std::vector<std::string>& filters);

// Runs every case on every device of the plugin. Fails only when the plugin
// cannot be opened at all; everything a case does is in its result.
StatusOr<RunResults> RunCases(const std::vector<const Case*>& cases,
                              const RunnerOptions& options);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_RUNNER_H_
