// `polyhal run FILE` for a serialized executable: loads it on the first
// device of its plugin, binds the inputs to its parameters by shape, runs
// it and emits the results as `polyhal run MODULE` does.
#include <cstdio>
#include <cstring>
#include <fstream>

#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "core/executor/serialized_program.h"
#include "core/io/npy.h"

namespace phal::cli {
namespace {

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
                        BindInputsToShapes(shapes, options));
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
