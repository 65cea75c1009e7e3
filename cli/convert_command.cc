// `polyhal convert FILE.mlir --to hlo`: prints a StableHLO file as XLA HLO
// text, one module per "// -----" part.
#include <cstdio>
#include <string>

#include "cli/command.h"
#include "cli/run_support.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"

namespace phal::cli {
namespace {

Status PrintPartAsHlo(const SourceText& source, const StableHloPart& part) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHloPart(source, part));
  if (program.module->entry_computation() == nullptr) {
    return InvalidArgument(
        source.LocationOf(part.begin) +
        ": error: no entry function: name one @main or make exactly "
        "one function public");
  }
  std::printf("%s", HloModuleToText(*program.module).c_str());
  return OkStatus();
}

}  // namespace

int RunConvert(const Arguments& arguments) {
  ArgumentReader reader("convert", arguments);
  const std::string target = reader.Value("--to");
  const std::vector<std::string> files = reader.Positionals();
  if (!reader.Done()) return kExitUsage;
  if (files.size() != 1) return reader.UsageError("expects one FILE.mlir");
  if (target != "hlo") return reader.UsageError("--to must be 'hlo'");
  StatusOr<std::string> text = ReadTextFile(files[0]);
  if (!text.ok()) {
    std::fprintf(stderr, "polyhal convert: %s\n",
                 text.status().message().c_str());
    return kExitFailure;
  }
  const SourceText source(*text, files[0]);
  int exit_code = kExitSuccess;
  bool first = true;
  for (const StableHloPart& part : SplitStableHloParts(*text)) {
    if (!first) std::printf("\n");
    first = false;
    const Status status = PrintPartAsHlo(source, part);
    if (!status.ok()) {
      std::fprintf(stderr, "polyhal convert: %s\n", status.message().c_str());
      exit_code = kExitFailure;
    }
  }
  return exit_code;
}

}  // namespace phal::cli
