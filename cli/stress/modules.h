// The modules `polyhal stress` runs: built-in conformance cases or module
// files, with their inputs and the reference's results.
#ifndef POLYHAL_CLI_STRESS_MODULES_H_
#define POLYHAL_CLI_STRESS_MODULES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/stress/options.h"
#include "conformance/cases/input_spec.h"
#include "conformance/runner/tolerance.h"
#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/status.h"

namespace phal::cli::stress {

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

// The modules of the run: the built-in cases `--filter` selects (a default
// list without it), or the module files of `--modules`.
StatusOr<std::vector<StressModule>> LoadModules(const StressOptions& options);

// Input set `set` of `module`: the case's input specs with a seed of the
// set, or, for a module file, the values `polyhal run --random-inputs`
// gives (small integers, so that loop bounds and indices stay small).
std::vector<Literal> MakeArguments(const StressModule& module, uint64_t seed,
                                   int64_t set);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_MODULES_H_
