#include "cli/stress/options.h"

#include <charconv>
#include <string>
#include <system_error>

namespace phal::cli::stress {
namespace {

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

}  // namespace

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

}  // namespace phal::cli::stress
