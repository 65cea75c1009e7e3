// The polyhal command-line tool: one function per subcommand, a shared
// argument reader, and exit codes (0 success, 1 failure, 2 usage error).
#ifndef POLYHAL_CORE_CLI_COMMAND_H_
#define POLYHAL_CORE_CLI_COMMAND_H_

#include <string>
#include <vector>

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
  // Prints "polyhal COMMAND: message" and a hint to stderr.
  int UsageError(const std::string& message) const;

 private:
  std::string command_;
  Arguments arguments_;
  std::vector<bool> used_ = std::vector<bool>(arguments_.size(), false);
};

int RunPlugins(const Arguments& arguments);
int RunDevices(const Arguments& arguments);

}  // namespace phal::cli

#endif  // POLYHAL_CORE_CLI_COMMAND_H_
