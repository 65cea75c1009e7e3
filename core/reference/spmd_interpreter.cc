#include "core/reference/spmd_interpreter.h"

#include <string>

#include "core/hlo/process_groups.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/reference/spmd_process.h"

namespace phal {

StatusOr<std::vector<Literal>> EvaluateSpmd(
    const HloModule& module, const std::vector<std::vector<Literal>>& arguments,
    const SpmdOptions& options) {
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
  std::vector<Literal> results(static_cast<std::size_t>(count));
  PHAL_RETURN_IF_ERROR(reference::RunGrid(
      grid, options.collective_timeout,
      [&](int64_t k, reference::SpmdProcess* process) -> Status {
        const auto index = static_cast<std::size_t>(k);
        PHAL_ASSIGN_OR_RETURN(
            results[index],
            reference::EvaluateProcess(module, arguments[index], process));
        return OkStatus();
      }));
  return results;
}

}  // namespace phal
