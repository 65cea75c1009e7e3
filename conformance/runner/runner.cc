#include "conformance/runner/runner.h"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
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

// One task per case and device: a case of one device runs on each device,
// a case of several devices once, from the first.
std::vector<Task> MakeTasks(const std::vector<const Case*>& cases,
                            std::size_t device_count) {
  std::vector<Task> tasks;
  for (const Case* c : cases) {
    const std::size_t runs =
        c->devices > 0 ? std::min<std::size_t>(device_count, 1) : device_count;
    for (std::size_t d = 0; d < runs; ++d) {
      tasks.push_back({c, static_cast<int>(d)});
    }
  }
  return tasks;
}

// State the in-process workers share. It lives on the heap and the
// workers hold it, because a worker stuck in a hanging plugin outlives the
// run that gave up on it.
struct InProcessRun {
  static constexpr std::size_t kIdle = ~std::size_t{0};
  struct Slot {
    std::size_t task = kIdle;
    Clock::time_point start;
    bool exited = false;
  };
  std::vector<Task> tasks;
  std::vector<std::optional<CaseResult>> results;
  std::vector<Slot> slots;
  std::mutex mutex;
  std::size_t next = 0;
  std::size_t done = 0;
  bool stop = false;
};

void Work(const std::shared_ptr<InProcessRun>& run, std::size_t slot,
          const std::vector<std::size_t>& order, const Target& target,
          const RunnerOptions& options) {
  for (;;) {
    std::size_t i = 0;
    {
      std::lock_guard<std::mutex> lock(run->mutex);
      if (run->stop || run->next >= order.size()) {
        run->slots[slot].exited = true;
        return;
      }
      i = order[run->next++];
      run->slots[slot].task = i;
      run->slots[slot].start = Clock::now();
    }
    CaseResult result = RunCase(*run->tasks[i].c, target, run->tasks[i].device);
    std::lock_guard<std::mutex> lock(run->mutex);
    run->slots[slot].task = InProcessRun::kIdle;
    if (run->results[i].has_value()) continue;  // already judged a Timeout
    run->results[i] = std::move(result);
    ++run->done;
    if (options.on_result) {
      options.on_result(*run->results[i], run->done, run->tasks.size());
    }
  }
}

// Runs `order` on `jobs` threads and watches them: a case running longer
// than the timeout becomes a Timeout, no further case starts, and threads
// stuck in the plugin are abandoned. Returns false when that happened.
bool RunPhase(const std::shared_ptr<InProcessRun>& run,
              std::vector<std::size_t> order, int jobs, const Target& target,
              const RunnerOptions& options) {
  {
    std::lock_guard<std::mutex> lock(run->mutex);
    run->next = 0;
    run->slots.assign(static_cast<std::size_t>(jobs), {});
  }
  auto shared_order =
      std::make_shared<std::vector<std::size_t>>(std::move(order));
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) {
    threads.emplace_back([run, shared_order, j, &target, &options] {
      Work(run, static_cast<std::size_t>(j), *shared_order, target, options);
    });
  }
  const auto timeout = std::chrono::duration<double>(options.timeout_seconds);
  bool abandoned = false;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::lock_guard<std::mutex> lock(run->mutex);
    bool all_settled = true;
    for (InProcessRun::Slot& slot : run->slots) {
      if (slot.exited) continue;
      if (slot.task != InProcessRun::kIdle &&
          Clock::now() - slot.start > timeout &&
          !run->results[slot.task].has_value()) {
        CaseResult result = PendingResult(*run->tasks[slot.task].c,
                                          run->tasks[slot.task].device);
        result.status = CaseStatus::kTimeout;
        result.seconds =
            std::chrono::duration<double>(Clock::now() - slot.start).count();
        result.message =
            "still running after " +
            std::to_string(static_cast<int>(options.timeout_seconds)) +
            " s; the run stops here (use --isolate to go on past it)";
        run->results[slot.task] = std::move(result);
        ++run->done;
        if (options.on_result) {
          options.on_result(*run->results[slot.task], run->done,
                            run->tasks.size());
        }
        run->stop = true;
        abandoned = true;
      }
      const bool stuck = slot.task != InProcessRun::kIdle &&
                         run->results[slot.task].has_value();
      all_settled = all_settled && stuck;
    }
    if (all_settled) break;
  }
  for (std::size_t j = 0; j < threads.size(); ++j) {
    std::lock_guard<std::mutex> lock(run->mutex);
    if (run->slots[j].exited) {
      threads[j].join();
    } else {
      threads[j].detach();
    }
  }
  return !abandoned;
}

// Runs the tasks in this process: exclusive cases alone first, then the
// rest on `jobs` threads sharing one client.
RunResults RunInProcess(const std::vector<Task>& tasks, const Target& target,
                        const RunnerOptions& options) {
  auto run = std::make_shared<InProcessRun>();
  run->tasks = tasks;
  run->results.resize(tasks.size());
  std::vector<std::size_t> exclusive;
  std::vector<std::size_t> shared;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    (tasks[i].c->exclusive ? exclusive : shared).push_back(i);
  }
  RunResults results;
  results.abandoned = !RunPhase(run, exclusive, 1, target, options) ||
                      !RunPhase(run, shared, options.jobs, target, options);
  std::lock_guard<std::mutex> lock(run->mutex);
  for (std::optional<CaseResult>& result : run->results) {
    if (result.has_value()) {
      results.results.push_back(*result);
    } else {
      ++results.not_run;
    }
  }
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

// Runs `cases` on a target opened now, isolated or in process.
StatusOr<RunResults> RunPass(const std::vector<const Case*>& cases,
                             const RunnerOptions& options) {
  if (cases.empty()) return RunResults();
  if (options.isolate) return RunIsolated(cases, options);
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Target> target,
                        Target::Open(options.plugin));
  RunResults run = RunInProcess(MakeTasks(cases, target->devices().size()),
                                *target, options);
  run.target = target->description();
  // Threads stuck in the plugin still use the client: it must outlive
  // this run, so it is left to the process's exit.
  if (run.abandoned) static_cast<void>(target.release());
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
  if (options.validate) setenv("PHAL_VALIDATION", "1", 1);
  // Cases of several devices run in a pass of their own where a plugin
  // that can offer virtual devices offers kVirtualDevices of them, unless
  // the environment chose a number; the other cases run as the plugin is.
  std::vector<const Case*> single;
  std::vector<const Case*> several;
  for (const Case* c : cases) (c->devices > 0 ? several : single).push_back(c);
  RunResults run;
  if (several.empty() || std::getenv("PHAL_VIRTUAL_DEVICES") != nullptr) {
    PHAL_ASSIGN_OR_RETURN(run, RunPass(cases, options));
  } else {
    PHAL_ASSIGN_OR_RETURN(run, RunPass(single, options));
    if (run.abandoned) {
      run.not_run += several.size();
    } else {
      setenv("PHAL_VIRTUAL_DEVICES", std::to_string(kVirtualDevices).c_str(),
             1);
      StatusOr<RunResults> pass = RunPass(several, options);
      unsetenv("PHAL_VIRTUAL_DEVICES");
      PHAL_RETURN_IF_ERROR(pass.status());
      if (single.empty()) run.target = pass->target;
      run.results.insert(run.results.end(),
                         std::make_move_iterator(pass->results.begin()),
                         std::make_move_iterator(pass->results.end()));
      run.abandoned = pass->abandoned;
      run.not_run += pass->not_run;
    }
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

}  // namespace phal::conformance
