// `polyhal stress`: load and soak. Several threads share one client and, for
// a given time, compile and execute many modules on every device chosen,
// each result checked against the reference interpreter under the
// conformance suite's tolerance policy, while the process's resident memory
// is sampled every second. The run fails on any mismatch or error, on
// memory that grows after the warm-up beyond a stated tolerance, and on
// objects still alive when the client is destroyed (docs/reliability.md,
// "Load and soak").
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "cli/sanitizer_build.h"
#include "conformance/cases/corpus.h"
#include "conformance/runner/module_types.h"
#include "conformance/runner/runner.h"
#include "conformance/runner/tolerance.h"
#include "core/frontend/hlo_parser.h"
#include "core/reference/interpreter.h"

namespace phal::cli {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// The built-in modules: conformance cases chosen to cover every kernel
// kind and the executor's control flow, each small enough to run many
// times a second.
constexpr const char* kDefaultCases[] = {
    "add.f32.odd.random",
    "add.s32.broadcast.random",
    "exponential.f32.large.random",
    "tanh.f32.npot.random",
    "reduce.add.f32.large.random",
    "reduce.argmax.f32.odd.random",
    "reduce-window.maxpool.f32.npot.random",
    "dot.f32.odd.random",
    "dot.f32.batch.random",
    "convolution.same.f32.npot.random",
    "convolution.strided.f32.npot.random",
    "gather.rows.f32.odd.random",
    "gather.random_indices.f32.large.random",
    "scatter.add_duplicates.f32.odd.random",
    "dynamic-update-slice.f32.odd.random",
    "sort.key_value.f32.odd.random",
    "sort.s32.odd.random",
    "topk.largest.f32.npot.random",
    "while.counted.f32.1d.random",
    "while.data_dependent.f32.1d.random",
    "conditional.index.f32.1d.random",
    "model.mlp",
    "model.transformer_block",
    "model.convnet",
    "model.while_loop",
    "model.sort_gather",
    "model.tuple_outputs",
};

// How many seeds each module's inputs are drawn from; the reference's
// results for each are computed once, before the timed run.
constexpr int64_t kDefaultInputSets = 4;
// One iteration in this many compiles the module afresh (and frees it)
// instead of running the executable compiled before the run.
constexpr int64_t kDefaultCompileEvery = 8;
// Growth of memory in use (StressReport::in_use_mib) allowed after the
// warm-up. Under AddressSanitizer or ThreadSanitizer freed memory waits in a
// quarantine (ASan's holds up to 256 MiB) before it is reused, so resident
// memory climbs for minutes without a leak; the sanitizer finds leaks
// itself there, so the default check is widened to what only a leak could
// pass.
#if PHAL_SANITIZER_BUILD
constexpr double kDefaultRssToleranceMib = 1024;
#else
constexpr double kDefaultRssToleranceMib = 32;
#endif
// The mismatches and errors printed in full; the rest are counted.
constexpr size_t kReportedFailures = 10;

struct StressOptions {
  std::vector<std::string> plugins;  // empty: every plugin with a device
  std::vector<std::string> module_paths;
  std::vector<std::string> filters;
  int64_t threads = 4;
  double duration_s = 60;
  std::optional<double> warmup_s;  // default: a third of the run, <= 60 s
  int64_t input_sets = kDefaultInputSets;
  int64_t compile_every = kDefaultCompileEvery;
  uint64_t seed = 0;
  double rss_tolerance_mib = kDefaultRssToleranceMib;
  bool validate = false;
  bool json = false;

