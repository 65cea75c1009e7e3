#include "core/executor/device_collectives.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <utility>

#include "core/abi/c_status.h"
#include "core/hlo/process_groups.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/collectives.h"
#include "core/reference/spmd_process.h"

namespace phal {

std::optional<phal_reduction_t> ReductionOf(const HloInstruction& op) {
  if (op.to_apply() == nullptr) return std::nullopt;
  const std::optional<HloOpcode> plain =
      reference::PlainReducer(*op.to_apply());
  if (!plain.has_value()) return std::nullopt;
  switch (*plain) {
    case HloOpcode::kAdd:
      return PHAL_REDUCTION_SUM;
    case HloOpcode::kMultiply:
      return PHAL_REDUCTION_PRODUCT;
    case HloOpcode::kMinimum:
      return PHAL_REDUCTION_MIN;
    case HloOpcode::kMaximum:
      return PHAL_REDUCTION_MAX;
    case HloOpcode::kAnd:
      return PHAL_REDUCTION_AND;
    case HloOpcode::kOr:
      return PHAL_REDUCTION_OR;
    default:
      return std::nullopt;
  }
}

namespace {

int64_t Product(const std::vector<int64_t>& dims, std::size_t begin,
                std::size_t end) {
  int64_t product = 1;
  for (std::size_t d = begin; d < end; ++d) product *= dims[d];
  return product;
}

// What one op is on the slots: its descriptions (pairs and root filled in
// on flattened process ids for permute, group ranks otherwise) and its
// groups of processes, or nullopt where it is staged.
struct OpPlan {
  std::vector<CollectiveDesc> operands;
  std::vector<std::vector<int64_t>> groups;
};

StatusOr<std::optional<OpPlan>> PlanOp(const HloModule& module,
                                       ProcessGrid grid,
                                       std::chrono::milliseconds timeout) {
  const HloComputation& entry = *module.entry_computation();
  const HloInstruction& op = *entry.root_instruction();
  OpPlan plan;
  CollectiveDesc base;
  base.timeout_ms = static_cast<uint64_t>(timeout.count());
  switch (op.opcode()) {
    case HloOpcode::kAllReduce:
      base.kind = PHAL_COLLECTIVE_ALL_REDUCE;
      break;
    case HloOpcode::kAllGather:
      base.kind = PHAL_COLLECTIVE_ALL_GATHER;
      break;
    case HloOpcode::kReduceScatter:
      base.kind = PHAL_COLLECTIVE_REDUCE_SCATTER;
      break;
    case HloOpcode::kAllToAll:
      // The tuple form sends whole operands: staged.
      if (op.dimensions().size() != 1) return std::optional<OpPlan>();
      base.kind = PHAL_COLLECTIVE_ALL_TO_ALL;
      break;
    case HloOpcode::kCollectivePermute:
      base.kind = PHAL_COLLECTIVE_PERMUTE;
      break;
    case HloOpcode::kCollectiveBroadcast:
      base.kind = PHAL_COLLECTIVE_BROADCAST;
      break;
    default:
      return std::optional<OpPlan>();
  }
  if (base.kind == PHAL_COLLECTIVE_ALL_REDUCE ||
      base.kind == PHAL_COLLECTIVE_REDUCE_SCATTER) {
    const std::optional<phal_reduction_t> reduction = ReductionOf(op);
    if (!reduction.has_value()) return std::optional<OpPlan>();
    base.reduction = *reduction;
  }
  PHAL_ASSIGN_OR_RETURN(plan.groups, ProcessGroupsOf(op, grid));
  if (base.kind == PHAL_COLLECTIVE_PERMUTE) {
    // One communicator over every process; the pairs name processes.
    for (const std::vector<int64_t>& pair : plan.groups) {
      base.pairs.push_back(
          {static_cast<uint32_t>(pair[0]), static_cast<uint32_t>(pair[1])});
    }
    plan.groups = {{}};
    for (int64_t k = 0; k < grid.process_count(); ++k) {
      plan.groups[0].push_back(k);
    }
  }
  if (base.kind == PHAL_COLLECTIVE_BROADCAST) {
    // A process in no group receives zeros: staged.
    std::size_t covered = 0;
    for (const std::vector<int64_t>& group : plan.groups) {
      covered += group.size();
    }
    if (static_cast<int64_t>(covered) != grid.process_count()) {
      return std::optional<OpPlan>();
    }
    base.root = 0;
  }
  const auto ranks = static_cast<int64_t>(plan.groups[0].size());
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const Shape& shape = entry.parameter_instruction(i)->shape();
    if (!shape.IsArray()) return std::optional<OpPlan>();
    CollectiveDesc desc = base;
    desc.element_type = shape.element_type();
    const std::vector<int64_t>& dims = shape.dims();
    std::size_t split = 0;
    if (base.kind == PHAL_COLLECTIVE_ALL_GATHER ||
        base.kind == PHAL_COLLECTIVE_REDUCE_SCATTER ||
        base.kind == PHAL_COLLECTIVE_ALL_TO_ALL) {
      split = static_cast<std::size_t>(op.dimensions(0));
    }
    desc.outer_count = static_cast<uint64_t>(Product(dims, 0, split));
    int64_t block = Product(dims, split, dims.size());
    if (base.kind == PHAL_COLLECTIVE_REDUCE_SCATTER ||
        base.kind == PHAL_COLLECTIVE_ALL_TO_ALL) {
      block /= ranks;
    }
    desc.block_count = static_cast<uint64_t>(block);
    if (desc.outer_count == 0) return std::optional<OpPlan>();
    plan.operands.push_back(std::move(desc));
  }
  if (plan.operands.empty()) return std::optional<OpPlan>();
  return std::optional<OpPlan>(std::move(plan));
}

// True when every process of every group runs on a distinct device of one
// plugin that supports every description.
StatusOr<bool> RunsOnSlots(const OpPlan& plan,
                           std::span<const LoadedProgram* const> programs) {
  for (const std::vector<int64_t>& group : plan.groups) {
    const phal_plugin_api_t* api =
        programs[static_cast<std::size_t>(group[0])]->api();
    // A table the loader did not complete (a test's device) may lack the
    // slots.
    if (api->struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_8 ||
        api->device_supports_collective == nullptr) {
      return false;
    }
    std::set<const phal_plugin_device_t*> devices;
    for (int64_t process : group) {
      const LoadedProgram& program =
          *programs[static_cast<std::size_t>(process)];
      if (program.api() != api || !devices.insert(program.device()).second) {
        return false;
      }
    }
    for (int64_t process : group) {
      const LoadedProgram& program =
          *programs[static_cast<std::size_t>(process)];
      for (const CollectiveDesc& desc : plan.operands) {
        const phal_collective_desc_t c = desc.ToC();
        int supported = 0;
        PHAL_RETURN_IF_ERROR(TakeCStatus(
            api->device_supports_collective(program.device(), &c, &supported)));
        if (supported != 1) return false;
      }
    }
  }
  return true;
}

}  // namespace

