#include "conformance/runner/runner.h"

#include <fnmatch.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "conformance/runner/case_execution.h"
#include "conformance/runner/child_process.h"

namespace phal::conformance {
namespace {

using Clock = std::chrono::steady_clock;

struct Task {
  const Case* c;
  int device;
};

std::vector<Task> MakeTasks(const std::vector<const Case*>& cases,
                            std::size_t device_count) {
  std::vector<Task> tasks;
  for (const Case* c : cases) {
    for (std::size_t d = 0; d < device_count; ++d) {
      tasks.push_back({c, static_cast<int>(d)});
    }
  }
  return tasks;
}

// Runs the tasks on `jobs` threads sharing one client.
std::vector<CaseResult> RunInProcess(const std::vector<Task>& tasks,
                                     const Target& target,
                                     const RunnerOptions& options) {
  std::vector<CaseResult> results(tasks.size());
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::size_t done = 0;
  auto run = [&](std::size_t i) {
    CaseResult result = RunCase(*tasks[i].c, target, tasks[i].device);
    std::lock_guard<std::mutex> lock(mutex);
    results[i] = std::move(result);
    ++done;
    if (options.on_result) options.on_result(results[i], done, tasks.size());
  };
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].c->exclusive) run(i);
  }
  auto worker = [&] {
    for (std::size_t i = next++; i < tasks.size(); i = next++) {
      if (!tasks[i].c->exclusive) run(i);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < options.jobs; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& thread : threads) thread.join();
  return results;
}

CaseResult FromOutcome(const Task& task, ChildOutcome outcome) {
  if (outcome.kind == ChildOutcome::Kind::kCompleted) {
    nlohmann::json json = nlohmann::json::parse(outcome.output, nullptr, false);
    if (!json.is_discarded()) return CaseResultFromJson(json);
    outcome.kind = ChildOutcome::Kind::kCrashed;
    outcome.detail = "wrote an unreadable result";
  }
  CaseResult result = PendingResult(*task.c, task.device);
  result.seconds = outcome.seconds;
  if (outcome.kind == ChildOutcome::Kind::kTimedOut) {
    result.status = CaseStatus::kTimeout;
    result.message = "still running after " +
                     std::to_string(static_cast<int>(outcome.seconds)) +
                     " s; killed";
  } else {
    result.status = CaseStatus::kCrash;
    result.message = "the case's process " + outcome.detail;
  }
  return result;
}

// Opens the target in a child, so the parent never loads the plugin.
StatusOr<nlohmann::json> ProbeTarget(const RunnerOptions& options) {
  StatusOr<nlohmann::json> probed = Internal("the probe did not run");
  RunInChildren(
      1, 1, options.timeout_seconds,
      [&](std::size_t) {
        StatusOr<std::unique_ptr<Target>> target = Target::Open(options.plugin);
        if (!target.ok()) {
          return nlohmann::json{{"error", target.status().ToString()}}.dump();
        }
        return nlohmann::json{{"target", (*target)->description()}}.dump();
      },
      [&](std::size_t, ChildOutcome outcome) {
        if (outcome.kind != ChildOutcome::Kind::kCompleted) {
          probed =
              Internal("opening the plugin " +
                       std::string(outcome.kind == ChildOutcome::Kind::kTimedOut
                                       ? "timed out"
                                       : outcome.detail));
          return;
        }
        nlohmann::json json = nlohmann::json::parse(outcome.output);
        if (json.contains("error")) {
          probed = Internal(json["error"].get<std::string>());
        } else {
          probed = json["target"];
        }
      });
  return probed;
}

StatusOr<RunResults> RunIsolated(const std::vector<const Case*>& cases,
                                 const RunnerOptions& options) {
  PHAL_ASSIGN_OR_RETURN(nlohmann::json description, ProbeTarget(options));
  const std::vector<Task> tasks =
      MakeTasks(cases, description["devices"].size());
  RunResults run;
  run.target = description;
  run.results.resize(tasks.size());
  std::size_t done = 0;
  RunInChildren(
      tasks.size(), options.jobs, options.timeout_seconds,
      [&](std::size_t i) {
        StatusOr<std::unique_ptr<Target>> target = Target::Open(options.plugin);
        CaseResult result = PendingResult(*tasks[i].c, tasks[i].device);
        if (!target.ok()) {
          result.status = CaseStatus::kFail;
          result.message =
              "cannot open the plugin: " + target.status().ToString();
        } else {
          result = RunCase(*tasks[i].c, **target, tasks[i].device);
          const auto shutdown_start = Clock::now();
          target->reset();
          result.seconds +=
              std::chrono::duration<double>(Clock::now() - shutdown_start)
                  .count();
        }
        return CaseResultToJson(result).dump();
      },
      [&](std::size_t i, ChildOutcome outcome) {
        run.results[i] = FromOutcome(tasks[i], std::move(outcome));
        ++done;
        if (options.on_result) {
          options.on_result(run.results[i], done, tasks.size());
        }
      });
  return run;
}

}  // namespace

std::vector<const Case*> SelectCases(const std::vector<Case>& cases, int tier,
                                     const std::vector<std::string>& filters) {
  std::vector<const Case*> selected;
  for (const Case& c : cases) {
    if (c.tier > tier) continue;
    bool matches = filters.empty();
    for (const std::string& filter : filters) {
      matches = matches || fnmatch(filter.c_str(), c.id.c_str(), 0) == 0;
    }
    if (matches) selected.push_back(&c);
  }
  return selected;
}

StatusOr<RunResults> RunCases(const std::vector<const Case*>& cases,
                              const RunnerOptions& options) {
  const auto start = Clock::now();
  RunResults run;
  if (options.isolate) {
    PHAL_ASSIGN_OR_RETURN(run, RunIsolated(cases, options));
  } else {
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Target> target,
                          Target::Open(options.plugin));
    run.target = target->description();
    run.results = RunInProcess(MakeTasks(cases, target->devices().size()),
                               *target, options);
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

}  // namespace phal::conformance