  double Warmup() const {
    return warmup_s ? *warmup_s : std::min(60.0, duration_s / 3);
  }
};

// One module of the run: its IR, how its inputs are made, and the bound
// its results are held to.
struct StressModule {
  std::string name;  // the case id or the file
  bool from_file = false;
  // What the plugins compile: the file's or the case's text, as it is.
  std::string text;
  phal_program_format_t format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  // What the reference runs and the checks read.
  std::unique_ptr<HloModule> module;
  std::vector<conformance::InputSpec> inputs;  // built-in cases only
  uint64_t seed = 0;
  conformance::ToleranceSpec tolerance;
  // Per input set: the arguments and the reference's result.
  std::vector<std::vector<Literal>> arguments;
  std::vector<Literal> expected;
};

struct StressDevice {
  Device device;
  std::string label;  // "cpu 'Host CPU'"
  uint64_t element_types = 0;
};

// A module compiled for a device before the run, shared by every thread.
struct CompiledPair {
  size_t module = 0;
  size_t device = 0;
  std::shared_ptr<PluginProgram> program;
};

// Resident memory of this process in bytes (/proc/self/statm); 0 where
// it cannot be read.
uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size_pages = 0;
  uint64_t resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

double Mib(uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// What the C library's allocator reports: the bytes its callers hold
// (in use) and the bytes it has taken from the system for them (held: in
// use plus freed memory kept in its arenas). Resident memory growing while
// `in_use` stays flat is the allocator's retention, not a leak. Both are 0
// where the allocator cannot say (not glibc, or a sanitizer's allocator
// in its place).
struct HeapFigures {
  uint64_t in_use = 0;
  uint64_t held = 0;
};

HeapFigures Heap() {
  HeapFigures figures;
#if defined(__GLIBC__) && !PHAL_SANITIZER_BUILD && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = ::mallinfo2();
  figures.in_use = info.uordblks + info.hblkhd;
  figures.held = info.arena + info.hblkhd;
#endif
  return figures;
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- modules -------------------------------------------------------------

StatusOr<std::vector<StressModule>> BuiltInModules(
    const std::vector<std::string>& filters) {
  static const std::vector<conformance::Case> cases =
      conformance::BuiltInCases();
  std::vector<std::string> globs = filters;
  if (globs.empty()) {
    globs.assign(std::begin(kDefaultCases), std::end(kDefaultCases));
  }
  std::vector<StressModule> modules;
  for (const conformance::Case* c :
       conformance::SelectCases(cases, /*tier=*/3, globs)) {
    if (c->kind != conformance::CaseKind::kNumeric || c->exclusive) continue;
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                          ParseHloText(c->module_text, c->id));
    StressModule stress;
    stress.name = c->id;
    stress.text = c->module_text;
    stress.module = std::move(module);
    stress.inputs = c->inputs;
    stress.seed = c->seed;
    stress.tolerance = c->tolerance;
    modules.push_back(std::move(stress));
  }
  if (modules.empty()) {
    return InvalidArgument("--filter selects no numeric conformance case");
  }
  return modules;
}

bool IsModuleFile(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".hlo" || extension == ".txt" || extension == ".mlir";
}

// The files of `paths`: each file itself, each directory's module files
// (.hlo, .txt, .mlir) recursively, in path order.
StatusOr<std::vector<std::string>> ModuleFiles(
    const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(path, error), end;
         !error && it != end; it.increment(error)) {
      if (it->is_regular_file() && IsModuleFile(it->path())) {
        found.push_back(it->path().string());
      }
    }
    if (error) return InvalidArgument(path + ": " + error.message());
    if (found.empty()) {
      return InvalidArgument(path +
                             ": holds no module file (.hlo, .txt, .mlir)");
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// The largest dimension of any array in the module: the accumulation
// length a module of unknown content is held to.
int64_t LargestDimension(const HloModule& module) {
  int64_t largest = 1;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      const Shape& shape = instruction->shape();
      if (shape.IsTuple()) continue;
      for (int64_t dim : shape.dims()) largest = std::max(largest, dim);
    }
  }
  return largest;
}

StatusOr<StressModule> FileModule(const std::string& path) {
  StressModule stress;
  stress.name = path;
  stress.from_file = true;
  PHAL_ASSIGN_OR_RETURN(stress.text, ReadTextFile(path));
  stress.format = ProgramFormatOf(path);
  PHAL_ASSIGN_OR_RETURN(stress.module, LoadOneModule(path, "stress"));
  stress.tolerance =
      conformance::Accumulation(LargestDimension(*stress.module));
  return stress;
}

StatusOr<std::vector<StressModule>> LoadModules(const StressOptions& options) {
  if (options.module_paths.empty()) return BuiltInModules(options.filters);
  PHAL_ASSIGN_OR_RETURN(std::vector<std::string> files,
                        ModuleFiles(options.module_paths));
  std::vector<StressModule> modules;
  for (const std::string& file : files) {
    PHAL_ASSIGN_OR_RETURN(StressModule module, FileModule(file));
    modules.push_back(std::move(module));
  }
  return modules;
}

// Input set `set` of `module`: the case's input specs with a seed of the
// set, or, for a module file, the values `polyhal run --random-inputs`
// gives (small integers, so that loop bounds and indices stay small).
std::vector<Literal> MakeArguments(const StressModule& module, uint64_t seed,
                                   int64_t set) {
  const HloComputation& entry = *module.module->entry_computation();
  std::vector<Literal> arguments;
  const uint64_t base = seed + module.seed + static_cast<uint64_t>(set) * 7919;
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const Shape& shape = entry.parameter_instruction(i)->shape();
    const uint64_t parameter_seed = base + static_cast<uint64_t>(i);
    if (module.from_file) {
      arguments.push_back(RandomLiteral(shape, parameter_seed));
      continue;
    }
    const conformance::InputSpec spec =
        static_cast<size_t>(i) < module.inputs.size()
            ? module.inputs[static_cast<size_t>(i)]
            : conformance::RandomValues();
    arguments.push_back(conformance::MakeInput(shape, spec, parameter_seed));
  }
  return arguments;
}

