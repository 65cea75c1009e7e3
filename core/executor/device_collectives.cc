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
#include "sdk/base/hash.h"

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

// A group's members on this rank, as this rank sees them: kAbsent where
// it has none, 0 where they cannot run the op on one communicator, else a
// value naming their plugin (every rank of a group must name the same).
constexpr uint64_t kAbsent = 1;

uint64_t PluginValue(const phal_plugin_api_t* api) {
  return Fnv1a(api->name != nullptr ? api->name : "") | 2;
}

// This rank's value for `group` of an op described by `descs`:
// programs[k] is process k's program, null on another rank; `spans` says
// whether the group's processes live on several ranks (the plugin must
// then join a communicator over them).
StatusOr<uint64_t> LocalValue(const std::vector<int64_t>& group,
                              std::span<const LoadedProgram* const> programs,
                              const std::vector<CollectiveDesc>& descs,
                              bool spans) {
  const phal_plugin_api_t* api = nullptr;
  std::set<const phal_plugin_device_t*> devices;
  for (int64_t process : group) {
    const LoadedProgram* program = programs[static_cast<std::size_t>(process)];
    if (program == nullptr) continue;
    if (api == nullptr) api = program->api();
    if (program->api() != api || !devices.insert(program->device()).second) {
      return 0;
    }
  }
  if (api == nullptr) return kAbsent;
  // A table the loader did not complete (a test's device) may lack slots.
  if (spans ? api->struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_12 ||
                  api->device_supports_joined_collective == nullptr ||
                  api->communicator_make_id == nullptr ||
                  api->communicator_join == nullptr
            : api->struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_8 ||
                  api->device_supports_collective == nullptr) {
    return 0;
  }
  for (const phal_plugin_device_t* device : devices) {
    for (const CollectiveDesc& desc : descs) {
      const phal_collective_desc_t c = desc.ToC();
      int supported = 0;
      auto* handle = const_cast<phal_plugin_device_t*>(device);
      PHAL_RETURN_IF_ERROR(TakeCStatus(
          spans
              ? api->device_supports_joined_collective(
                    handle, &c, static_cast<uint32_t>(group.size()), &supported)
              : api->device_supports_collective(handle, &c, &supported)));
      if (supported != 1) return 0;
    }
  }
  return PluginValue(api);
}

// The ranks' values of one group agree on one plugin.
bool Agree(std::span<const uint64_t> values) {
  uint64_t named = kAbsent;
  for (uint64_t value : values) {
    if (value == 0) return false;
    if (value == kAbsent) continue;
    if (named != kAbsent && value != named) return false;
    named = value;
  }
  return named != kAbsent;
}

