// `polyhal convert FILE --to hlo [--partition]`: prints a StableHLO file
// (MLIR text or a portable artifact) as XLA HLO text, one module per
// "// -----" part; with --partition, the per-device program of a global SPMD
// program (an HLO file too). `--to stablehlo` prints the StableHLO text a
// portable artifact holds.
#include <cstdio>
#include <string>

#include "cli/command.h"
#include "cli/run_support.h"
#include "core/compiler/spmd_partitioner.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/mlir_bytecode.h"
#include "core/frontend/portable_artifact.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"

namespace phal::cli {
namespace {

// Prints `module`, partitioned first when asked.
Status PrintModule(const HloModule& module, bool partition,
                   const std::string& where) {
  if (!partition) {
    std::printf("%s", HloModuleToText(module).c_str());
    return OkStatus();
  }
  if (!module.spmd_global()) {
    std::printf("%s", HloModuleToText(module).c_str());
    std::fprintf(stderr,
                 "polyhal convert: %s: a per-device program already (no "
                 "shardings to partition): printed as it is\n",
                 where.c_str());
    return OkStatus();
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> partitioned,
                        PartitionSpmd(module));
  PHAL_ASSIGN_OR_RETURN(CommunicationCost cost,
                        CommunicationCostOf(*partitioned));
  std::printf("%s", HloModuleToText(*partitioned).c_str());
  std::fprintf(stderr,
               "polyhal convert: %s: per-device program for %lld devices: "
               "%lld collectives, %lld bytes sent per device per execution\n",
               where.c_str(),
               static_cast<long long>(partitioned->num_partitions()),
               static_cast<long long>(cost.collective_count),
               static_cast<long long>(cost.bytes_sent));
  return OkStatus();
}

Status PrintPartAsHlo(const SourceText& source, const StableHloPart& part,
                      bool partition) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHloPart(source, part));
  if (program.module->entry_computation() == nullptr) {
    return InvalidArgument(
        source.LocationOf(part.begin) +
        ": error: no entry function: name one @main or make exactly "
        "one function public");
  }
  return PrintModule(*program.module, partition, source.LocationOf(part.begin));
}

}  // namespace

int RunConvert(const Arguments& arguments) {
  ArgumentReader reader("convert", arguments);
  const std::string target = reader.Value("--to");
  const bool partition = reader.Flag("--partition");
  const std::vector<std::string> files = reader.Positionals();
  if (!reader.Done()) return kExitUsage;
  if (files.size() != 1) return reader.UsageError("expects one FILE.mlir");
  if (target != "hlo" && target != "stablehlo") {
    return reader.UsageError("--to must be 'hlo' or 'stablehlo'");
  }
  StatusOr<std::string> text = ReadTextFile(files[0]);
  std::string source_name = files[0];
  if (text.ok() && IsMlirBytecode(*text)) {
    text = PortableArtifactToStableHlo(*text, files[0]);
    source_name += " (read as StableHLO text)";
  }
  if (!text.ok()) {
    std::fprintf(stderr, "polyhal convert: %s\n",
                 text.status().message().c_str());
    return kExitFailure;
  }
  if (target == "stablehlo") {
    if (!IsStableHloPath(files[0])) {
      return reader.UsageError(
          "--to stablehlo reads StableHLO text or a portable artifact");
    }
    std::printf("%s", text->c_str());
    return kExitSuccess;
  }
  if (!IsStableHloPath(files[0])) {
    StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(*text, files[0]);
    Status status = module.status();
    if (status.ok()) status = PrintModule(**module, partition, files[0]);
    if (!status.ok()) {
      std::fprintf(stderr, "polyhal convert: %s\n", status.message().c_str());
      return kExitFailure;
    }
    return kExitSuccess;
  }
  const SourceText source(*text, source_name);
  int exit_code = kExitSuccess;
  bool first = true;
  for (const StableHloPart& part : SplitStableHloParts(*text)) {
    if (!first) std::printf("\n");
    first = false;
    const Status status = PrintPartAsHlo(source, part, partition);
    if (!status.ok()) {
      std::fprintf(stderr, "polyhal convert: %s\n", status.message().c_str());
      exit_code = kExitFailure;
    }
  }
  return exit_code;
}

}  // namespace phal::cli