// ---- the run ---------------------------------------------------------------

// What the threads count, and the first failures in full.
class Tally {
 public:
  explicit Tally(size_t devices) : executions_by_device_(devices) {}

  void Execution(size_t device) {
    executions_.fetch_add(1, std::memory_order_relaxed);
    executions_by_device_[device].fetch_add(1, std::memory_order_relaxed);
  }
  void Compile() { compiles_.fetch_add(1, std::memory_order_relaxed); }
  void Mismatch(const std::string& what) {
    mismatches_.fetch_add(1, std::memory_order_relaxed);
    Keep(what);
  }
  void Error(const std::string& what) {
    errors_.fetch_add(1, std::memory_order_relaxed);
    Keep(what);
  }

  int64_t executions() const { return executions_.load(); }
  int64_t executions(size_t device) const {
    return executions_by_device_[device].load();
  }
  int64_t compiles() const { return compiles_.load(); }
  int64_t mismatches() const { return mismatches_.load(); }
  int64_t errors() const { return errors_.load(); }
  std::vector<std::string> failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
  }

 private:
  void Keep(const std::string& what) {
    std::lock_guard lock(mutex_);
    if (failures_.size() < kReportedFailures) failures_.push_back(what);
  }

  std::atomic<int64_t> executions_{0};
  std::vector<std::atomic<int64_t>> executions_by_device_;
  std::atomic<int64_t> compiles_{0};
  std::atomic<int64_t> mismatches_{0};
  std::atomic<int64_t> errors_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> failures_;
};

// Error and leak messages the client logs; every message at warning level
// or above is also printed to stderr.
class LogWatch {
 public:
  static void Callback(void* user_data, phal_log_level_t level,
                       const char* message) {
    static_cast<LogWatch*>(user_data)->Record(level, message);
  }

  void Record(phal_log_level_t level, const char* message) {
    if (level > PHAL_LOG_LEVEL_WARNING) return;
    std::fprintf(stderr, "polyhal: %s: %s\n",
                 level == PHAL_LOG_LEVEL_ERROR ? "error" : "warning", message);
    const std::string text = message;
    const bool leak =
        text.find("lifetime.leak") != std::string::npos ||
        text.find("not freed before phal_client_destroy") != std::string::npos;
    std::lock_guard lock(mutex_);
    if (leak) ++leaks_;
    if (level == PHAL_LOG_LEVEL_ERROR && !leak) ++errors_;
    if (leak || level == PHAL_LOG_LEVEL_ERROR) {
      if (messages_.size() < kReportedFailures) messages_.push_back(text);
    }
  }

