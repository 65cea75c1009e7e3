// The C sample run_model again, through the C++ wrapper polyhal.hpp, and
// able to check its answers: each --expect file (one per result, in order)
// is compared with the result, element by element.
//
//   run_model_cpp [--repeat N] [--expect OUTPUT.npy]... MODEL.hlo [INPUT.npy
//   ...]
//
// Options come before MODEL. A result matches when every element is within
// 1e-4 + 1e-4 * |expected| of the expected one (NaN matches only NaN).
// Exit status 1 when a result does not match or anything fails, 2 for a
// usage error.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host_array.h"
#include "polyhal/polyhal.hpp"

namespace {

constexpr int kDefaultRepeat = 10;
constexpr int kMaxRepeat = 100000;
constexpr size_t kValuesShown = 6;
constexpr double kAbsoluteTolerance = 1e-4;
constexpr double kRelativeTolerance = 1e-4;

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

// An error of the sample's own making: a bad file or a wrong shape.
phal::Error Problem(std::string message) {
  return phal::Error(PHAL_INVALID_ARGUMENT, std::move(message));
}

// Says which call a library error came from.
phal::Error Failed(const char* what, const phal::Error& error) {
  return phal::Error(error.code(),
                     std::string(what) + " failed: " + error.ToString());
}

std::string ShapeString(phal_element_type_t element_type, uint32_t rank,
                        const int64_t* dims) {
  char text[128];
  host_array_format_shape(element_type, rank, dims, text, sizeof(text));
  return text;
}

std::string ShapeString(const phal_buffer_desc_t& desc) {
  return ShapeString(desc.element_type, desc.rank, desc.dims);
}

// Owns an array read from a .npy file.
class HostArray {
 public:
  HostArray() = default;
  HostArray(HostArray&& other) noexcept
      : array_(std::exchange(other.array_, host_array_t{})) {}
  HostArray& operator=(HostArray&& other) noexcept {
    std::swap(array_, other.array_);
    return *this;
  }
  ~HostArray() { host_array_free(&array_); }

  static phal::Result<HostArray> ReadNpy(const std::string& path) {
    HostArray array;
    char error[512];
    if (!host_array_read_npy(path.c_str(), &array.array_, error,
                             sizeof(error))) {
      return Problem(error);
    }
    return array;
  }

  const host_array_t& get() const { return array_; }
  bool HasShape(const phal_buffer_desc_t& desc) const {
    return host_array_has_shape(&array_, desc.element_type, desc.rank,
                                desc.dims) != 0;
  }
  std::string Shape() const {
    return ShapeString(array_.element_type, array_.rank, array_.dims);
  }

