#include "cli/run_support.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cli/plugin_program.h"
#include "core/compiler/spmd_partitioner.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/mlir_bytecode.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"
#include "core/io/npy.h"
#include "core/reference/interpreter.h"

namespace phal::cli {
namespace {

std::string DescribeParameters(const HloComputation& entry) {
  std::string text;
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction* parameter = entry.parameter_instruction(i);
    text += "\n  parameter " + std::to_string(i) + " '" + parameter->name() +
            "': " + parameter->shape().ToString();
  }
  return text;
}

Status CheckInput(const Literal& input, const HloInstruction& parameter,
                  int64_t index, const std::string& file) {
  if (input.shape().Compatible(parameter.shape())) return OkStatus();
  return InvalidArgument(
      "input " + std::to_string(index) + " (" + file + ") is " +
      input.shape().ToString() + " but parameter " + std::to_string(index) +
      " '" + parameter.name() + "' is " + parameter.shape().ToString());
}

void FillRandom(Literal* literal, std::mt19937_64& generator) {
  if (literal->IsTuple()) {
    for (Literal& element : literal->mutable_tuple_elements()) {
      FillRandom(&element, generator);
    }
    return;
  }
  ElementType type = literal->element_type();
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> signed_int(-10, 10);
  std::uniform_int_distribution<int64_t> unsigned_int(0, 10);
  std::uniform_int_distribution<int64_t> boolean(0, 1);
  for (int64_t i = 0; i < literal->ElementCount(); ++i) {
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      literal->SetFromInt64(i, boolean(generator));
    } else if (IsSigned(type)) {
      literal->SetFromInt64(i, signed_int(generator));
    } else if (IsUnsigned(type)) {
      literal->SetFromInt64(i, unsigned_int(generator));
    } else if (IsComplex(type)) {
      double re = real(generator);
      literal->SetFromComplex(i, {re, real(generator)});
    } else {
      literal->SetFromDouble(i, real(generator));
    }
  }
}

void Flatten(const Literal& literal, std::vector<const Literal*>* leaves) {
  if (!literal.IsTuple()) {
    leaves->push_back(&literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) {
    Flatten(element, leaves);
  }
}

}  // namespace