  int64_t leaks() const {
    std::lock_guard lock(mutex_);
    return leaks_;
  }
  int64_t errors() const {
    std::lock_guard lock(mutex_);
    return errors_;
  }
  std::vector<std::string> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  mutable std::mutex mutex_;
  int64_t leaks_ = 0;
  int64_t errors_ = 0;
  std::vector<std::string> messages_;
};

// Resident memory and the allocator's figures once a second, from start to
// Stop().
class MemorySampler {
 public:
  MemorySampler() : thread_([this] { Run(); }) {}
  ~MemorySampler() { Stop(); }

  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  // Samples in MiB, one per second since the sampler started.
  std::vector<double> samples() const {
    std::lock_guard lock(mutex_);
    return samples_;
  }
  std::vector<double> heap_in_use() const {
    std::lock_guard lock(mutex_);
    return heap_in_use_;
  }
  std::vector<double> heap_held() const {
    std::lock_guard lock(mutex_);
    return heap_held_;
  }

 private:
  void Run() {
    std::unique_lock lock(mutex_);
    Clock::time_point next = Clock::now();
    while (!stopped_) {
      samples_.push_back(Mib(ResidentBytes()));
      const HeapFigures heap = Heap();
      heap_in_use_.push_back(Mib(heap.in_use));
      heap_held_.push_back(Mib(heap.held));
      next += std::chrono::seconds(1);
      wake_.wait_until(lock, next, [this] { return stopped_; });
    }
  }

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::vector<double> samples_;
  std::vector<double> heap_in_use_;
  std::vector<double> heap_held_;
  std::thread thread_;
};

struct StressReport {
  std::vector<std::string> devices;
  size_t modules = 0;
  std::vector<std::string> unsupported;  // "module on device: why"
  double prepare_s = 0;
  double run_s = 0;
  int64_t executions = 0;
  std::vector<int64_t> executions_by_device;
  int64_t compiles = 0;
  int64_t mismatches = 0;
  int64_t errors = 0;
  int64_t log_errors = 0;
  int64_t leaks = 0;
  std::vector<std::string> failures;
  std::vector<double> rss_mib;  // one per second of the timed run
  double rss_warmup_mib = 0;
  double rss_end_mib = 0;
  double rss_peak_mib = 0;
  double rss_growth_mib = 0;
  // The allocator's figures beside each resident sample (HeapFigures).
  std::vector<double> heap_in_use_mib;
  std::vector<double> heap_held_mib;
  // Memory in use: resident memory less the bytes the allocator holds
  // freed (held - in use); resident memory where the allocator cannot say.
  // What the memory check judges.
  std::vector<double> in_use_mib;
  double in_use_warmup_mib = 0;
  double in_use_end_mib = 0;
  double in_use_growth_mib = 0;
  std::vector<std::string> verdicts;  // why the run failed; empty: passed
};

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

// The reference's results of every input set of every module.
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

// Compiles every module for every device that supports it; a device that
// refuses a module (an element type or kernel kind it lacks) is listed in
// the report, any other compile error fails the run.
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

// The work of one thread until `deadline`: a module and device chosen at
// random, run on the executable compiled before the run, or, one time in
// compile_every, compiled afresh (a kernel cache hit in the plugin) and
// freed after the run.
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

StatusOr<std::vector<StressDevice>> ChooseDevices(
    const Client& client, const StressOptions& options) {
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  std::vector<StressDevice> devices;
  for (const Device& device : client.Devices()) {
    size_t index = 0;
    PHAL_RETURN_IF_ERROR(StatusFromError(
        Error(phal_device_get_plugin_index(device.get(), &index))));
    const std::string plugin =
        index < plugins.size() ? plugins[index].name : "";
    if (!options.plugins.empty() &&
        std::find(options.plugins.begin(), options.plugins.end(), plugin) ==
            options.plugins.end()) {
      continue;
    }
    Result<phal_device_properties_t> properties = device.Properties();
    PHAL_RETURN_IF_ERROR(StatusFromError(properties.error()));
    devices.push_back({device, plugin + " '" + properties->name + "'",
                       properties->element_types});
  }
  for (const std::string& plugin : options.plugins) {
    bool found = false;
    for (const StressDevice& device : devices) {
      found = found || device.label.rfind(plugin + " '", 0) == 0;
    }
    // The error says why the plugin has no device.
    if (!found) PHAL_RETURN_IF_ERROR(FindPluginDevice(client, plugin).status());
  }
  if (devices.empty()) {
    return NotFound(
        "no plugin has a device to run on; 'polyhal plugins' says why");
  }
  return devices;
}

