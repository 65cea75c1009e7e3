// Pieces `polyhal run` shares between its HLO and StableHLO paths: reading
// files, binding .npy inputs to parameters, executing on a plugin or the
// reference, and writing or printing the results.
#ifndef POLYHAL_CLI_RUN_SUPPORT_H_
#define POLYHAL_CLI_RUN_SUPPORT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "core/hlo/computation.h"
#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal::cli {

// StableHLO files are MLIR text (".mlir"); everything else is read as XLA
// HLO text.
bool IsStableHloPath(const std::string& path);
// The program format the runtime reads such a file in.
phal_program_format_t ProgramFormatOf(const std::string& path);

// Reads a whole file; the error names it.
StatusOr<std::string> ReadTextFile(const std::string& path);

// An error naming `command`, which takes one module, for a StableHLO file
// of several parts.
Status CheckOneModule(const std::string& path, std::string_view text,
                      const std::string& command);

// The verified module of an HLO text file, or of a StableHLO file of one
// part (several parts are an error naming `command`, which takes one).
StatusOr<std::unique_ptr<HloModule>> LoadOneModule(const std::string& path,
                                                   const std::string& command);

// Parses `--plugin`, `--input` (repeatable), `--output-dir`, `--print` and
// `--random-inputs SEED` into `options`; returns kExitSuccess or the usage
// exit code after printing the error.
int ParseRunOptions(ArgumentReader& reader, RunOptions* options);

// The arguments for `entry`: one .npy file per parameter, in order; with
// random inputs enabled, parameters without a file are filled from the
// seed. Missing inputs, extra inputs and shape or dtype mismatches are
// errors that list each parameter's shape.
StatusOr<std::vector<Literal>> BindInputs(const HloComputation& entry,
                                          const RunOptions& options);

// The same for parameters known only by their shapes (an executable's).
StatusOr<std::vector<Literal>> BindInputsToShapes(
    const std::vector<Shape>& shapes, const RunOptions& options);

// A deterministic random array of `shape`: floats uniform in [-1, 1),
// signed integers in [-10, 10], unsigned in [0, 10], pred 0 or 1.
Literal RandomLiteral(const Shape& shape, uint64_t seed);

// Runs the module's entry on `options.plugin` ("reference" is the
// interpreter). For a module the CLI had to parse itself (the reference,
// StableHLO files with checks); a plugin runs a file through RunOnPlugin.
StatusOr<Literal> Execute(const HloModule& module,
                          const std::vector<Literal>& arguments,
                          const RunOptions& options);

// Runs the module file `options.module_path` on the first device of
// `options.plugin`: its text goes to the runtime, which parses, verifies and
// compiles it; the inputs bind to the executable's parameter shapes.
Status RunOnPlugin(const RunOptions& options);

// The root's leaves, tuples flattened depth-first in order.
std::vector<const Literal*> FlattenLeaves(const Literal& result);

// Writes DIR/output_<i>.npy for each leaf when an output directory is set,
// and prints each leaf as numpy would with --print.
Status EmitOutputs(const Literal& result, const RunOptions& options);

}  // namespace phal::cli

#endif  // POLYHAL_CLI_RUN_SUPPORT_H_
