// `polyhal run FILE` for a serialized executable: loads it on the first
// device of its plugin, binds the inputs to its parameters by shape, runs
// it and emits the results as `polyhal run MODULE` does.
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/cli/plugin_program.h"
#include "core/cli/run_support.h"
#include "core/executor/serialized_program.h"
#include "core/io/npy.h"

namespace phal::cli {
namespace {

std::string DescribeShapes(const std::vector<Shape>& shapes) {
  std::string text;
  for (size_t i = 0; i < shapes.size(); ++i) {
    text += "\n  parameter " + std::to_string(i) + ": " + shapes[i].ToString();
  }
  return text;
}

// One argument per parameter: the .npy inputs in order, then random values
// when --random-inputs was given.
StatusOr<std::vector<Literal>> BindExecutableInputs(
    const std::vector<Shape>& shapes, const RunOptions& options) {
  const size_t given = options.inputs.size();
  if (given > shapes.size() ||
      (given < shapes.size() && !options.random_inputs)) {
    return InvalidArgument(
        "the executable takes " + std::to_string(shapes.size()) +
        " inputs but " + std::to_string(given) +
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

Status RunExecutable(const RunOptions& options) {
  PHAL_ASSIGN_OR_RETURN(std::string bytes, ReadTextFile(options.module_path));
  if (options.plugin == "reference") {
    return InvalidArgument(
        options.module_path +
        " is a serialized executable: it runs on a device of the plugin that "
        "compiled it, not on the reference interpreter");
  }
  // Without --plugin, the plugin named in the file.
  std::string plugin = options.plugin;
  if (!options.plugin_chosen) {
    StatusOr<SerializedProgram> read = ReadSerializedProgram(bytes);
    if (!read.ok()) {
      return Status(read.status().code(),
                    options.module_path + ": " + read.status().message());
    }
    plugin = read->header.plugin;
  }
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  PHAL_ASSIGN_OR_RETURN(Device device, FindPluginDevice(*client, plugin));
  StatusOr<PluginProgram> program = PluginProgram::Deserialize(device, bytes);
  if (!program.ok()) {
    return Status(program.status().code(),
                  options.module_path + ": " + program.status().message());
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<Shape> shapes, program->ParameterShapes());
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> arguments,
                        BindExecutableInputs(shapes, options));
  PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> inputs, program->Upload(arguments));
  PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> results, program->Execute(inputs));
  PHAL_ASSIGN_OR_RETURN(Literal result, program->Download(results));
  return EmitOutputs(result, options);
}

}  // namespace

bool IsSerializedExecutableFile(const std::string& path) {
  constexpr size_t kMagicSize = sizeof(PHAL_SERIALIZED_EXECUTABLE_MAGIC) - 1;
  char magic[kMagicSize] = {};
  std::ifstream file(path, std::ios::binary);
  file.read(magic, kMagicSize);
  return file.gcount() == static_cast<std::streamsize>(kMagicSize) &&
         std::memcmp(magic, PHAL_SERIALIZED_EXECUTABLE_MAGIC, kMagicSize) == 0;
}

int RunExecutableFile(const RunOptions& options) {
  Status status = RunExecutable(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
  return kExitFailure;
}

}  // namespace phal::cli
