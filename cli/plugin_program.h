// A program compiled for one device of a plugin through the public C++ API
// (polyhal.hpp), as any application compiles one: what `polyhal run`,
// `polyhal bench` and `polyhal stress` share. The file's text goes to the
// runtime as it is, once; the parameter shapes come from the executable.
// Compiling, uploading arguments and executing are separate steps so that a
// benchmark can time each of them.
#ifndef POLYHAL_CLI_PLUGIN_PROGRAM_H_
#define POLYHAL_CLI_PLUGIN_PROGRAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/hlo/literal.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/status.h"

namespace phal::cli {

// The first device of the plugin named `name`; the error says why the
// plugin has no device, or how to list the plugins that were found.
StatusOr<Device> FindPluginDevice(const Client& client,
                                  const std::string& name);

// The first `count` devices of the plugin named `name`, in the client's
// order; the error says how many it has, and how to get more.
StatusOr<std::vector<Device>> FindPluginDevices(const Client& client,
                                                const std::string& name,
                                                int64_t count);

class PluginProgram {
 public:
  // Compiles `text`, a module in `format`, for `device`; `source_name`
  // names it in the runtime's errors (file:line:column). The client must
  // outlive the program.
  static StatusOr<PluginProgram> Compile(const Device& device,
                                         std::string_view text,
                                         phal_program_format_t format,
                                         const std::string& source_name);
  // Loads a serialized executable (phal_executable_deserialize) on
  // `device`.
  static StatusOr<PluginProgram> Deserialize(const Device& device,
                                             std::string_view bytes);

  // The shapes of the parameters, tuples flattened.
  StatusOr<std::vector<Shape>> ParameterShapes() const;

  // Copies `arguments` into new buffers on the program's device.
  StatusOr<std::vector<Buffer>> Upload(
      const std::vector<Literal>& arguments) const;

  // Runs the program once on `inputs` and returns its result buffers, one
  // per leaf of the root in order.
  StatusOr<std::vector<Buffer>> Execute(const std::vector<Buffer>& inputs);

  // The leaves copied to the host: the one result, or a tuple of them when
  // the program has another number of results.
  StatusOr<Literal> Download(std::vector<Buffer>& results) const;

 private:
  PluginProgram(Device device, Executable executable)
      : device_(std::move(device)), executable_(std::move(executable)) {}
  static StatusOr<PluginProgram> Make(const Device& device,
                                      Result<Executable> executable);

  Device device_;
  Executable executable_;
};

// A Status from a C++ wrapper error.
Status StatusFromError(const Error& error);

// `arguments` copied to new buffers of `device`.
StatusOr<std::vector<Buffer>> UploadArguments(
    const Device& device, const std::vector<Literal>& arguments);

}  // namespace phal::cli

#endif  // POLYHAL_CLI_PLUGIN_PROGRAM_H_
