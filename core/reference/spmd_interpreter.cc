#include "core/reference/spmd_interpreter.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "core/hlo/process_groups.h"
#include "core/hlo/verifier.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/collectives.h"
#include "core/reference/interpreter.h"
#include "core/reference/process_context.h"
#include "core/reference/spmd_process.h"

namespace phal {

StatusOr<std::vector<Literal>> EvaluateSpmd(
    const HloModule& module, const std::vector<std::vector<Literal>>& arguments,
    const SpmdOptions& options) {
  using reference::CollectiveRendezvous;
  using reference::SpmdProcess;
  PHAL_RETURN_IF_ERROR(VerifyModule(module));
  const ProcessGrid grid{module.replica_count(), module.num_partitions()};
  const int64_t count = grid.process_count();
  if (grid.replicas < 1 || grid.partitions < 1) {
    return InvalidArgument("module " + module.name() + " has no processes");
  }
  if (static_cast<int64_t>(arguments.size()) != count) {
    return InvalidArgument("module " + module.name() + " runs on " +
                           std::to_string(grid.replicas) + " replicas x " +
                           std::to_string(grid.partitions) +
                           " partitions = " + std::to_string(count) +
                           " processes, got arguments for " +
                           std::to_string(arguments.size()));
  }
  CollectiveRendezvous rendezvous(count, options.collective_timeout);
  std::vector<std::unique_ptr<SpmdProcess>> processes;
  for (int64_t k = 0; k < count; ++k) {
    processes.push_back(std::make_unique<SpmdProcess>(k, grid, &rendezvous));
  }
  std::vector<Literal> results(static_cast<std::size_t>(count));
  std::mutex failure_mutex;
  std::optional<int64_t> first_failure;
  Status failure;
  const auto run = [&](int64_t k) {
    const auto index = static_cast<std::size_t>(k);
    StatusOr<Literal> result = reference::EvaluateProcess(
        module, arguments[index], processes[index].get());
    if (result.ok()) {
      results[index] = std::move(result).value();
    } else {
      // Errors caused by the first failure come after it.
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!first_failure.has_value()) {
        first_failure = k;
        failure = result.status();
      }
    }
    rendezvous.Finish(k, result.status());
  };
  std::vector<std::thread> threads;
  Status start_failure;
  for (int64_t k = 0; k < count; ++k) {
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
  for (std::thread& thread : threads) thread.join();
  if (!start_failure.ok()) return start_failure;
  if (first_failure.has_value()) {
    return Status(failure.code(),
                  reference::DescribeProcess(*first_failure, grid) + ": " +
                      failure.message());
  }
  return results;
}

}  // namespace phal