StatusOr<std::unique_ptr<DeviceCollectives>> DeviceCollectives::Create(
    std::span<const LoadedProgram* const> programs,
    std::chrono::milliseconds timeout) {
  std::unique_ptr<DeviceCollectives> out(new DeviceCollectives);
  const Program& program = programs[0]->program();
  const ProcessGrid grid{program.replica_count, program.num_partitions};
  out->ops_.resize(program.process_ops.size());
  // PHAL_STAGE_COLLECTIVES=1 stages every collective, to compare.
  const char* stage = std::getenv("PHAL_STAGE_COLLECTIVES");
  if (static_cast<int64_t>(programs.size()) != grid.process_count() ||
      (stage != nullptr && std::strcmp(stage, "1") == 0)) {
    return out;
  }
  std::map<std::vector<int64_t>, int> group_index;
  for (std::size_t op = 0; op < program.process_ops.size(); ++op) {
    const HloModule& module = *program.process_ops[op];
    PHAL_ASSIGN_OR_RETURN(std::optional<OpPlan> plan,
                          PlanOp(module, grid, timeout));
    if (!plan.has_value()) continue;
    PHAL_ASSIGN_OR_RETURN(bool on_slots, RunsOnSlots(*plan, programs));
    if (!on_slots) continue;
    std::vector<std::unique_ptr<DeviceCollective>>& parts = out->ops_[op];
    parts.resize(programs.size());
    const std::string name =
        std::string(module.entry_computation()->root_instruction()->name());
    for (const std::vector<int64_t>& group : plan->groups) {
      auto [found, added] = group_index.emplace(
          group, static_cast<int>(out->communicators_.size()));
      if (added) {
        Communicator& communicator = out->communicators_.emplace_back();
        communicator.api = programs[static_cast<std::size_t>(group[0])]->api();
        communicator.processes = group;
        std::vector<phal_plugin_device_t*> devices;
        for (int64_t process : group) {
          devices.push_back(
              programs[static_cast<std::size_t>(process)]->device());
        }
        communicator.ranks.assign(group.size(), nullptr);
        communicator.entered.assign(group.size(), 0);
        communicator.inside.assign(group.size(), false);
        communicator.finished.assign(group.size(), false);
        const Status created =
            TakeCStatus(communicator.api->communicator_create(
                devices.data(), static_cast<uint32_t>(devices.size()),
                communicator.ranks.data()));
        if (!created.ok()) {
          communicator.ranks.clear();
          return Status(created.code(),
                        "creating a communicator over processes " +
                            reference::ProcessListToString(group) + ": " +
                            created.message());
        }
      }
      const Communicator& communicator =
          out->communicators_[static_cast<std::size_t>(found->second)];
      for (std::size_t rank = 0; rank < group.size(); ++rank) {
        auto part = std::make_unique<DeviceCollective>();
        part->api = communicator.api;
        part->communicator = communicator.ranks[rank];
        part->group = found->second;
        part->rank = static_cast<uint32_t>(rank);
        part->ranks = static_cast<uint32_t>(group.size());
        part->operands = plan->operands;
        part->label =
            name + " over processes " + reference::ProcessListToString(group);
        parts[static_cast<std::size_t>(group[rank])] = std::move(part);
      }
    }
    ++out->device_op_count_;
  }
  return out;
}

