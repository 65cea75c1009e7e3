#include "cli/stress/preparation.h"

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "conformance/runner/module_types.h"
#include "core/reference/interpreter.h"

namespace phal::cli::stress {
namespace {

// Calls `work(i)` for i in [0, count) on `threads` threads.
template <typename Work>
void ParallelFor(size_t count, int64_t threads, const Work& work) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
        work(i);
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
}

}  // namespace

Status ComputeExpected(std::vector<StressModule>& modules,
                       const StressOptions& options) {
  for (StressModule& module : modules) {
    module.arguments.resize(static_cast<size_t>(options.input_sets));
    module.expected.resize(static_cast<size_t>(options.input_sets));
  }
  const size_t sets = static_cast<size_t>(options.input_sets);
  std::mutex mutex;
  Status first = OkStatus();
  ParallelFor(modules.size() * sets, options.threads, [&](size_t i) {
    StressModule& module = modules[i / sets];
    const int64_t set = static_cast<int64_t>(i % sets);
    module.arguments[i % sets] = MakeArguments(module, options.seed, set);
    StatusOr<Literal> result =
        Evaluate(*module.module, module.arguments[i % sets]);
    if (!result.ok()) {
      std::lock_guard lock(mutex);
      if (first.ok()) {
        first =
            Status(result.status().code(),
                   module.name + ": the reference cannot run input set " +
                       std::to_string(set) + ": " + result.status().message());
      }
      return;
    }
    module.expected[i % sets] = std::move(*result);
  });
  return first;
}

StatusOr<std::vector<CompiledPair>> CompileAll(
    const std::vector<StressModule>& modules,
    const std::vector<StressDevice>& devices, const StressOptions& options,
    StressReport& report) {
  std::vector<CompiledPair> pairs(modules.size() * devices.size());
  std::vector<std::string> refusals(pairs.size());
  std::mutex mutex;
  Status first = OkStatus();
  ParallelFor(pairs.size(), options.threads, [&](size_t i) {
    const StressModule& module = modules[i / devices.size()];
    const StressDevice& device = devices[i % devices.size()];
    pairs[i].module = i / devices.size();
    pairs[i].device = i % devices.size();
    const std::string missing = conformance::MissingTypes(
        conformance::ModuleTypes(*module.module), device.element_types);
    if (!missing.empty()) {
      refusals[i] = module.name + " on " + device.label +
                    ": the device lacks element types [" + missing + "]";
      return;
    }
    StatusOr<PluginProgram> program = PluginProgram::Compile(
        device.device, module.text, module.format, module.name);
    if (program.ok()) {
      pairs[i].program = std::make_shared<PluginProgram>(std::move(*program));
      return;
    }
    if (program.status().code() == PHAL_UNIMPLEMENTED) {
      refusals[i] = module.name + " on " + device.label + ": " +
                    program.status().message();
      return;
    }
    std::lock_guard lock(mutex);
    if (first.ok()) {
      first = Status(program.status().code(),
                     module.name + " on " + device.label +
                         ": compile: " + program.status().message());
    }
  });
  PHAL_RETURN_IF_ERROR(first);
  for (const std::string& refusal : refusals) {
    if (!refusal.empty()) report.unsupported.push_back(refusal);
  }
  std::vector<CompiledPair> compiled;
  for (CompiledPair& pair : pairs) {
    if (pair.program != nullptr) compiled.push_back(std::move(pair));
  }
  if (compiled.empty()) {
    return FailedPrecondition(
        "no module runs on any chosen device (each refusal is listed "
        "above)");
  }
  return compiled;
}

}  // namespace phal::cli::stress