 private:
  host_array_t array_{};
};

struct Options {
  int repeat = kDefaultRepeat;
  std::string model_path;
  std::vector<std::string> input_paths;
  std::vector<std::string> expect_paths;
};

std::optional<Options> ParseOptions(int argc, char** argv) {
  Options options;
  int i = 1;
  for (; i + 1 < argc && std::string_view(argv[i]).starts_with("--"); i += 2) {
    std::string_view option = argv[i];
    std::string_view value = argv[i + 1];
    if (option == "--expect") {
      options.expect_paths.emplace_back(value);
      continue;
    }
    auto [end, error] = std::from_chars(
        value.data(), value.data() + value.size(), options.repeat);
    if (option != "--repeat" || error != std::errc() ||
        end != value.data() + value.size() || options.repeat < 1 ||
        options.repeat > kMaxRepeat) {
      return std::nullopt;
    }
  }
  if (i >= argc || argv[i][0] == '-') return std::nullopt;
  options.model_path = argv[i];
  options.input_paths.assign(argv + i + 1, argv + argc);
  return options;
}

// What every device runs and checks against, read once.
struct Model {
  std::string text;
  std::vector<HostArray> inputs;
  std::vector<HostArray> expected;
};

phal::Result<std::vector<HostArray>> ReadArrays(
    const std::vector<std::string>& paths) {
  std::vector<HostArray> arrays;
  for (const std::string& path : paths) {
    auto array = HostArray::ReadNpy(path);
    if (!array.ok()) return array.error();
    arrays.push_back(std::move(*array));
  }
  return arrays;
}

phal::Result<Model> LoadModel(const Options& options) {
  std::ifstream file(options.model_path, std::ios::binary);
  if (!file) return Problem(options.model_path + ": cannot open");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Problem(options.model_path + ": cannot read it");
  Model model;
  model.text = std::move(text).str();
  auto inputs = ReadArrays(options.input_paths);
  if (!inputs.ok()) return inputs.error();
  model.inputs = std::move(*inputs);
  auto expected = ReadArrays(options.expect_paths);
  if (!expected.ok()) return expected.error();
  model.expected = std::move(*expected);
  return model;
}

// One buffer per parameter, holding its input or, without inputs, the
// deterministic pattern.
phal::Result<std::vector<phal::Buffer>> UploadArguments(
    const phal::Device& device,
    const std::vector<phal_buffer_desc_t>& parameters, const Options& options,
    const Model& model) {
  if (!model.inputs.empty() && model.inputs.size() != parameters.size()) {
    return Problem(options.model_path + " has " +
                   std::to_string(parameters.size()) + " parameter(s) but " +
                   std::to_string(model.inputs.size()) + " input(s)");
  }
  std::vector<phal::Buffer> arguments;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const phal_buffer_desc_t& parameter = parameters[i];
    if (!model.inputs.empty() && !model.inputs[i].HasShape(parameter)) {
      return Problem(options.input_paths[i] + " is " + model.inputs[i].Shape() +
                     " but parameter " + std::to_string(i) + " is " +
                     ShapeString(parameter));
    }
    auto buffer = phal::Buffer::Allocate(
        device, parameter.element_type,
        std::vector<int64_t>(parameter.dims, parameter.dims + parameter.rank),
        parameter.memory_space);
    if (!buffer.ok()) return Failed("allocate", buffer.error());
    uint64_t byte_size = buffer->ByteSize();
    std::vector<unsigned char> pattern;
    const void* data = nullptr;
    if (model.inputs.empty()) {
      pattern.resize(byte_size);
      size_t element_size = phal_element_type_byte_size(parameter.element_type);
      host_array_fill_pattern(parameter.element_type, pattern.data(),
                              element_size > 0 ? byte_size / element_size : 0);
      data = pattern.data();
    } else {
      data = model.inputs[i].get().data;
    }
    phal::Error error = buffer->CopyFromHost(data, byte_size);
    if (!error.ok()) return Failed("upload", error);
    arguments.push_back(std::move(*buffer));
  }
  return arguments;
}

struct Timings {
  double compile_ms = 0;
  double first_run_ms = 0;
  std::vector<double> run_ms;

  double MedianRunMs() {
    std::sort(run_ms.begin(), run_ms.end());
    size_t middle = run_ms.size() / 2;
    return run_ms.size() % 2 == 1 ? run_ms[middle]
                                  : (run_ms[middle - 1] + run_ms[middle]) / 2;
  }
};

// Runs once, then `repeat` more times; returns the last run's results.
phal::Result<std::vector<phal::Buffer>> TimeRuns(
    phal::Executable& executable, const std::vector<phal::Buffer>& arguments,
    int repeat, Timings* timings) {
  std::vector<phal::Buffer> results;
  for (int i = 0; i <= repeat; ++i) {
    results.clear();
    Clock::time_point start = Clock::now();
    auto run = executable.Execute(arguments);
    double ms = MillisecondsSince(start);
    if (!run.ok()) return Failed("execute", run.error());
    results = std::move(*run);
    if (i == 0) {
      timings->first_run_ms = ms;
    } else {
      timings->run_ms.push_back(ms);
    }
  }
  return results;
}

