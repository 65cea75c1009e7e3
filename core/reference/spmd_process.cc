#include "core/reference/spmd_process.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "core/reference/collectives.h"

namespace phal::reference {
namespace {

// Zeros of the operands' shapes, a tuple when `instruction` has several:
// what collective-permute and collective-broadcast give a process that
// receives nothing.
Literal Zeros(const HloInstruction& instruction,
              const std::vector<Shape>& operand_shapes) {
  std::vector<Literal> zeros;
  for (const Shape& shape : operand_shapes) zeros.emplace_back(shape);
  if (!instruction.shape().IsTuple()) return std::move(zeros[0]);
  return Literal::Tuple(std::move(zeros));
}

}  // namespace

StatusOr<const SpmdProcess::ProcessGroupList*> SpmdProcess::GroupsOf(
    const HloInstruction& instruction) {
  auto found = groups_.find(&instruction);
  if (found == groups_.end()) {
    PHAL_ASSIGN_OR_RETURN(ProcessGroupList groups,
                          ProcessGroupsOf(instruction, grid_));
    found = groups_.emplace(&instruction, std::move(groups)).first;
  }
  return &found->second;
}

StatusOr<Literal> SpmdProcess::EvaluateCollective(
    const HloInstruction& instruction, std::span<const Literal* const> operands,
    ComputationRunner* runner) {
  PHAL_ASSIGN_OR_RETURN(const ProcessGroupList* groups, GroupsOf(instruction));
  CollectiveMeeting meeting;
  meeting.process = id_;
  meeting.sequence = next_sequence_++;
  meeting.instruction = &instruction;
  std::vector<Literal> values;
  std::vector<Shape> shapes;
  for (const Literal* operand : operands) {
    values.push_back(*operand);
    shapes.push_back(operand->shape());
  }
  if (instruction.opcode() == HloOpcode::kCollectivePermute) {
    return Permute(instruction, *groups, std::move(meeting), std::move(values));
  }
  const auto group = std::find_if(
      groups->begin(), groups->end(), [&](const std::vector<int64_t>& g) {
        return std::find(g.begin(), g.end(), id_) != g.end();
      });
  if (group == groups->end()) {
    // Only collective-broadcast may leave a process out (process_groups.h
    // checks the others cover every process): it receives zeros.
    PHAL_RETURN_IF_ERROR(rendezvous_->Exchange(meeting, {}).status());
    return Zeros(instruction, shapes);
  }
  meeting.group = *group;
  meeting.sources = *group;
  meeting.readers = static_cast<int64_t>(group->size());
  PHAL_ASSIGN_OR_RETURN(std::vector<CollectiveRendezvous::Operands> received,
                        rendezvous_->Exchange(meeting, std::move(values)));
  std::vector<const std::vector<Literal>*> group_operands;
  for (const CollectiveRendezvous::Operands& member : received) {
    group_operands.push_back(member.get());
  }
  const auto member = static_cast<int64_t>(
      std::find(group->begin(), group->end(), id_) - group->begin());
  return EvaluateGroupCollective(instruction, member, group_operands, runner);
}

// `pairs` are the {source, target} process pairs: a process takes the
// operands of its source, if it has one, and receives zeros otherwise; it
// waits for nobody else (its target takes its operands when it comes).
StatusOr<Literal> SpmdProcess::Permute(const HloInstruction& instruction,
                                       const ProcessGroupList& pairs,
                                       CollectiveMeeting meeting,
                                       std::vector<Literal> operands) {
  std::vector<Shape> shapes;
  for (const Literal& operand : operands) shapes.push_back(operand.shape());
  meeting.group = {id_};
  for (const std::vector<int64_t>& pair : pairs) {
    if (pair[0] == id_) meeting.readers = 1;
    if (pair[1] == id_) {
      meeting.sources = {pair[0]};
      meeting.group = pair;
    }
  }
  if (meeting.readers == 0) operands.clear();
  PHAL_ASSIGN_OR_RETURN(std::vector<CollectiveRendezvous::Operands> received,
                        rendezvous_->Exchange(meeting, std::move(operands)));
  if (received.empty()) return Zeros(instruction, shapes);
  const std::vector<Literal>& values = *received[0];
  if (!instruction.shape().IsTuple()) return values[0];
  return Literal::Tuple(values);
}

std::string DescribeProcess(int64_t process, ProcessGrid grid) {
  return "process " + std::to_string(process) + " (replica " +
         std::to_string(process / grid.partitions) + ", partition " +
         std::to_string(process % grid.partitions) + ")";
}

Status RunProcesses(std::span<const int64_t> processes, ProcessGrid grid,
                    CollectiveRendezvous& rendezvous,
                    const std::function<Status(int64_t)>& run) {
  std::mutex failure_mutex;
  std::optional<int64_t> first_failure;
  Status failure;
  const auto run_process = [&](int64_t k) {
    const Status status = run(k);
    if (!status.ok()) {
      // Errors caused by the first failure come after it.
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!first_failure.has_value()) {
        first_failure = k;
        failure = status;
      }
    }
    rendezvous.Finish(k, status);
  };
  std::vector<std::thread> threads;
  Status start_failure;
  for (std::size_t i = 1; i < processes.size(); ++i) {
    try {
      threads.emplace_back(run_process, processes[i]);
    } catch (const std::system_error& error) {
      start_failure = ResourceExhausted("cannot start a thread for " +
                                        DescribeProcess(processes[i], grid) +
                                        ": " + error.what());
      for (std::size_t rest = i; rest < processes.size(); ++rest) {
        rendezvous.Finish(processes[rest], start_failure);
      }
      break;
    }
  }
  if (!processes.empty()) run_process(processes[0]);
  for (std::thread& thread : threads) thread.join();
  if (!start_failure.ok()) return start_failure;
  if (first_failure.has_value()) {
    return Status(failure.code(), DescribeProcess(*first_failure, grid) + ": " +
                                      failure.message());
  }
  return OkStatus();
}

Status RunGrid(ProcessGrid grid, std::chrono::milliseconds timeout,
               const std::function<Status(int64_t, SpmdProcess*)>& run) {
  const int64_t count = grid.process_count();
  CollectiveRendezvous rendezvous(count, timeout);
  std::vector<std::unique_ptr<SpmdProcess>> processes;
  std::vector<int64_t> ids;
  for (int64_t k = 0; k < count; ++k) {
    processes.push_back(std::make_unique<SpmdProcess>(k, grid, &rendezvous));
    ids.push_back(k);
  }
  return RunProcesses(ids, grid, rendezvous, [&](int64_t k) {
    return run(k, processes[static_cast<std::size_t>(k)].get());
  });
}

}  // namespace phal::reference
