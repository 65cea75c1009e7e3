// `polyhal stress`: load and soak. Several threads share one client and, for
// a given time, compile and execute many modules on every device chosen,
// each result checked against the reference interpreter under the
// conformance suite's tolerance policy, while the process's resident memory
// is sampled every second. The run fails on any mismatch or error, on
// memory that grows after the warm-up beyond a stated tolerance, and on
// objects still alive when the client is destroyed (docs/reliability.md,
// "Load and soak").
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "cli/plugin_program.h"
#include "cli/stress/clock.h"
#include "cli/stress/devices.h"
#include "cli/stress/judge.h"
#include "cli/stress/log_watch.h"
#include "cli/stress/memory_sampler.h"
#include "cli/stress/modules.h"
#include "cli/stress/options.h"
#include "cli/stress/preparation.h"
#include "cli/stress/report.h"
#include "cli/stress/tally.h"
#include "cli/stress/worker.h"

namespace phal::cli {
namespace stress {
namespace {

// Prints a progress line every `every` seconds until the deadline.
void ReportProgress(const Tally& tally, Clock::time_point start,
                    Clock::time_point deadline, double every,
                    std::atomic<bool>& stop, bool quiet) {
  double next = every;
  while (!stop.load() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double elapsed = SecondsSince(start);
    if (elapsed < next) continue;
    next += every;
    if (quiet) continue;
    const HeapFigures heap = Heap();
    std::fprintf(stderr,
                 "  %6.0f s  executions %lld  compiles %lld  mismatches %lld  "
                 "errors %lld  rss %.1f MiB  heap %.1f MiB in use, %.1f "
                 "held\n",
                 elapsed, static_cast<long long>(tally.executions()),
                 static_cast<long long>(tally.compiles()),
                 static_cast<long long>(tally.mismatches()),
                 static_cast<long long>(tally.errors()), Mib(ResidentBytes()),
                 Mib(heap.in_use), Mib(heap.held));
  }
}

Status Stress(const StressOptions& options, StressReport& report) {
  PHAL_ASSIGN_OR_RETURN(std::vector<StressModule> modules,
                        LoadModules(options));
  report.modules = modules.size();
  LogWatch watch;
  phal_client_options_t client_options{};
  client_options.struct_size = sizeof(client_options);
  client_options.log_callback = &LogWatch::Callback;
  client_options.log_user_data = &watch;
  {
    Result<Client> client = Client::Create(&client_options);
    PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
    PHAL_ASSIGN_OR_RETURN(std::vector<StressDevice> devices,
                          ChooseDevices(*client, options));
    for (const StressDevice& device : devices) {
      report.devices.push_back(device.label);
    }
    if (!options.json) {
      std::fprintf(stderr,
                   "polyhal stress: %zu modules on %zu devices, %lld threads, "
                   "%g s (warm-up %g s)\n",
                   modules.size(), devices.size(),
                   static_cast<long long>(options.threads), options.duration_s,
                   options.Warmup());
    }
    const Clock::time_point prepare = Clock::now();
    PHAL_RETURN_IF_ERROR(ComputeExpected(modules, options));
    PHAL_ASSIGN_OR_RETURN(std::vector<CompiledPair> pairs,
                          CompileAll(modules, devices, options, report));
    report.prepare_s = SecondsSince(prepare);
    if (!options.json) {
      std::fprintf(stderr,
                   "prepared in %.1f s: %zu executables, %zu expected "
                   "results, %zu refusals\n",
                   report.prepare_s, pairs.size(),
                   modules.size() * static_cast<size_t>(options.input_sets),
                   report.unsupported.size());
    }
    Tally tally(devices.size());
    MemorySampler sampler;
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline =
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(options.duration_s));
    std::atomic<bool> stop{false};
    std::thread progress([&] {
      ReportProgress(tally, start, deadline, options.duration_s > 120 ? 60 : 10,
                     stop, options.json);
    });
    std::vector<std::thread> threads;
    for (int64_t t = 0; t < options.threads; ++t) {
      threads.emplace_back([&, t] {
        StressThread(t, modules, devices, pairs, options, deadline, tally);
      });
    }
    for (std::thread& thread : threads) thread.join();
    stop = true;
    progress.join();
    sampler.Stop();
    report.run_s = SecondsSince(start);
    report.rss_mib = sampler.samples();
    report.heap_in_use_mib = sampler.heap_in_use();
    report.heap_held_mib = sampler.heap_held();
    report.executions = tally.executions();
    for (size_t d = 0; d < devices.size(); ++d) {
      report.executions_by_device.push_back(tally.executions(d));
    }
    report.compiles = tally.compiles();
    report.mismatches = tally.mismatches();
    report.errors = tally.errors();
    report.failures = tally.failures();
  }
  // The client is destroyed here: the validation layer reports leaks.
  report.log_errors = watch.errors();
  report.leaks = watch.leaks();
  for (const std::string& message : watch.messages()) {
    if (report.failures.size() < kReportedFailures) {
      report.failures.push_back(message);
    }
  }
  Judge(options, report);
  return OkStatus();
}

}  // namespace
}  // namespace stress

int RunStress(const Arguments& arguments) {
  ArgumentReader reader("stress", arguments);
  stress::StressOptions options;
  const int parsed = stress::ParseStressOptions(reader, &options);
  if (parsed != kExitSuccess) return parsed;
  // The layer is chosen when the client is created, from the environment.
  if (options.validate) setenv("PHAL_VALIDATION", "1", 1);
  stress::StressReport report;
  Status status = stress::Stress(options, report);
  if (!status.ok()) {
    std::fprintf(stderr, "polyhal stress: %s\n", status.message().c_str());
    return kExitFailure;
  }
  if (options.json) {
    stress::PrintJson(options, report);
  } else {
    stress::PrintText(options, report);
  }
  return report.verdicts.empty() ? kExitSuccess : kExitFailure;
}

}  // namespace phal::cli