std::vector<uint8_t> ToBytes(const std::vector<uint64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(uint64_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// What a joined communicator's ranks compare before each collective.
struct JoinedHeader {
  int64_t op = 0;
  int64_t sequence = 0;
};

}  // namespace

StatusOr<std::unique_ptr<DeviceCollectives>> DeviceCollectives::Create(
    std::span<const LoadedProgram* const> programs,
    std::chrono::milliseconds timeout) {
  const Program& program = programs[0]->program();
  const ProcessGrid grid{program.replica_count, program.num_partitions};
  if (static_cast<int64_t>(programs.size()) != grid.process_count()) {
    std::unique_ptr<DeviceCollectives> out(new DeviceCollectives);
    out->ops_.resize(program.process_ops.size());
    return out;
  }
  return Build(programs, program, nullptr, timeout);
}

StatusOr<std::unique_ptr<DeviceCollectives>> DeviceCollectives::CreateOnRank(
    std::span<const LoadedProgram* const> programs,
    const DistributedGrid& grid) {
  const std::vector<int64_t>& local = grid.local_processes();
  if (programs.empty() || programs.size() != local.size()) {
    return InvalidArgument("rank " + std::to_string(grid.transport().rank()) +
                           " runs " + std::to_string(local.size()) +
                           " processes, got " +
                           std::to_string(programs.size()) + " programs");
  }
  std::vector<const LoadedProgram*> by_process(
      static_cast<std::size_t>(grid.grid().process_count()), nullptr);
  for (std::size_t i = 0; i < local.size(); ++i) {
    by_process[static_cast<std::size_t>(local[i])] = programs[i];
  }
  return Build(by_process, programs[0]->program(), &grid, grid.timeout());
}

StatusOr<std::unique_ptr<DeviceCollectives>> DeviceCollectives::Build(
    std::span<const LoadedProgram* const> programs, const Program& program,
    const DistributedGrid* job, std::chrono::milliseconds timeout) {
  std::unique_ptr<DeviceCollectives> out(new DeviceCollectives);
  out->grid_ = job;
  const ProcessGrid grid{program.replica_count, program.num_partitions};
  out->ops_.resize(program.process_ops.size());
  // PHAL_STAGE_COLLECTIVES=1 stages every collective, to compare; every
  // rank of a job reads the same environment.
  const char* stage = std::getenv("PHAL_STAGE_COLLECTIVES");
  if (stage != nullptr && std::strcmp(stage, "1") == 0) return out;
  const int me = job != nullptr ? job->transport().rank() : 0;
  const auto rank_of = [&](int64_t process) {
    return job != nullptr ? job->rank_of(process) : 0;
  };
  const auto spans = [&](const std::vector<int64_t>& group) {
    for (int64_t process : group) {
      if (rank_of(process) != rank_of(group[0])) return true;
    }
    return false;
  };
  // Every op's plan, and this rank's value of each of its groups.
  std::vector<std::optional<OpPlan>> plans(program.process_ops.size());
  std::vector<uint64_t> values;
  for (std::size_t op = 0; op < program.process_ops.size(); ++op) {
    PHAL_ASSIGN_OR_RETURN(plans[op],
                          PlanOp(*program.process_ops[op], grid, timeout));
    if (!plans[op].has_value()) continue;
    for (const std::vector<int64_t>& group : plans[op]->groups) {
      PHAL_ASSIGN_OR_RETURN(
          uint64_t value,
          LocalValue(group, programs, plans[op]->operands, spans(group)));
      values.push_back(value);
    }
  }
  std::vector<std::vector<uint64_t>> all = {values};
  if (job != nullptr && job->transport().size() > 1) {
    PHAL_ASSIGN_OR_RETURN(
        std::vector<std::vector<uint8_t>> gathered,
        job->transport().AllGather(
            ToBytes(values), kJoinedAgreementTag, timeout,
            "agreeing on the collectives the plugins run (process " +
                std::to_string(me) + ")"));
    all.assign(gathered.size(), std::vector<uint64_t>(values.size()));
    for (std::size_t r = 0; r < gathered.size(); ++r) {
      if (!values.empty()) {
        std::memcpy(all[r].data(), gathered[r].data(), gathered[r].size());
      }
    }
  }
  // The ops every rank runs on the slots, and their distinct groups in
  // order of first use.
  std::vector<bool> on_slots(program.process_ops.size(), false);
  std::vector<std::vector<int64_t>> groups;
  std::map<std::vector<int64_t>, int> group_index;
  std::size_t next_value = 0;
  for (std::size_t op = 0; op < program.process_ops.size(); ++op) {
    if (!plans[op].has_value()) continue;
    bool agreed = true;
    for (std::size_t g = 0; g < plans[op]->groups.size(); ++g) {
      std::vector<uint64_t> ranks;
      for (const std::vector<uint64_t>& rank_values : all) {
        ranks.push_back(rank_values[next_value + g]);
      }
      agreed = agreed && Agree(ranks);
    }
    next_value += plans[op]->groups.size();
    if (!agreed) continue;
    on_slots[op] = true;
    for (const std::vector<int64_t>& group : plans[op]->groups) {
      if (group_index.emplace(group, static_cast<int>(groups.size())).second) {
        groups.push_back(group);
      }
    }
  }
  // Identifiers of the groups that span ranks, made by the rank of each
  // group's first process and handed to every rank in one exchange.
  std::vector<phal_communicator_id_t> ids(groups.size());
  bool any_joined = false;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!spans(groups[g])) continue;
    any_joined = true;
    const LoadedProgram* first =
        programs[static_cast<std::size_t>(groups[g][0])];
    if (first == nullptr) continue;
    const Status made = TakeCStatus(
        first->api()->communicator_make_id(first->device(), &ids[g]));
    if (!made.ok()) {
      return Status(made.code(), "making the communicator of processes " +
                                     reference::ProcessListToString(groups[g]) +
                                     ": " + made.message());
    }
  }
  if (any_joined && job->transport().size() > 1) {
    std::vector<uint8_t> mine(ids.size() * sizeof(phal_communicator_id_t));
    std::memcpy(mine.data(), ids.data(), mine.size());
    PHAL_ASSIGN_OR_RETURN(
        std::vector<std::vector<uint8_t>> gathered,
        job->transport().AllGather(
            mine, kJoinedAgreementTag, timeout,
            "handing out the communicators' identifiers (process " +
                std::to_string(me) + ")"));
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!spans(groups[g])) continue;
      const auto leader = static_cast<std::size_t>(rank_of(groups[g][0]));
      std::memcpy(&ids[g],
                  gathered[leader].data() + g * sizeof(phal_communicator_id_t),
                  sizeof(phal_communicator_id_t));
    }
  }
  // Every communicator with a process on this rank, in the same order on
  // every rank (a join waits for the other ranks' joins).
  out->communicators_.resize(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::vector<int64_t>& group = groups[g];
    Communicator& communicator = out->communicators_[g];
    communicator.processes = group;
    communicator.ranks.assign(group.size(), nullptr);
    communicator.entered.assign(group.size(), 0);
    communicator.inside.assign(group.size(), false);
    communicator.finished.assign(group.size(), false);
    std::vector<phal_plugin_device_t*> devices;
    std::vector<uint32_t> ranks;
    for (std::size_t i = 0; i < group.size(); ++i) {
      communicator.job_ranks.push_back(rank_of(group[i]));
      const LoadedProgram* program =
          programs[static_cast<std::size_t>(group[i])];
      if (program == nullptr) continue;
      if (devices.empty()) communicator.local_leader = i;
      communicator.api = program->api();
      devices.push_back(program->device());
      ranks.push_back(static_cast<uint32_t>(i));
    }
    if (devices.empty()) continue;
    std::vector<phal_plugin_communicator_t*> handles(devices.size(), nullptr);
    communicator.joined = spans(group);
    const Status created = TakeCStatus(
        communicator.joined
            ? communicator.api->communicator_join(
                  &ids[g], static_cast<uint32_t>(group.size()), devices.data(),
                  ranks.data(), static_cast<uint32_t>(devices.size()),
                  static_cast<uint64_t>(timeout.count()), handles.data())
            : communicator.api->communicator_create(
                  devices.data(), static_cast<uint32_t>(devices.size()),
                  handles.data()));
    if (!created.ok()) {
      return Status(created.code(),
                    std::string(communicator.joined ? "joining" : "creating") +
                        " a communicator over processes " +
                        reference::ProcessListToString(group) + ": " +
                        created.message());
    }
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      communicator.ranks[ranks[i]] = handles[i];
    }
    if (communicator.joined) ++out->joined_count_;
  }
  for (std::size_t op = 0; op < program.process_ops.size(); ++op) {
    if (!on_slots[op]) continue;
    std::vector<std::unique_ptr<DeviceCollective>>& parts = out->ops_[op];
    parts.resize(programs.size());
    const std::string name = std::string(program.process_ops[op]
                                             ->entry_computation()
                                             ->root_instruction()
                                             ->name());
    for (const std::vector<int64_t>& group : plans[op]->groups) {
      const int index = group_index.at(group);
      const Communicator& communicator =
          out->communicators_[static_cast<std::size_t>(index)];
      for (std::size_t rank = 0; rank < group.size(); ++rank) {
        if (communicator.ranks[rank] == nullptr) continue;
        auto part = std::make_unique<DeviceCollective>();
        part->op = static_cast<int>(op);
        part->api = communicator.api;
        part->communicator = communicator.ranks[rank];
        part->group = index;
        part->rank = static_cast<uint32_t>(rank);
        part->ranks = static_cast<uint32_t>(group.size());
        part->operands = plans[op]->operands;
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
      if (rank != nullptr) communicator.api->communicator_destroy(rank);
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
  if (!communicator.abort_reason.ok()) return;
  const auto handle = std::find_if(
      communicator.ranks.begin(), communicator.ranks.end(),
      [](const phal_plugin_communicator_t* rank) { return rank != nullptr; });
  if (handle == communicator.ranks.end()) return;
  communicator.abort_reason = std::move(reason);
  TakeCStatus(communicator.api->communicator_abort(*handle)).ok();
}

Status DeviceCollectives::FinishedWithoutArriving(
    const Communicator& communicator, std::size_t rank) {
  return DeadlineExceeded("missing processes {" +
                          std::to_string(communicator.processes[rank]) +
                          "}: it finished the program without arriving");
}

Status DeviceCollectives::Enter(const DeviceCollective& call) {
  Communicator& communicator =
      communicators_[static_cast<std::size_t>(call.group)];
  int64_t sequence = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!communicator.abort_reason.ok()) return communicator.abort_reason;
    sequence = communicator.entered[call.rank]++;
    communicator.inside[call.rank] = true;
    for (std::size_t r = 0; r < communicator.ranks.size(); ++r) {
      if (communicator.finished[r] && communicator.entered[r] <= sequence) {
        return FinishedWithoutArriving(communicator, r);
      }
    }
    if (!communicator.joined || call.rank != communicator.local_leader) {
      return OkStatus();
    }
  }
  // The meeting runs unlocked: the rank's other processes go on queuing.
  Status met = MeetRanks(call, communicator, sequence);
  if (met.ok()) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  // The rank's other members of the group, waiting in the plugin for
  // peers that will not come, stop.
  AbortLocked(communicator, met);
  return met;
}