DeviceCollectives::~DeviceCollectives() {
  for (Communicator& communicator : communicators_) {
    for (phal_plugin_communicator_t* rank : communicator.ranks) {
      communicator.api->communicator_destroy(rank);
    }
  }
}

const DeviceCollective* DeviceCollectives::Find(int op, int64_t process) const {
  if (op < 0 || static_cast<std::size_t>(op) >= ops_.size()) return nullptr;
  const auto& parts = ops_[static_cast<std::size_t>(op)];
  if (process < 0 || static_cast<std::size_t>(process) >= parts.size()) {
    return nullptr;
  }
  return parts[static_cast<std::size_t>(process)].get();
}

void DeviceCollectives::AbortLocked(Communicator& communicator, Status reason) {
  if (!communicator.abort_reason.ok() || communicator.ranks.empty()) return;
  communicator.abort_reason = std::move(reason);
  TakeCStatus(communicator.api->communicator_abort(communicator.ranks[0])).ok();
}

Status DeviceCollectives::FinishedWithoutArriving(
    const Communicator& communicator, std::size_t rank) {
  return DeadlineExceeded("missing processes {" +
                          std::to_string(communicator.processes[rank]) +
                          "}: it finished the program without arriving");
}

Status DeviceCollectives::Enter(const DeviceCollective& call) {
  std::lock_guard<std::mutex> lock(mutex_);
  Communicator& communicator =
      communicators_[static_cast<std::size_t>(call.group)];
  if (!communicator.abort_reason.ok()) return communicator.abort_reason;
  const int64_t sequence = communicator.entered[call.rank]++;
  communicator.inside[call.rank] = true;
  for (std::size_t r = 0; r < communicator.ranks.size(); ++r) {
    if (communicator.finished[r] && communicator.entered[r] <= sequence) {
      return FinishedWithoutArriving(communicator, r);
    }
  }
  return OkStatus();
}

void DeviceCollectives::Leave(const DeviceCollective& call) {
  std::lock_guard<std::mutex> lock(mutex_);
  communicators_[static_cast<std::size_t>(call.group)].inside[call.rank] =
      false;
}

void DeviceCollectives::Finish(int64_t process, const Status& status) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Communicator& communicator : communicators_) {
    const auto found = std::find(communicator.processes.begin(),
                                 communicator.processes.end(), process);
    if (found == communicator.processes.end()) continue;
    const auto rank =
        static_cast<std::size_t>(found - communicator.processes.begin());
    communicator.finished[rank] = true;
    if (!status.ok()) {
      AbortLocked(communicator, Aborted("process " + std::to_string(process) +
                                        " failed: " + status.message()));
      continue;
    }
    // A peer waiting at a collective this process never reached.
    for (std::size_t r = 0; r < communicator.ranks.size(); ++r) {
      if (communicator.inside[r] &&
          communicator.entered[r] > communicator.entered[rank]) {
        AbortLocked(communicator, FinishedWithoutArriving(communicator, rank));
        break;
      }
    }
  }
}

void DeviceCollectives::Prepare(std::chrono::milliseconds timeout) {
  for (auto& parts : ops_) {
    for (std::unique_ptr<DeviceCollective>& part : parts) {
      if (part == nullptr) continue;
      for (CollectiveDesc& desc : part->operands) {
        desc.timeout_ms = static_cast<uint64_t>(timeout.count());
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (Communicator& communicator : communicators_) {
    std::fill(communicator.entered.begin(), communicator.entered.end(), 0);
    std::fill(communicator.inside.begin(), communicator.inside.end(), false);
    std::fill(communicator.finished.begin(), communicator.finished.end(),
              false);
  }
}

bool DeviceCollectives::reusable() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Communicator& communicator : communicators_) {
    if (!communicator.abort_reason.ok()) return false;
  }
  return true;
}

Status DeviceCollectives::AbortReason(int group) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (group < 0 || static_cast<std::size_t>(group) >= communicators_.size()) {
    return OkStatus();
  }
  return communicators_[static_cast<std::size_t>(group)].abort_reason;
}

}  // namespace phal
