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

namespace phal {
namespace reference {
namespace {

using ProcessGroupList = std::vector<std::vector<int64_t>>;

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

// One process of the grid, run by one thread: its ids, the process groups
// of the collectives it executes, and its place in the rendezvous.
class SpmdProcess final : public ProcessContext {
 public:
  SpmdProcess(int64_t id, ProcessGrid grid, CollectiveRendezvous* rendezvous)
      : id_(id), grid_(grid), rendezvous_(rendezvous) {}

  int64_t replica_id() const override { return id_ / grid_.partitions; }
  int64_t partition_id() const override { return id_ % grid_.partitions; }
  bool cancelled() const override { return rendezvous_->cancelled(); }

  StatusOr<Literal> EvaluateCollective(const HloInstruction& instruction,
                                       std::span<const Literal* const> operands,
                                       ComputationRunner* runner) override;

 private:
  StatusOr<const ProcessGroupList*> GroupsOf(const HloInstruction& instruction);
  StatusOr<Literal> Permute(const HloInstruction& instruction,
                            const ProcessGroupList& pairs,
                            CollectiveMeeting meeting,
                            std::vector<Literal> operands);

  const int64_t id_;
  const ProcessGrid grid_;
  CollectiveRendezvous* rendezvous_;
  int64_t next_sequence_ = 0;
  std::unordered_map<const HloInstruction*, ProcessGroupList> groups_;
};

StatusOr<const ProcessGroupList*> SpmdProcess::GroupsOf(
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

}  // namespace
}  // namespace reference

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