void PrintValues(phal_element_type_t element_type, const void* data,
                 size_t count) {
  for (size_t i = 0; i < std::min(count, kValuesShown); ++i) {
    double value = 0;
    if (!host_array_value(element_type, data, i, &value)) {
      std::printf(" (%s values not shown)",
                  phal_element_type_name(element_type));
      return;
    }
    std::printf(" %.6g", value);
  }
  if (count > kValuesShown) std::printf(" ... (%zu values)", count);
}

// Compares a downloaded result with its expected array and prints the
// largest difference. Returns whether every element matches.
phal::Result<bool> Compare(const phal_buffer_desc_t& desc,
                           const std::vector<unsigned char>& data,
                           const HostArray& expected,
                           const std::string& expected_path) {
  if (!expected.HasShape(desc)) {
    return Problem(expected_path + " is " + expected.Shape() +
                   " but the result is " + ShapeString(desc));
  }
  size_t count = host_array_element_count(&expected.get());
  size_t mismatches = 0;
  size_t worst_index = 0;
  double worst_error = 0;
  for (size_t i = 0; i < count; ++i) {
    double actual = 0;
    double wanted = 0;
    if (!host_array_value(desc.element_type, data.data(), i, &actual) ||
        !host_array_value(desc.element_type, expected.get().data, i, &wanted)) {
      return Problem(std::string("cannot compare values of type ") +
                     phal_element_type_name(desc.element_type));
    }
    bool same = actual == wanted || (std::isnan(actual) && std::isnan(wanted));
    double error = same ? 0 : std::fabs(actual - wanted);
    if (!same && !(error <= kAbsoluteTolerance +
                                kRelativeTolerance * std::fabs(wanted))) {
      ++mismatches;
    }
    if (!(error <= worst_error)) {
      worst_error = error;
      worst_index = i;
    }
  }
  std::printf("    vs %s: worst |error| %.3g", expected_path.c_str(),
              worst_error);
  if (count > 0) {
    double actual = 0;
    double wanted = 0;
    host_array_value(desc.element_type, data.data(), worst_index, &actual);
    host_array_value(desc.element_type, expected.get().data, worst_index,
                     &wanted);
    std::printf(" at index %zu (%.9g, expected %.9g)", worst_index, actual,
                wanted);
  }
  if (mismatches == 0) {
    std::printf(": matches\n");
  } else {
    std::printf(": %zu of %zu values differ: does not match\n", mismatches,
                count);
  }
  return mismatches == 0;
}

// Downloads and prints each result, comparing it with its expected array
// when there are any. Returns whether every result matched.
phal::Result<bool> CheckResults(const phal::Executable& executable,
                                const std::vector<phal::Buffer>& results,
                                const Options& options, const Model& model) {
  auto descs = executable.ResultDescs();
  if (!descs.ok()) return Failed("result descs", descs.error());
  if (!model.expected.empty() && model.expected.size() != results.size()) {
    return Problem(options.model_path + " has " +
                   std::to_string(results.size()) + " result(s) but " +
                   std::to_string(model.expected.size()) + " --expect file(s)");
  }
  bool all_match = true;
  for (size_t i = 0; i < results.size(); ++i) {
    const phal_buffer_desc_t& desc = (*descs)[i];
    std::vector<unsigned char> data(results[i].ByteSize());
    phal::Error error = results[i].CopyToHost(data.data(), data.size());
    if (!error.ok()) return Failed("download", error);
    size_t element_size = phal_element_type_byte_size(desc.element_type);
    std::printf("  result %zu: %s =", i, ShapeString(desc).c_str());
    PrintValues(desc.element_type, data.data(),
                element_size > 0 ? data.size() / element_size : 0);
    std::printf("\n");
    if (model.expected.empty()) continue;
    auto matches =
        Compare(desc, data, model.expected[i], options.expect_paths[i]);
    if (!matches.ok()) return matches.error();
    all_match = all_match && *matches;
  }
  return all_match;
}

