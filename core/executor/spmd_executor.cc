#include "core/executor/spmd_executor.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/executor/device_collectives.h"
#include "core/hlo/process_groups.h"
#include "core/reference/spmd_process.h"

namespace phal {
namespace {

// Every process's results, or `failure` with the results of the processes
// that finished freed.
StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> TakeResults(
    std::span<const LoadedProgram* const> programs,
    std::vector<StatusOr<std::vector<phal_plugin_buffer_t*>>> results,
    const Status& failure) {
  if (!failure.ok()) {
    for (std::size_t k = 0; k < results.size(); ++k) {
      if (results[k].ok()) programs[k]->FreeBuffers(*results[k]);
    }
    return failure;
  }
  std::vector<std::vector<phal_plugin_buffer_t*>> buffers;
  for (auto& result : results) buffers.push_back(std::move(result).value());
  return buffers;
}

}  // namespace

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
    std::chrono::milliseconds collective_timeout,
    std::unique_ptr<DeviceCollectives>* kept) {
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
  std::unique_ptr<DeviceCollectives> made;
  std::unique_ptr<DeviceCollectives>& collectives =
      kept != nullptr ? *kept : made;
  if (collectives == nullptr) {
    PHAL_ASSIGN_OR_RETURN(
        collectives, DeviceCollectives::Create(programs, collective_timeout));
  } else {
    collectives->Prepare(collective_timeout);
  }
  std::vector<StatusOr<std::vector<phal_plugin_buffer_t*>>> results(
      programs.size(), Internal("the process did not run"));
  const Status failure =
      reference::RunGrid(grid, collective_timeout,
                         [&](int64_t k, reference::SpmdProcess* process) {
                           const auto index = static_cast<std::size_t>(k);
                           results[index] = programs[index]->Execute(
                               arguments[index], process, collectives.get());
                           // Peers waiting for this process on a communicator
                           // stop waiting.
                           collectives->Finish(k, results[index].status());
                           return results[index].status();
                         });
  // A failure may leave the communicators aborted or their ranks at
  // different collectives.
  if (!failure.ok() || !collectives->reusable()) collectives.reset();
  return TakeResults(programs, std::move(results), failure);
}

StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> ExecuteSpmdOnRank(
    std::span<const LoadedProgram* const> programs,
    std::span<const std::vector<phal_plugin_buffer_t*>> arguments,
    const DistributedGrid& grid, DeviceCollectives* collectives) {
  const std::vector<int64_t>& local = grid.local_processes();
  if (programs.size() != local.size() || arguments.size() != local.size()) {
    return InvalidArgument(
        "rank " + std::to_string(grid.transport().rank()) + " runs " +
        std::to_string(local.size()) + " processes, got " +
        std::to_string(programs.size()) + " programs and arguments for " +
        std::to_string(arguments.size()));
  }
  if (collectives != nullptr) collectives->Prepare(grid.timeout());
  std::vector<StatusOr<std::vector<phal_plugin_buffer_t*>>> results(
      programs.size(), Internal("the process did not run"));
  const Status failure =
      grid.Run([&](int64_t k, reference::ProcessContext* process) {
        const auto index = static_cast<std::size_t>(
            std::find(local.begin(), local.end(), k) - local.begin());
        results[index] =
            programs[index]->Execute(arguments[index], process, collectives);
        if (collectives != nullptr) {
          collectives->Finish(k, results[index].status());
        }
        return results[index].status();
      });
  return TakeResults(programs, std::move(results), failure);
}

}  // namespace phal
