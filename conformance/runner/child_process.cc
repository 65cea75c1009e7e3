#include "conformance/runner/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

namespace phal::conformance {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  std::size_t index = 0;
  pid_t pid = -1;
  int pipe = -1;
  Clock::time_point start;
  std::string output;
  bool eof = false;
};

void WriteAll(int fd, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void RunChild(
    int pipe, std::size_t index,
    const std::function<std::string(std::size_t)>& task) {
  WriteAll(pipe, task(index));
  close(pipe);
  _exit(0);
}

// Starts task(index); on failure to fork, reports a crash at once.
bool Start(std::size_t index,
           const std::function<std::string(std::size_t)>& task, Child* child,
           std::string* error) {
  int fds[2];
  if (pipe(fds) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    close(fds[0]);
    RunChild(fds[1], index, task);
  }
  close(fds[1]);
  *child = {index, pid, fds[0], Clock::now(), "", false};
  return true;
}

void Drain(Child* child) {
  char buffer[65536];
  const ssize_t n = read(child->pipe, buffer, sizeof(buffer));
  if (n > 0) {
    child->output.append(buffer, static_cast<std::size_t>(n));
  } else if (n == 0 || errno != EINTR) {
    child->eof = true;
  }
}

ChildOutcome Reap(Child* child, bool timed_out) {
  ChildOutcome outcome;
  outcome.seconds =
      std::chrono::duration<double>(Clock::now() - child->start).count();
  if (timed_out) kill(child->pid, SIGKILL);
  int status = 0;
  while (waitpid(child->pid, &status, 0) < 0 && errno == EINTR) {
  }
  close(child->pipe);
  if (timed_out) {
    outcome.kind = ChildOutcome::Kind::kTimedOut;
    return outcome;
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    outcome.kind = ChildOutcome::Kind::kCrashed;
    outcome.detail = "killed by signal " + std::to_string(signal) + " (" +
                     strsignal(signal) + ")";
    return outcome;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || child->output.empty()) {
    outcome.kind = ChildOutcome::Kind::kCrashed;
    outcome.detail =
        "exited with status " +
        std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
        " before reporting a result";
    return outcome;
  }
  outcome.output = std::move(child->output);
  return outcome;
}

}  // namespace

void RunInChildren(
    std::size_t count, int jobs, double timeout_seconds,
    const std::function<std::string(std::size_t)>& task,
    const std::function<void(std::size_t, ChildOutcome)>& on_done) {
  std::vector<Child> running;
  std::size_t next = 0;
  const auto timeout = std::chrono::duration<double>(timeout_seconds);
  while (next < count || !running.empty()) {
    while (next < count && running.size() < static_cast<std::size_t>(jobs)) {
      Child child;
      std::string error;
      if (Start(next, task, &child, &error)) {
        running.push_back(child);
      } else {
        on_done(next, {ChildOutcome::Kind::kCrashed, "", error, 0});
      }
      ++next;
    }
    std::vector<pollfd> fds;
    for (const Child& child : running) fds.push_back({child.pipe, POLLIN, 0});
    poll(fds.data(), fds.size(), 50);
    for (std::size_t i = 0; i < running.size(); ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        Drain(&running[i]);
      }
    }
    for (std::size_t i = running.size(); i-- > 0;) {
      Child& child = running[i];
      const bool timed_out = !child.eof && Clock::now() - child.start > timeout;
      if (!child.eof && !timed_out) continue;
      const std::size_t index = child.index;
      ChildOutcome outcome = Reap(&child, timed_out);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      on_done(index, std::move(outcome));
    }
  }
}

}  // namespace phal::conformance
