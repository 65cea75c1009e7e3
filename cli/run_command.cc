// `polyhal run MODULE`: on a plugin, the runtime compiles the file and the
// inputs bind to its parameters; on the reference, the CLI parses,
// verifies and interprets it. Then the outputs are emitted.
#include <cstdio>

#include "cli/run_support.h"
#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"

namespace phal::cli {
namespace {

Status RunHlo(const RunOptions& options) {
  if (options.plugin != "reference") return RunOnPlugin(options);
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                        ParseHloText(text, options.module_path));
  PHAL_RETURN_IF_ERROR(VerifyModule(*module));
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> arguments,
                        BindInputs(*module->entry_computation(), options));
  PHAL_ASSIGN_OR_RETURN(Literal result, Execute(*module, arguments, options));
  return EmitOutputs(result, options);
}

}  // namespace

int RunHloFile(const RunOptions& options) {
  Status status = RunHlo(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
  return kExitFailure;
}

int RunModule(const Arguments& arguments) {
  ArgumentReader reader("run", arguments);
  RunOptions options;
  int parsed = ParseRunOptions(reader, &options);
  if (parsed != kExitSuccess) return parsed;
  if (IsSerializedExecutableFile(options.module_path)) {
    return RunExecutableFile(options);
  }
  if (!options.distributed.empty()) return RunDistributedFile(options);
  if (options.devices > 0) return RunOnDevicesFile(options);
  if (IsStableHloPath(options.module_path)) return RunStableHloFile(options);
  return RunHloFile(options);
}

}  // namespace phal::cli