// The seconds each end of the timed run is summarised over: the minute
// after the warm-up and the last minute, or a quarter of the time after the
// warm-up each when that is shorter (one sample at least). A median over
// them is not moved by a few large modules in flight at one sample.
double WindowSeconds(const StressOptions& options) {
  return std::clamp((options.duration_s - options.Warmup()) / 4, 1.0, 60.0);
}

// The median of `count` samples from `first` on (fewer at the end).
double Median(const std::vector<double>& samples, size_t first, size_t count) {
  if (samples.empty()) return 0;
  first = std::min(first, samples.size() - 1);
  const size_t last =
      std::min(samples.size(), first + std::max<size_t>(1, count));
  std::vector<double> window(
      samples.begin() + static_cast<std::ptrdiff_t>(first),
      samples.begin() + static_cast<std::ptrdiff_t>(last));
  const auto middle =
      window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2);
  std::nth_element(window.begin(), middle, window.end());
  return *middle;
}

// The medians of the window after the warm-up and of the last window.
std::pair<double, double> WarmAndEnd(const std::vector<double>& samples,
                                     const StressOptions& options) {
  const size_t count = static_cast<size_t>(WindowSeconds(options));
  const size_t warm = static_cast<size_t>(std::max(0.0, options.Warmup()));
  const size_t end = samples.size() > count ? samples.size() - count : 0;
  return {Median(samples, warm, count),
          Median(samples, std::max(warm, end), count)};
}

