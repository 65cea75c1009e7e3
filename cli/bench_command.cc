// `polyhal bench MODULE`: how long a module takes to parse, compile, run
// the first time, and run again (median and minimum over --repeat runs),
// on a plugin's first device or on the reference interpreter; and, when the
// device keeps performance counters (ABI 1.5), what one run counted there.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/grid_program.h"
#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "core/compiler/spmd_partitioner.h"
#include "core/reference/interpreter.h"

namespace phal::cli {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

struct BenchOptions {
  RunOptions run;
  int64_t repeat = 10;
  bool json = false;
};

struct BenchFigures {
  std::string device;
  std::optional<double> parse_ms;    // the reference's; a plugin's compile
                                     // includes its parse
  std::optional<double> compile_ms;  // none for the reference
  std::optional<double> upload_ms;
  double first_run_ms = 0;
  std::vector<double> run_ms;  // sorted
  // The device's counters over the timed runs, per run (PerRun); empty when
  // the device keeps none.
  std::vector<Counter> counters;
  // --devices: what the program's collectives send, per device and run
  // (core/compiler/spmd_partitioner.h counts it).
  std::optional<CommunicationCost> communication;
};

// Counters summed over `runs` runs, as one run's: every amount divided by
// the run count, ratios (which do not add up) left as they are.
std::vector<Counter> PerRun(std::vector<Counter> counters, int64_t runs) {
  for (Counter& counter : counters) {
    if (counter.unit != "ratio") counter.value /= static_cast<double>(runs);
  }
  return counters;
}

Status BenchReference(const HloModule& module,
                      const std::vector<Literal>& arguments, int64_t repeat,
                      BenchFigures* figures) {
  figures->device = "reference interpreter";
  Clock::time_point start = Clock::now();
  PHAL_RETURN_IF_ERROR(Evaluate(module, arguments).status());
  figures->first_run_ms = MillisecondsSince(start);
  for (int64_t i = 0; i < repeat; ++i) {
    start = Clock::now();
    PHAL_RETURN_IF_ERROR(Evaluate(module, arguments).status());
    figures->run_ms.push_back(MillisecondsSince(start));
  }
  return OkStatus();
}

Status BenchPlugin(const BenchOptions& options, BenchFigures* figures) {
  PHAL_ASSIGN_OR_RETURN(std::string text,
                        ReadTextFile(options.run.module_path));
  PHAL_RETURN_IF_ERROR(CheckOneModule(options.run.module_path, text, "bench"));
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  PHAL_ASSIGN_OR_RETURN(Device device,
                        FindPluginDevice(*client, options.run.plugin));
  Result<phal_device_properties_t> properties = device.Properties();
  PHAL_RETURN_IF_ERROR(StatusFromError(properties.error()));
  figures->device = properties->name;
  Clock::time_point start = Clock::now();
  PHAL_ASSIGN_OR_RETURN(
      PluginProgram program,
      PluginProgram::Compile(device, text,
                             ProgramFormatOf(options.run.module_path),
                             options.run.module_path));
  figures->compile_ms = MillisecondsSince(start);
  PHAL_ASSIGN_OR_RETURN(std::vector<Shape> shapes, program.ParameterShapes());
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> arguments,
                        BindInputsToShapes(shapes, options.run));
  start = Clock::now();
  PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> inputs, program.Upload(arguments));
  figures->upload_ms = MillisecondsSince(start);
  start = Clock::now();
  PHAL_RETURN_IF_ERROR(program.Execute(inputs).status());
  figures->first_run_ms = MillisecondsSince(start);
  // Counted from here: the timed runs only (execute returns when a run has
  // finished, so each is counted whole).
  PHAL_RETURN_IF_ERROR(StatusFromError(device.ResetCounters()));
  for (int64_t i = 0; i < options.repeat; ++i) {
    start = Clock::now();
    PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> results, program.Execute(inputs));
    figures->run_ms.push_back(MillisecondsSince(start));
  }
  Result<std::vector<Counter>> counters = device.Counters();
  PHAL_RETURN_IF_ERROR(StatusFromError(counters.error()));
  figures->counters = PerRun(std::move(*counters), options.repeat);
  return OkStatus();
}