Status DeviceCollectives::MeetRanks(const DeviceCollective& call,
                                    const Communicator& group,
                                    int64_t sequence) const {
  const int me = grid_->transport().rank();
  std::set<int> peers(group.job_ranks.begin(), group.job_ranks.end());
  peers.erase(me);
  const JoinedHeader mine{call.op, sequence};
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  for (int peer : peers) {
    std::vector<uint8_t> bytes(sizeof(JoinedHeader));
    std::memcpy(bytes.data(), &mine, sizeof(mine));
    sends.push_back({peer, std::move(bytes)});
    receives.push_back({peer, std::vector<uint8_t>(sizeof(JoinedHeader))});
  }
  const std::string what = call.label + " (collective " +
                           std::to_string(sequence) + " of its communicator)";
  PHAL_RETURN_IF_ERROR(grid_->transport().Exchange(
      sends, receives, kFirstJoinedTag + call.group % kJoinedTagCount,
      grid_->timeout(), what));
  for (const HostTransport::Message& message : receives) {
    JoinedHeader theirs;
    std::memcpy(&theirs, message.bytes.data(), sizeof(theirs));
    if (theirs.op != mine.op || theirs.sequence != mine.sequence) {
      return FailedPrecondition(
          what + ": rank " + std::to_string(message.peer) +
          " is at process op " + std::to_string(theirs.op) + ", collective " +
          std::to_string(theirs.sequence) + " of the communicator, rank " +
          std::to_string(me) + " at process op " + std::to_string(mine.op) +
          ": the ranks run different programs");
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