bool IsStableHloPath(const std::string& path) {
  for (std::string_view suffix : {".mlir", ".mlirbc"}) {
    if (path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  return file.read(magic, sizeof(magic)) &&
         IsMlirBytecode(std::string_view(magic, sizeof(magic)));
}

phal_program_format_t ProgramFormatOf(const std::string& path) {
  return IsStableHloPath(path) ? PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT
                               : PHAL_PROGRAM_FORMAT_HLO_TEXT;
}

StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFound(path + ": cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Internal(path + ": read error");
  return text.str();
}

Status CheckOneModule(const std::string& path, std::string_view text,
                      const std::string& command) {
  if (IsStableHloPath(path) && SplitStableHloParts(text).size() != 1) {
    return InvalidArgument(path +
                           ": holds several modules separated by "
                           "'// -----'; " +
                           command + " takes one");
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<HloModule>> LoadOneModule(const std::string& path,
                                                   const std::string& command) {
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  std::unique_ptr<HloModule> module;
  PHAL_RETURN_IF_ERROR(CheckOneModule(path, text, command));
  if (IsStableHloPath(path)) {
    PHAL_ASSIGN_OR_RETURN(StableHloModule program, ParseStableHlo(text, path));
    if (program.EntryFunction() == nullptr) {
      return InvalidArgument(path +
                             ": no entry function: name one @main or make "
                             "exactly one function public");
    }
    module = std::move(program.module);
  } else {
    PHAL_ASSIGN_OR_RETURN(module, ParseHloText(text, path));
  }
  PHAL_RETURN_IF_ERROR(VerifyModule(*module));
  if (!module->spmd_global()) return module;
  StatusOr<std::unique_ptr<HloModule>> partitioned = PartitionSpmd(*module);
  if (!partitioned.ok()) {
    return Status(partitioned.status().code(),
                  path + ": " + std::string(partitioned.status().message()));
  }
  PHAL_RETURN_IF_ERROR(VerifyModule(**partitioned));
  return partitioned;
}

int ParseRunOptions(ArgumentReader& reader, RunOptions* options) {
  std::string plugin = reader.Value("--plugin");
  if (!plugin.empty()) options->plugin = plugin;
  options->plugin_chosen = !plugin.empty();
  options->inputs = reader.Values("--input");
  options->output_dir = reader.Value("--output-dir");
  options->print = reader.Flag("--print");
  const std::string devices = reader.Value("--devices");
  if (!devices.empty()) {
    auto [end, error] = std::from_chars(
        devices.data(), devices.data() + devices.size(), options->devices);
    if (error != std::errc() || end != devices.data() + devices.size() ||
        options->devices < 1) {
      return reader.UsageError(
          "--devices takes a positive number of devices, "
          "not '" +
          devices + "'");
    }
  }
  options->distributed = reader.Value("--distributed");
  options->coordinator = reader.Value("--coordinator");
  const std::string process_id = reader.Value("--process-id");
  const std::string num_processes = reader.Value("--num-processes");
  if (!options->distributed.empty() && options->distributed != "mpi" &&
      options->distributed != "tcp") {
    return reader.UsageError("--distributed takes 'mpi' or 'tcp', not '" +
                             options->distributed + "'");
  }
  const bool tcp = options->distributed == "tcp";
  if (!tcp && (!options->coordinator.empty() || !process_id.empty() ||
               !num_processes.empty())) {
    return reader.UsageError(
        "--coordinator, --process-id and --num-processes go with "
        "--distributed tcp");
  }
  if (tcp) {
    const auto number = [](const std::string& text, int* out) {
      auto [end, error] =
          std::from_chars(text.data(), text.data() + text.size(), *out);
      return !text.empty() && error == std::errc() &&
             end == text.data() + text.size();
    };
    if (options->coordinator.empty() ||
        !number(num_processes, &options->num_processes) ||
        options->num_processes < 1 ||
        !number(process_id, &options->process_id) || options->process_id < 0 ||
        options->process_id >= options->num_processes) {
      return reader.UsageError(
          "--distributed tcp needs --coordinator HOST:PORT, --num-processes "
          "N (at least 1) and --process-id K (0 <= K < N)");
    }
  }
  options->per_device = reader.Flag("--per-device");
  if (options->per_device && options->devices == 0) {
    return reader.UsageError("--per-device needs --devices N");
  }
  std::string seed = reader.Value("--random-inputs");
  if (!seed.empty()) {
    auto [end, error] =
        std::from_chars(seed.data(), seed.data() + seed.size(), options->seed);
    if (error != std::errc() || end != seed.data() + seed.size()) {
      return reader.UsageError(
          "--random-inputs takes a non-negative integer "
          "seed, not '" +
          seed + "'");
    }
    options->random_inputs = true;
  }
  return reader.ModuleFile(&options->module_path);
}

Literal RandomLiteral(const Shape& shape, uint64_t seed) {
  std::mt19937_64 generator(seed);
  Literal literal(shape);
  FillRandom(&literal, generator);
  return literal;
}

StatusOr<std::vector<Literal>> BindInputs(const HloComputation& entry,
                                          const RunOptions& options) {
  int64_t count = entry.num_parameters();
  int64_t given = static_cast<int64_t>(options.inputs.size());
  if (given > count) {
    return InvalidArgument(std::to_string(given) +
                           " inputs given but the "
                           "entry computation '" +
                           entry.name() + "' takes " + std::to_string(count) +
                           ":" + DescribeParameters(entry));
  }
  if (given < count && !options.random_inputs) {
    return InvalidArgument(
        "the entry computation '" + entry.name() + "' takes " +
        std::to_string(count) + " inputs but " + std::to_string(given) +
        " were given; pass --input FILE.npy for each parameter, in order, "
        "or --random-inputs SEED:" +
        DescribeParameters(entry));
  }
  std::vector<Literal> arguments;
  for (int64_t i = 0; i < count; ++i) {
    const HloInstruction& parameter = *entry.parameter_instruction(i);
    if (i < given) {
      const std::string& file = options.inputs[static_cast<size_t>(i)];
      PHAL_ASSIGN_OR_RETURN(Literal input, ReadNpy(file));
      PHAL_RETURN_IF_ERROR(CheckInput(input, parameter, i, file));
      arguments.push_back(std::move(input));
    } else {
      arguments.push_back(RandomLiteral(
          parameter.shape(), options.seed + static_cast<uint64_t>(i)));
    }
  }
  return arguments;
}

std::string DescribeShapes(const std::vector<Shape>& shapes) {
  std::string text;
  for (size_t i = 0; i < shapes.size(); ++i) {
    text += "\n  parameter " + std::to_string(i) + ": " + shapes[i].ToString();
  }
  return text;
}

StatusOr<std::vector<Literal>> BindInputsToShapes(
    const std::vector<Shape>& shapes, const RunOptions& options) {
  const size_t given = options.inputs.size();
  if (given > shapes.size() ||
      (given < shapes.size() && !options.random_inputs)) {
    return InvalidArgument(
        "the program takes " + std::to_string(shapes.size()) + " inputs but " +
        std::to_string(given) +
        " were given; pass --input FILE.npy for each parameter, in order, or "
        "--random-inputs SEED:" +
        DescribeShapes(shapes));
  }
  std::vector<Literal> arguments;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i >= given) {
      arguments.push_back(RandomLiteral(shapes[i], options.seed + i));
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(Literal input, ReadNpy(options.inputs[i]));
    if (!input.shape().Compatible(shapes[i])) {
      return InvalidArgument("input " + std::to_string(i) + " (" +
                             options.inputs[i] + ") is " +
                             input.shape().ToString() + " but parameter " +
                             std::to_string(i) + " is " + shapes[i].ToString());
    }
    arguments.push_back(std::move(input));
  }
  return arguments;
}

namespace {

// Compiles `text` for the first device of `plugin`, runs it once on the
// buffers `upload` makes on the program's device, and downloads the result.
template <typename Upload>
StatusOr<Literal> CompileAndRun(std::string_view text,
                                phal_program_format_t format,
                                const std::string& source_name,
                                const std::string& plugin, Upload&& upload) {
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  PHAL_ASSIGN_OR_RETURN(Device device, FindPluginDevice(*client, plugin));
  PHAL_ASSIGN_OR_RETURN(
      PluginProgram program,
      PluginProgram::Compile(device, text, format, source_name));
  PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> inputs, upload(program));
  PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> results, program.Execute(inputs));
  return program.Download(results);
}

}  // namespace

StatusOr<Literal> Execute(const HloModule& module,
                          const std::vector<Literal>& arguments,
                          const RunOptions& options) {
  if (options.plugin == "reference") return Evaluate(module, arguments);
  PHAL_ASSIGN_OR_RETURN(
      Literal result,
      CompileAndRun(HloModuleToText(module), PHAL_PROGRAM_FORMAT_HLO_TEXT,
                    module.name(), options.plugin,
                    [&](const PluginProgram& program) {
                      return program.Upload(arguments);
                    }));
  // A root tuple of one element comes back as its element.
  if (module.entry_computation()->root_instruction()->shape().IsTuple() &&
      !result.IsTuple()) {
    std::vector<Literal> leaves;
    leaves.push_back(std::move(result));
    return Literal::Tuple(std::move(leaves));
  }
  return result;
}

Status RunOnPlugin(const RunOptions& options) {
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  PHAL_ASSIGN_OR_RETURN(
      Literal result,
      CompileAndRun(
          text, ProgramFormatOf(options.module_path), options.module_path,
          options.plugin,
          [&](const PluginProgram& program) -> StatusOr<std::vector<Buffer>> {
            PHAL_ASSIGN_OR_RETURN(std::vector<Shape> shapes,
                                  program.ParameterShapes());
            PHAL_ASSIGN_OR_RETURN(std::vector<Literal> arguments,
                                  BindInputsToShapes(shapes, options));
            return program.Upload(arguments);
          }));
  return EmitOutputs(result, options);
}

std::vector<const Literal*> FlattenLeaves(const Literal& result) {
  std::vector<const Literal*> leaves;
  Flatten(result, &leaves);
  return leaves;
}

Status EmitOutputs(const Literal& result, const RunOptions& options) {
  std::vector<const Literal*> leaves = FlattenLeaves(result);
  if (!options.output_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.output_dir, error);
    if (error) {
      return Internal("cannot create the output directory " +
                      options.output_dir + ": " + error.message());
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::string path =
          options.output_dir + "/output_" + std::to_string(i) + ".npy";
      PHAL_RETURN_IF_ERROR(WriteNpy(path, *leaves[i]));
    }
  }
  if (options.print) {
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::printf("output_%zu: %s\n%s\n", i,
                  leaves[i]->shape().ToString().c_str(),
                  leaves[i]->ToString().c_str());
    }
  }
  return OkStatus();
}

}  // namespace phal::cli