// A program for options.run.devices processes on the plugin's first
// devices, all at once: each run is one phal_executable_execute_on_devices.
Status BenchDevices(const BenchOptions& options, BenchFigures* figures) {
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(options.run));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, options.run));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceRun> run,
                        PrepareDeviceRun(arguments, options.run));
  Result<phal_device_properties_t> properties = run->devices[0].Properties();
  PHAL_RETURN_IF_ERROR(StatusFromError(properties.error()));
  figures->device = std::to_string(run->devices.size()) +
                    " devices, the first " + properties->name;
  PHAL_ASSIGN_OR_RETURN(figures->communication,
                        CommunicationCostOf(*program.module));
  figures->compile_ms = run->compile_ms;
  figures->upload_ms = run->upload_ms;
  Clock::time_point start = Clock::now();
  PHAL_RETURN_IF_ERROR(
      StatusFromError(run->executable.ExecuteOnDevices(run->inputs).error()));
  figures->first_run_ms = MillisecondsSince(start);
  for (int64_t i = 0; i < options.repeat; ++i) {
    start = Clock::now();
    PHAL_RETURN_IF_ERROR(
        StatusFromError(run->executable.ExecuteOnDevices(run->inputs).error()));
    figures->run_ms.push_back(MillisecondsSince(start));
  }
  return OkStatus();
}

double Median(const std::vector<double>& sorted) {
  size_t middle = sorted.size() / 2;
  if (sorted.size() % 2 == 1) return sorted[middle];
  return (sorted[middle - 1] + sorted[middle]) / 2;
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

// {"device_counters": {name: value}, "kernel_counters": {kernel: {name:
// value}}, "counter_units": {name: unit}} of one run, into `document`.
void AddCountersJson(const std::vector<Counter>& counters,
                     nlohmann::ordered_json& document) {
  nlohmann::ordered_json totals = nlohmann::ordered_json::object();
  nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  for (const Counter& counter : counters) {
    if (counter.kernel.empty()) {
      totals[counter.name] = counter.value;
    } else {
      kernels[counter.kernel][counter.name] = counter.value;
    }
    units[counter.name] = counter.unit;
  }
  document["device_counters"] = std::move(totals);
  document["kernel_counters"] = std::move(kernels);
  document["counter_units"] = std::move(units);
}

void PrintJson(const BenchOptions& options, const BenchFigures& figures) {
  nlohmann::ordered_json document;
  document["module"] = options.run.module_path;
  document["plugin"] = options.run.plugin;
  document["device"] = figures.device;
  document["devices"] = std::max<int64_t>(options.run.devices, 1);
  document["repeat"] = options.repeat;
  document["parse_ms"] = figures.parse_ms
                             ? nlohmann::ordered_json(*figures.parse_ms)
                             : nlohmann::ordered_json(nullptr);
  document["compile_ms"] = figures.compile_ms
                               ? nlohmann::ordered_json(*figures.compile_ms)
                               : nlohmann::ordered_json(nullptr);
  document["upload_ms"] = figures.upload_ms
                              ? nlohmann::ordered_json(*figures.upload_ms)
                              : nlohmann::ordered_json(nullptr);
  document["first_run_ms"] = figures.first_run_ms;
  document["median_ms"] = Median(figures.run_ms);
  document["min_ms"] = figures.run_ms.front();
  document["mean_ms"] = Mean(figures.run_ms);
  document["max_ms"] = figures.run_ms.back();
  document["runs_ms"] = figures.run_ms;
  if (figures.communication) {
    document["collectives"] = figures.communication->collective_count;
    document["bytes_sent_per_device"] = figures.communication->bytes_sent;
  }
  if (!figures.counters.empty()) AddCountersJson(figures.counters, document);
  std::printf("%s\n", document.dump(2).c_str());
}

// The device's totals of one run, ratios as percentages, then each
// kernel's share of the cycles when the device counts cycles.
void PrintCountersText(const std::vector<Counter>& counters) {
  if (counters.empty()) return;
  std::printf("device counters, per run:\n");
  double total_cycles = 0;
  for (const Counter& counter : counters) {
    if (!counter.kernel.empty()) continue;
    if (counter.name == "cycles") total_cycles = counter.value;
    if (counter.unit == "ratio") {
      std::printf("  %-28s %14.1f %%\n", counter.name.c_str(),
                  100 * counter.value);
    } else {
      std::printf("  %-28s %14.0f %s\n", counter.name.c_str(), counter.value,
                  counter.unit.c_str());
    }
  }
  if (total_cycles <= 0) return;
  std::vector<const Counter*> kernels;
  for (const Counter& counter : counters) {
    if (!counter.kernel.empty() && counter.name == "cycles") {
      kernels.push_back(&counter);
    }
  }
  std::stable_sort(
      kernels.begin(), kernels.end(),
      [](const Counter* a, const Counter* b) { return a->value > b->value; });
  std::printf("kernels by cycles, per run:\n");
  for (const Counter* kernel : kernels) {
    std::printf("  %-28s %14.0f cycles %5.1f %%\n", kernel->kernel.c_str(),
                kernel->value, 100 * kernel->value / total_cycles);
  }
}

void PrintText(const BenchOptions& options, const BenchFigures& figures) {
  std::printf("module      %s\n", options.run.module_path.c_str());
  std::printf("plugin      %s (%s)\n", options.run.plugin.c_str(),
              figures.device.c_str());
  if (figures.parse_ms) {
    std::printf("parse       %10.3f ms\n", *figures.parse_ms);
  }
  if (figures.compile_ms) {
    std::printf("compile     %10.3f ms\n", *figures.compile_ms);
  }
  if (figures.upload_ms) {
    std::printf("upload      %10.3f ms\n", *figures.upload_ms);
  }
  std::printf("first run   %10.3f ms\n", figures.first_run_ms);
  std::printf("median      %10.3f ms  (%lld runs)\n", Median(figures.run_ms),
              static_cast<long long>(options.repeat));
  std::printf("min         %10.3f ms\n", figures.run_ms.front());
  std::printf("mean        %10.3f ms\n", Mean(figures.run_ms));
  std::printf("max         %10.3f ms\n", figures.run_ms.back());
  if (figures.communication) {
    std::printf(
        "sent        %10lld bytes per device per run (%lld "
        "collectives)\n",
        static_cast<long long>(figures.communication->bytes_sent),
        static_cast<long long>(figures.communication->collective_count));
  }
  PrintCountersText(figures.counters);
}

Status Bench(const BenchOptions& options) {
  BenchFigures figures;
  if (options.run.devices > 0) {
    if (options.run.plugin == "reference") {
      return InvalidArgument(
          "bench --devices times a plugin's devices; for the reference's "
          "grid use 'polyhal run --devices N --plugin reference'");
    }
    PHAL_RETURN_IF_ERROR(BenchDevices(options, &figures));
  } else if (options.run.plugin == "reference") {
    Clock::time_point start = Clock::now();
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                          LoadOneModule(options.run.module_path, "bench"));
    figures.parse_ms = MillisecondsSince(start);
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Literal> arguments,
        BindInputs(*module->entry_computation(), options.run));
    PHAL_RETURN_IF_ERROR(
        BenchReference(*module, arguments, options.repeat, &figures));
  } else {
    PHAL_RETURN_IF_ERROR(BenchPlugin(options, &figures));
  }
  std::sort(figures.run_ms.begin(), figures.run_ms.end());
  if (options.json) {
    PrintJson(options, figures);
  } else {
    PrintText(options, figures);
  }
  return OkStatus();
}

