// `polyhal run FILE.mlir`: every part of a StableHLO file (parts are
// separated by "// -----" lines) is its own module; each runs its entry
// function (`main`, or the only public function) like an HLO module runs,
// then evaluates the checks the module contains. A file of one module
// without checks runs on a plugin as an HLO file does: the runtime takes
// its text.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/run_support.h"
#include "core/frontend/check_evaluator.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"

namespace phal::cli {
namespace {

struct CheckTally {
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t skipped = 0;
};

// The function's own results, without the values its checks compare.
Literal FunctionResults(const StableHloFunction& function,
                        std::vector<Literal>& outputs) {
  if (!function.returns_tuple) return std::move(outputs[0]);
  std::vector<Literal> results;
  for (int64_t i = 0; i < function.result_count; ++i) {
    results.push_back(std::move(outputs[static_cast<std::size_t>(i)]));
  }
  if (results.size() == 1) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

Status RunPart(const SourceText& source, const StableHloPart& part,
               std::size_t part_index, std::size_t part_count,
               const RunOptions& options, CheckTally* tally) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHloPart(source, part));
  const StableHloFunction* entry = program.EntryFunction();
  if (entry == nullptr) {
    return InvalidArgument(
        source.LocationOf(part.begin) +
        ": error: no entry function: name one @main or make exactly "
        "one function public");
  }
  PHAL_RETURN_IF_ERROR(VerifyModule(*program.module));
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> arguments,
                        BindInputs(*entry->computation, options));
  PHAL_ASSIGN_OR_RETURN(Literal result,
                        Execute(*program.module, arguments, options));
  std::vector<Literal> outputs =
      SplitFunctionOutputs(*entry, std::move(result));
  for (const CheckResult& check : EvaluateChecks(*entry, outputs)) {
    if (check.skipped) {
      ++tally->skipped;
      std::printf("skipped: %s\n", DescribeCheckResult(check).c_str());
    } else if (check.passed) {
      ++tally->passed;
    } else {
      ++tally->failed;
      std::printf("FAILED: %s\n", DescribeCheckResult(check).c_str());
    }
  }
  RunOptions part_options = options;
  if (part_count > 1) {
    if (options.print) std::printf("@%s:\n", entry->name.c_str());
    if (!options.output_dir.empty()) {
      part_options.output_dir =
          options.output_dir + "/part_" + std::to_string(part_index);
    }
  }
  return EmitOutputs(FunctionResults(*entry, outputs), part_options);
}

}  // namespace

int RunStableHloFile(const RunOptions& options) {
  StatusOr<std::string> text = ReadTextFile(options.module_path);
  if (!text.ok()) {
    std::fprintf(stderr, "polyhal run: %s\n", text.status().message().c_str());
    return kExitFailure;
  }
  const SourceText source(*text, options.module_path);
  const std::vector<StableHloPart> parts = SplitStableHloParts(*text);
  // One module without checks on a plugin: the runtime takes the file.
  if (options.plugin != "reference" && parts.size() == 1 &&
      text->find("check.") == std::string::npos) {
    const Status status = RunOnPlugin(options);
    if (status.ok()) return kExitSuccess;
    std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
    return kExitFailure;
  }
  CheckTally tally;
  int64_t failed_parts = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Status status =
        RunPart(source, parts[i], i, parts.size(), options, &tally);
    if (!status.ok()) {
      ++failed_parts;
      std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
    }
  }
  if (tally.passed + tally.failed + tally.skipped > 0) {
    std::printf("%lld passed, %lld failed",
                static_cast<long long>(tally.passed),
                static_cast<long long>(tally.failed));
    if (tally.skipped > 0)
      std::printf(", %lld skipped", static_cast<long long>(tally.skipped));
    std::printf("\n");
  }
  if (failed_parts > 0 && parts.size() > 1) {
    std::fprintf(stderr, "polyhal run: %lld of %zu parts failed\n",
                 static_cast<long long>(failed_parts), parts.size());
  }
  return failed_parts == 0 && tally.failed == 0 ? kExitSuccess : kExitFailure;
}

}  // namespace phal::cli