enum class DeviceRun { kRan, kSkipped, kMismatch };

// Compiles, runs and checks the model on one device.
phal::Result<DeviceRun> RunOnDevice(phal::Device& device,
                                    const Options& options,
                                    const Model& model) {
  Timings timings;
  Clock::time_point start = Clock::now();
  auto executable = phal::Executable::Compile(
      device, model.text, PHAL_PROGRAM_FORMAT_HLO_TEXT, options.model_path);
  timings.compile_ms = MillisecondsSince(start);
  if (executable.error().code() == PHAL_UNIMPLEMENTED) {
    std::printf("  cannot run this model: %s\n",
                executable.error().message().c_str());
    return DeviceRun::kSkipped;
  }
  if (!executable.ok()) return Failed("compile", executable.error());
  auto parameters = executable->ParameterDescs();
  if (!parameters.ok()) return Failed("parameter descs", parameters.error());
  auto arguments = UploadArguments(device, *parameters, options, model);
  if (!arguments.ok()) return arguments.error();
  auto results = TimeRuns(*executable, *arguments, options.repeat, &timings);
  if (!results.ok()) return results.error();
  std::printf("  compile    %9.3f ms\n", timings.compile_ms);
  std::printf("  first run  %9.3f ms\n", timings.first_run_ms);
  std::printf("  median run %9.3f ms of %d runs\n", timings.MedianRunMs(),
              options.repeat);
  auto matches = CheckResults(*executable, *results, options, model);
  if (!matches.ok()) return matches.error();
  return *matches ? DeviceRun::kRan : DeviceRun::kMismatch;
}

std::string DeviceName(const phal::Client& client, const phal::Device& device) {
  auto properties = device.Properties();
  auto plugin_index = device.PluginIndex();
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  if (!properties.ok() || !plugin_index.ok() ||
      *plugin_index >= plugins.size()) {
    return "(unnamed)";
  }
  return std::string(properties->name) + " (plugin " +
         plugins[*plugin_index].name + ")";
}

// Runs the model on every device. Returns the exit status.
int RunOnEveryDevice(const Options& options, const Model& model) {
  auto client = phal::Client::Create();
  if (!client.ok()) {
    std::fprintf(stderr, "run_model_cpp: %s\n",
                 Failed("client create", client.error()).message().c_str());
    return 1;
  }
  std::vector<phal::Device> devices = client->Devices();
  size_t ran = 0;
  bool all_match = true;
  for (size_t i = 0; i < devices.size(); ++i) {
    std::printf("device %zu: %s\n", i, DeviceName(*client, devices[i]).c_str());
    auto run = RunOnDevice(devices[i], options, model);
    if (!run.ok()) {
      std::fprintf(stderr, "run_model_cpp: %s\n",
                   run.error().message().c_str());
      return 1;
    }
    ran += *run != DeviceRun::kSkipped ? 1 : 0;
    all_match = all_match && *run != DeviceRun::kMismatch;
  }
  if (ran == 0) {
    std::fprintf(stderr,
                 "run_model_cpp: no device ran %s; 'polyhal plugins' says "
                 "why\n",
                 options.model_path.c_str());
    return 1;
  }
  if (!all_match) {
    std::fprintf(stderr, "run_model_cpp: a result does not match\n");
    return 1;
  }
  std::printf("run_model_cpp: %s ran on %zu of %zu device(s)\n",
              options.model_path.c_str(), ran, devices.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) {
    std::fprintf(stderr,
                 "usage: run_model_cpp [--repeat N] [--expect OUTPUT.npy]... "
                 "MODEL.hlo [INPUT.npy ...]\n");
    return 2;
  }
  auto model = LoadModel(*options);
  if (!model.ok()) {
    std::fprintf(stderr, "run_model_cpp: %s\n",
                 model.error().message().c_str());
    return 1;
  }
  return RunOnEveryDevice(*options, *model);
}
