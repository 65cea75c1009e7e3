// A module compiled for one device of a plugin through the public C API:
// what `polyhal run` and `polyhal bench` share. Compiling, uploading
// arguments and executing are separate steps so that a benchmark can time
// each of them.
#ifndef POLYHAL_CORE_CLI_PLUGIN_PROGRAM_H_
#define POLYHAL_CORE_CLI_PLUGIN_PROGRAM_H_

#include <memory>
#include <string>
#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/status.h"

namespace phal::cli {

// The first device of the plugin named `name`; the error says why the
// plugin has no device, or how to list the plugins that were found.
StatusOr<Device> FindPluginDevice(const Client& client,
                                  const std::string& name);

class PluginProgram {
 public:
  // Compiles `module` for `device`. The client must outlive the program.
  static StatusOr<PluginProgram> Compile(const Device& device,
                                         const HloModule& module);
  // Loads a serialized executable (phal_executable_deserialize) on
  // `device`. Its results are downloaded as a tuple unless there is one.
  static StatusOr<PluginProgram> Deserialize(const Device& device,
                                             const std::string& bytes);

  // The shapes of the parameters, tuples flattened.
  StatusOr<std::vector<Shape>> ParameterShapes() const;

  // Copies `arguments` into new buffers on the program's device.
  StatusOr<std::vector<Buffer>> Upload(
      const std::vector<Literal>& arguments) const;

  // Runs the program once on `inputs` and returns its result buffers, one
  // per leaf of the root in order.
  StatusOr<std::vector<Buffer>> Execute(const std::vector<Buffer>& inputs);

  // The leaves copied to the host, as a tuple when the root is one.
  StatusOr<Literal> Download(std::vector<Buffer>& results) const;

 private:
  struct ExecutableDeleter {
    void operator()(phal_executable_t* executable) const {
      phal_executable_free(executable);
    }
  };

  PluginProgram(Device device, phal_executable_t* executable, bool tuple_root)
      : device_(std::move(device)),
        executable_(executable),
        tuple_root_(tuple_root) {}

  Device device_;
  std::unique_ptr<phal_executable_t, ExecutableDeleter> executable_;
  bool tuple_root_ = false;
};

// A Status from a C++ wrapper error.
Status StatusFromError(const Error& error);

}  // namespace phal::cli

#endif  // POLYHAL_CORE_CLI_PLUGIN_PROGRAM_H_
