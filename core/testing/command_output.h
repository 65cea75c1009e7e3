// Runs a shell command for a test and captures what it printed (stdout and
// stderr together) and how it exited.
#ifndef POLYHAL_CORE_TESTING_COMMAND_OUTPUT_H_
#define POLYHAL_CORE_TESTING_COMMAND_OUTPUT_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace phal::testing {

struct CommandOutput {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string text;
};

inline CommandOutput RunCommand(const std::string& command) {
  CommandOutput result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof(chunk), pipe)) {
    result.text.append(chunk, n);
  }
  int status = pclose(pipe);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_COMMAND_OUTPUT_H_
