// Running work in child processes, so that a plugin that crashes or hangs
// costs one case and not the run. The parent stays single-threaded and
// never loads the plugin: each child is forked from a process with no
// plugin threads or locks to inherit.
#ifndef POLYHAL_CONFORMANCE_RUNNER_CHILD_PROCESS_H_
#define POLYHAL_CONFORMANCE_RUNNER_CHILD_PROCESS_H_

#include <cstddef>
#include <functional>
#include <string>

namespace phal::conformance {

struct ChildOutcome {
  enum class Kind {
    kCompleted,  // the child wrote its output and exited 0
    kCrashed,    // killed by a signal, or exited without an output
    kTimedOut,   // still running after the timeout; killed
  };
  Kind kind = Kind::kCompleted;
  std::string output;  // what the task returned, when kCompleted
  std::string detail;  // "killed by signal 11 (Segmentation fault)", ...
  double seconds = 0;
};

// Runs task(0) .. task(count - 1), each in a child process of its own, at
// most `jobs` at once. In the child the task's return value is written to
// the parent and the child exits without running destructors or atexit
// handlers. on_done(index, outcome) runs in the parent as each child ends.
void RunInChildren(
    std::size_t count, int jobs, double timeout_seconds,
    const std::function<std::string(std::size_t)>& task,
    const std::function<void(std::size_t, ChildOutcome)>& on_done);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_CHILD_PROCESS_H_
