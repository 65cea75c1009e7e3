#include "cli/stress/modules.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "conformance/cases/corpus.h"
#include "conformance/runner/runner.h"
#include "core/frontend/hlo_parser.h"

namespace phal::cli::stress {
namespace {

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

}  // namespace

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

}  // namespace phal::cli::stress
