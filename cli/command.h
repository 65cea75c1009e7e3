// The polyhal command-line tool: one function per subcommand, a shared
// argument reader, and exit codes (0 success, 1 failure, 2 usage error).
#ifndef POLYHAL_CLI_COMMAND_H_
#define POLYHAL_CLI_COMMAND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "polyhal/polyhal.hpp"

namespace phal::cli {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// The arguments after the subcommand name.
using Arguments = std::vector<std::string>;

// Reads flags of a subcommand. Unknown options are a usage error.
class ArgumentReader {
 public:
  ArgumentReader(std::string command, const Arguments& arguments)
      : command_(std::move(command)), arguments_(arguments) {}

  // Consumes `--name` if present.
  bool Flag(const std::string& name);
  // Consumes `--name VALUE` or `--name=VALUE`, possibly repeated.
  std::vector<std::string> Values(const std::string& name);
  // Consumes `--name VALUE` or `--name=VALUE` once; "" when absent.
  std::string Value(const std::string& name);
  // Arguments not starting with "--", in order, consumed.
  std::vector<std::string> Positionals();
  // Prints an error for anything left and returns false.
  bool Done();
  // The one positional argument, the module file, read after every option:
  // kExitSuccess, or the usage exit code after printing why (anything
  // left, no file, several).
  int ModuleFile(std::string* path);
  // Prints "polyhal COMMAND: message" and a hint to stderr.
  int UsageError(const std::string& message) const;

 private:
  std::string command_;
  Arguments arguments_;
  std::vector<bool> used_ = std::vector<bool>(arguments_.size(), false);
};

// Options of `polyhal run`, shared by the HLO and StableHLO paths.
struct RunOptions {
  std::string module_path;
  std::string plugin = "cpu";       // "reference" runs the interpreter
  bool plugin_chosen = false;       // --plugin was given
  std::vector<std::string> inputs;  // .npy files bound to parameters
  std::string output_dir;           // "" writes no files
  bool print = false;               // print results as numpy would
  bool random_inputs = false;       // fill missing inputs from `seed`
  uint64_t seed = 0;
  int64_t devices = 0;      // --devices N; 0: one device
  bool per_device = false;  // also write each device's outputs
  // --distributed mpi: one process per MPI rank; --distributed tcp: the
  // processes meet at --coordinator, this one --process-id of
  // --num-processes.
  std::string distributed;
  std::string coordinator;
  int process_id = 0;
  int num_processes = 0;
};

// A client configured from the environment; prints the error on failure.
Result<Client> OpenClient();

int RunPlugins(const Arguments& arguments);
int RunDevices(const Arguments& arguments);
// `polyhal run`: parses the options, then runs an HLO text module or a
// StableHLO file (by extension: .mlir is StableHLO).
int RunModule(const Arguments& arguments);
int RunHloFile(const RunOptions& options);
// `polyhal run MODULE --devices N`: a program for N processes on the
// plugin's first N devices (or the reference's grid), with global inputs
// and outputs.
int RunOnDevicesFile(const RunOptions& options);
// `mpirun -np N polyhal run MODULE --distributed mpi`, or N processes of
// `polyhal run MODULE --distributed tcp --coordinator HOST:PORT
// --num-processes N --process-id K`: a program over the devices of N
// processes.
int RunDistributedFile(const RunOptions& options);
int RunStableHloFile(const RunOptions& options);
// `polyhal run FILE` for a serialized executable (polyhal compile's output,
// told apart by PHAL_SERIALIZED_EXECUTABLE_MAGIC).
bool IsSerializedExecutableFile(const std::string& path);
int RunExecutableFile(const RunOptions& options);
// `polyhal compile MODULE --plugin NAME [--target T] --output FILE
// [--dump-dir DIR]`: ahead-of-time compilation on a compile-only device.
int RunCompile(const Arguments& arguments);
// `polyhal bench MODULE`: compile, first-run and repeated-run times.
int RunBench(const Arguments& arguments);
// `polyhal convert FILE.mlir --to hlo`.
int RunConvert(const Arguments& arguments);
// `polyhal conformance --plugin NAME|PATH ...` (docs/conformance.md).
int RunConformance(const Arguments& arguments);
// `polyhal stress [--plugin NAME]... [--threads N] [--duration S] ...`:
// load and soak (docs/reliability.md, "Load and soak").
int RunStress(const Arguments& arguments);

}  // namespace phal::cli

#endif  // POLYHAL_CLI_COMMAND_H_