void Judge(const StressOptions& options, StressReport& report) {
  const std::vector<double>& rss = report.rss_mib;
  std::tie(report.rss_warmup_mib, report.rss_end_mib) =
      WarmAndEnd(rss, options);
  for (size_t i = static_cast<size_t>(options.Warmup()); i < rss.size(); ++i) {
    report.rss_peak_mib = std::max(report.rss_peak_mib, rss[i]);
  }
  report.rss_growth_mib = report.rss_end_mib - report.rss_warmup_mib;
  report.in_use_mib = rss;
  for (size_t i = 0; i < rss.size() && i < report.heap_held_mib.size(); ++i) {
    report.in_use_mib[i] -= report.heap_held_mib[i] - report.heap_in_use_mib[i];
  }
  std::tie(report.in_use_warmup_mib, report.in_use_end_mib) =
      WarmAndEnd(report.in_use_mib, options);
  report.in_use_growth_mib = report.in_use_end_mib - report.in_use_warmup_mib;
  if (report.executions == 0) {
    report.verdicts.push_back("no execution finished");
  }
  if (report.mismatches > 0) {
    report.verdicts.push_back(std::to_string(report.mismatches) +
                              " results differ from the reference");
  }
  if (report.errors > 0) {
    report.verdicts.push_back(std::to_string(report.errors) +
                              " compiles or executions failed");
  }
  if (report.log_errors > 0) {
    report.verdicts.push_back(std::to_string(report.log_errors) +
                              " errors were logged");
  }
  if (report.leaks > 0) {
    report.verdicts.push_back(
        "objects were still alive at phal_client_destroy (" +
        std::to_string(report.leaks) + " reports)");
  }
  if (report.in_use_growth_mib > options.rss_tolerance_mib) {
    char text[256];
    std::snprintf(text, sizeof(text),
                  "memory in use grew by %.1f MiB after the warm-up (%.1f "
                  "-> %.1f MiB; resident %.1f -> %.1f MiB), beyond the "
                  "tolerance of %.1f MiB",
                  report.in_use_growth_mib, report.in_use_warmup_mib,
                  report.in_use_end_mib, report.rss_warmup_mib,
                  report.rss_end_mib, options.rss_tolerance_mib);
    report.verdicts.push_back(text);
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

// ---- output ----------------------------------------------------------------

void PrintText(const StressOptions& options, const StressReport& report) {
  for (const std::string& refusal : report.unsupported) {
    std::printf("not run     %s\n", refusal.c_str());
  }
  std::printf("devices     ");
  for (size_t d = 0; d < report.devices.size(); ++d) {
    std::printf("%s%s: %lld executions", d == 0 ? "" : ", ",
                report.devices[d].c_str(),
                static_cast<long long>(report.executions_by_device[d]));
  }
  std::printf("\n");
  std::printf("modules     %zu, %lld input sets each\n", report.modules,
              static_cast<long long>(options.input_sets));
  std::printf("run         %.1f s on %lld threads (prepared in %.1f s)\n",
              report.run_s, static_cast<long long>(options.threads),
              report.prepare_s);
  std::printf("executions  %lld (%.1f per second)\n",
              static_cast<long long>(report.executions),
              report.run_s > 0
                  ? static_cast<double>(report.executions) / report.run_s
                  : 0.0);
  std::printf("compiles    %lld during the run\n",
              static_cast<long long>(report.compiles));
  std::printf("mismatches  %lld\n", static_cast<long long>(report.mismatches));
  std::printf("errors      %lld\n", static_cast<long long>(report.errors));
  std::printf(
      "memory      medians over the %.0f s after the warm-up (%.0f s) and "
      "the last %.0f s\n",
      WindowSeconds(options), options.Warmup(), WindowSeconds(options));
  std::printf("rss         %.1f -> %.1f MiB (%+.1f MiB), peak %.1f MiB\n",
              report.rss_warmup_mib, report.rss_end_mib, report.rss_growth_mib,
              report.rss_peak_mib);
  if (!report.heap_held_mib.empty() && report.heap_held_mib.back() > 0) {
    const auto [warm, end] = WarmAndEnd(report.heap_in_use_mib, options);
    const auto [held_warm, held_end] =
        WarmAndEnd(report.heap_held_mib, options);
    std::printf(
        "heap        %.1f -> %.1f MiB in use (%+.1f MiB); %.1f -> %.1f MiB "
        "held by the allocator\n",
        warm, end, end - warm, held_warm, held_end);
  }
  std::printf(
      "in use      %.1f -> %.1f MiB (%+.1f MiB; tolerance %.1f MiB): "
      "resident memory less the allocator's free bytes\n",
      report.in_use_warmup_mib, report.in_use_end_mib, report.in_use_growth_mib,
      options.rss_tolerance_mib);
  std::printf("leaks       %s\n",
              report.leaks == 0 ? "none" : "reported (see above)");
  for (const std::string& failure : report.failures) {
    std::printf("failure     %s\n", failure.c_str());
  }
  if (report.verdicts.empty()) {
    std::printf("PASS\n");
    return;
  }
  for (const std::string& verdict : report.verdicts) {
    std::printf("FAIL: %s\n", verdict.c_str());
  }
}

void PrintJson(const StressOptions& options, const StressReport& report) {
  nlohmann::ordered_json document;
  document["passed"] = report.verdicts.empty();
  document["verdicts"] = report.verdicts;
  document["threads"] = options.threads;
  document["duration_s"] = options.duration_s;
  document["warmup_s"] = options.Warmup();
  document["memory_window_s"] = WindowSeconds(options);
  document["run_s"] = report.run_s;
  document["prepare_s"] = report.prepare_s;
  document["modules"] = report.modules;
  document["input_sets"] = options.input_sets;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (size_t d = 0; d < report.devices.size(); ++d) {
    devices.push_back({{"device", report.devices[d]},
                       {"executions", report.executions_by_device[d]}});
  }
  document["devices"] = std::move(devices);
  document["not_run"] = report.unsupported;
  document["executions"] = report.executions;
  document["compiles"] = report.compiles;
  document["mismatches"] = report.mismatches;
  document["errors"] = report.errors;
  document["logged_errors"] = report.log_errors;
  document["leak_reports"] = report.leaks;
  document["failures"] = report.failures;
  document["rss_mib"] = {{"after_warmup", report.rss_warmup_mib},
                         {"end", report.rss_end_mib},
                         {"peak_after_warmup", report.rss_peak_mib},
                         {"growth", report.rss_growth_mib}};
  document["in_use_mib"] = {{"after_warmup", report.in_use_warmup_mib},
                            {"end", report.in_use_end_mib},
                            {"growth", report.in_use_growth_mib},
                            {"tolerance", options.rss_tolerance_mib}};
  document["rss_samples_mib"] = report.rss_mib;
  document["heap_in_use_samples_mib"] = report.heap_in_use_mib;
  document["heap_held_samples_mib"] = report.heap_held_mib;
  document["in_use_samples_mib"] = report.in_use_mib;
  std::printf("%s\n", document.dump(2).c_str());
}

// ---- options ---------------------------------------------------------------

// Reads `--name VALUE` into `value` when present; returns kExitSuccess or
// the usage exit code.
template <typename Number>
int ParseNumber(ArgumentReader& reader, const std::string& name, Number minimum,
                Number* value) {
  const std::string text = reader.Value(name);
  if (text.empty()) return kExitSuccess;
  Number parsed{};
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size() ||
      parsed < minimum) {
    return reader.UsageError(name + " takes a number of at least " +
                             std::to_string(minimum) + ", not '" + text + "'");
  }
  *value = parsed;
  return kExitSuccess;
}

int ParseStressOptions(ArgumentReader& reader, StressOptions* options) {
  options->json = reader.Flag("--json");
  options->validate = reader.Flag("--validate");
  options->plugins = reader.Values("--plugin");
  options->module_paths = reader.Values("--modules");
  options->filters = reader.Values("--filter");
  int parsed = ParseNumber<int64_t>(reader, "--threads", 1, &options->threads);
  if (parsed == kExitSuccess) {
    parsed = ParseNumber(reader, "--duration", 0.0, &options->duration_s);
  }
  double warmup = -1;
  if (parsed == kExitSuccess) {
    parsed = ParseNumber(reader, "--warmup", 0.0, &warmup);
  }
  if (warmup >= 0) options->warmup_s = warmup;
  if (parsed == kExitSuccess) {
    parsed =
        ParseNumber<int64_t>(reader, "--input-sets", 1, &options->input_sets);
  }
  if (parsed == kExitSuccess) {
    parsed = ParseNumber<int64_t>(reader, "--compile-every", 1,
                                  &options->compile_every);
  }
  if (parsed == kExitSuccess) {
    parsed = ParseNumber<uint64_t>(reader, "--seed", 0, &options->seed);
  }
  if (parsed == kExitSuccess) {
    parsed = ParseNumber(reader, "--rss-tolerance", 0.0,
                         &options->rss_tolerance_mib);
  }
  if (parsed != kExitSuccess) return parsed;
  if (!reader.Positionals().empty()) {
    return reader.UsageError(
        "takes no positional arguments: give modules "
        "with --modules");
  }
  if (!reader.Done()) return kExitUsage;
  if (!options->module_paths.empty() && !options->filters.empty()) {
    return reader.UsageError(
        "--filter selects built-in modules; it cannot be combined with "
        "--modules");
  }
  if (options->Warmup() >= options->duration_s && options->duration_s > 0) {
    return reader.UsageError("--warmup must be shorter than --duration");
  }
  return kExitSuccess;
}

}  // namespace

int RunStress(const Arguments& arguments) {
  ArgumentReader reader("stress", arguments);
  StressOptions options;
  const int parsed = ParseStressOptions(reader, &options);
  if (parsed != kExitSuccess) return parsed;
  // The layer is chosen when the client is created, from the environment.
  if (options.validate) setenv("PHAL_VALIDATION", "1", 1);
  StressReport report;
  Status status = Stress(options, report);
  if (!status.ok()) {
    std::fprintf(stderr, "polyhal stress: %s\n", status.message().c_str());
    return kExitFailure;
  }
  if (options.json) {
    PrintJson(options, report);
  } else {
    PrintText(options, report);
  }
  return report.verdicts.empty() ? kExitSuccess : kExitFailure;
}

}  // namespace phal::cli
