#include "cli/stress/worker.h"

#include <random>
#include <string>

#include "cli/run_support.h"
#include "conformance/runner/tolerance.h"

namespace phal::cli::stress {
namespace {

std::string Describe(const StressModule& module, const StressDevice& device,
                     int64_t set) {
  return module.name + " on " + device.label + " (input set " +
         std::to_string(set) + ")";
}

// Runs `program` on input set `set` and compares with the reference.
void ExecuteAndCheck(PluginProgram& program, const StressModule& module,
                     const StressDevice& device, size_t device_index,
                     int64_t set, Tally& tally) {
  const size_t s = static_cast<size_t>(set);
  StatusOr<std::vector<Buffer>> inputs = program.Upload(module.arguments[s]);
  if (!inputs.ok()) {
    tally.Error(Describe(module, device, set) +
                ": upload: " + inputs.status().ToString());
    return;
  }
  StatusOr<std::vector<Buffer>> results = program.Execute(*inputs);
  if (!results.ok()) {
    tally.Error(Describe(module, device, set) +
                ": execute: " + results.status().ToString());
    return;
  }
  StatusOr<Literal> downloaded = program.Download(*results);
  if (!downloaded.ok()) {
    tally.Error(Describe(module, device, set) +
                ": download: " + downloaded.status().ToString());
    return;
  }
  tally.Execution(device_index);
  conformance::Comparison comparison =
      conformance::CompareResults(FlattenLeaves(module.expected[s]),
                                  FlattenLeaves(*downloaded), module.tolerance);
  if (comparison.passed) return;
  std::string what = Describe(module, device, set) + ": ";
  if (!comparison.message.empty()) {
    what += comparison.message;
  } else {
    what += "result differs from the reference beyond " + comparison.bound;
    if (!comparison.worst.empty()) {
      const conformance::ElementMismatch& worst = comparison.worst.front();
      what += "; output " + std::to_string(worst.output) + " at " +
              worst.position + ": expected " + worst.expected + ", got " +
              worst.actual + " (" + worst.error + ")";
    }
  }
  tally.Mismatch(what);
}

}  // namespace

void StressThread(int64_t thread, const std::vector<StressModule>& modules,
                  const std::vector<StressDevice>& devices,
                  const std::vector<CompiledPair>& pairs,
                  const StressOptions& options, Clock::time_point deadline,
                  Tally& tally) {
  std::mt19937_64 random(options.seed * 1000003 +
                         static_cast<uint64_t>(thread));
  while (Clock::now() < deadline) {
    const CompiledPair& pair = pairs[random() % pairs.size()];
    const StressModule& module = modules[pair.module];
    const StressDevice& device = devices[pair.device];
    const int64_t set = static_cast<int64_t>(
        random() % static_cast<uint64_t>(options.input_sets));
    if (random() % static_cast<uint64_t>(options.compile_every) != 0) {
      ExecuteAndCheck(*pair.program, module, device, pair.device, set, tally);
      continue;
    }
    StatusOr<PluginProgram> fresh = PluginProgram::Compile(
        device.device, module.text, module.format, module.name);
    if (!fresh.ok()) {
      tally.Error(module.name + " on " + device.label +
                  ": compile: " + fresh.status().ToString());
      continue;
    }
    tally.Compile();
    ExecuteAndCheck(*fresh, module, device, pair.device, set, tally);
  }
}

}  // namespace phal::cli::stress