// Reads --repeat; returns kExitSuccess or the usage exit code.
int ParseRepeat(ArgumentReader& reader, int64_t* repeat) {
  std::string text = reader.Value("--repeat");
  if (text.empty()) return kExitSuccess;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), *repeat);
  if (error != std::errc() || end != text.data() + text.size() || *repeat < 1) {
    return reader.UsageError("--repeat takes a positive integer, not '" + text +
                             "'");
  }
  return kExitSuccess;
}

}  // namespace

int RunBench(const Arguments& arguments) {
  ArgumentReader reader("bench", arguments);
  BenchOptions options;
  options.json = reader.Flag("--json");
  int parsed = ParseRepeat(reader, &options.repeat);
  if (parsed != kExitSuccess) return parsed;
  parsed = ParseRunOptions(reader, &options.run);
  if (parsed != kExitSuccess) return parsed;
  if (!options.run.output_dir.empty() || options.run.print) {
    return reader.UsageError(
        "bench writes no outputs: drop --output-dir and "
        "--print (use 'polyhal run' for results)");
  }
  // Parameters without --input are filled from a seed: a benchmark needs
  // values, not particular ones.
  options.run.random_inputs = true;
  Status status = Bench(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal bench: %s\n", status.message().c_str());
  return kExitFailure;
}

}  // namespace phal::cli
