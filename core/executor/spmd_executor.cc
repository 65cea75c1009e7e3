#include "core/executor/spmd_executor.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "core/hlo/process_groups.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/spmd_process.h"

namespace phal {

StatusOr<std::chrono::milliseconds> CollectiveTimeoutFromEnv(
    std::chrono::milliseconds fallback) {
  const char* text = std::getenv("PHAL_COLLECTIVE_TIMEOUT");
  if (text == nullptr) return fallback;
  char* end = nullptr;
  errno = 0;
  const double seconds = std::strtod(text, &end);
  if (end == text || errno != 0 || *end != '\0' || !std::isfinite(seconds) ||
      seconds <= 0 || seconds > 1e6) {
    return InvalidArgument("PHAL_COLLECTIVE_TIMEOUT='" + std::string(text) +
                           "' is not a number of seconds in (0, 1000000]");
  }
  return std::chrono::milliseconds(
      static_cast<int64_t>(std::ceil(seconds * 1000.0)));
}

StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> ExecuteSpmd(
    std::span<const LoadedProgram* const> programs,
    std::span<const std::vector<phal_plugin_buffer_t*>> arguments,
    std::chrono::milliseconds collective_timeout) {
  const auto count = static_cast<int64_t>(programs.size());
  if (count == 0) return InvalidArgument("no devices to run the program on");
  const Program& program = programs[0]->program();
  const ProcessGrid grid{program.replica_count, program.num_partitions};
  if (grid.process_count() != count) {
    return InvalidArgument(
        "the program runs on " + std::to_string(grid.replicas) +
        " replicas x " + std::to_string(grid.partitions) +
        " partitions = " + std::to_string(grid.process_count()) +
        " devices, got " + std::to_string(count));
  }
  if (arguments.size() != programs.size()) {
    return InvalidArgument("got arguments for " +
                           std::to_string(arguments.size()) + " devices of " +
                           std::to_string(count));
  }
  reference::CollectiveRendezvous rendezvous(count, collective_timeout);
  std::vector<std::unique_ptr<reference::SpmdProcess>> processes;
  for (int64_t k = 0; k < count; ++k) {
    processes.push_back(
        std::make_unique<reference::SpmdProcess>(k, grid, &rendezvous));
  }
  std::vector<StatusOr<std::vector<phal_plugin_buffer_t*>>> results(
      programs.size(), Internal("the process did not run"));
  std::mutex failure_mutex;
  std::optional<int64_t> first_failure;
  const auto run = [&](int64_t k) {
    const auto index = static_cast<std::size_t>(k);
    results[index] =
        programs[index]->Execute(arguments[index], processes[index].get());
    if (!results[index].ok()) {
      // Errors caused by the first failure come after it.
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!first_failure.has_value()) first_failure = k;
    }
    rendezvous.Finish(k, results[index].status());
  };
  std::vector<std::thread> threads;
  Status start_failure;
  // Process 0 runs on the calling thread, after the others started.
  for (int64_t k = 1; k < count; ++k) {
    try {
      threads.emplace_back(run, k);
    } catch (const std::system_error& error) {
      start_failure = ResourceExhausted("cannot start a thread for " +
                                        reference::DescribeProcess(k, grid) +
                                        ": " + error.what());
      for (int64_t rest = k; rest < count; ++rest) {
        rendezvous.Finish(rest, start_failure);
      }
      break;
    }
  }
  run(0);
  for (std::thread& thread : threads) thread.join();
  Status failure = start_failure;
  if (failure.ok() && first_failure.has_value()) {
    const Status& cause =
        results[static_cast<std::size_t>(*first_failure)].status();
    failure =
        Status(cause.code(), reference::DescribeProcess(*first_failure, grid) +
                                 ": " + cause.message());
  }
  std::vector<std::vector<phal_plugin_buffer_t*>> buffers;
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (!failure.ok()) {
      if (results[k].ok()) programs[k]->FreeBuffers(*results[k]);
      continue;
    }
    buffers.push_back(std::move(results[k]).value());
  }
  if (!failure.ok()) return failure;
  return buffers;
}

}  // namespace phal
