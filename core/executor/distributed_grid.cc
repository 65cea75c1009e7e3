#include "core/executor/distributed_grid.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/executor/device_collectives.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/collectives.h"
#include "core/reference/spmd_process.h"
#include "sdk/base/hash.h"

namespace phal {
namespace {

using reference::CollectiveMeeting;
using reference::CollectiveRendezvous;

// What every message of a collective starts with, so that ranks at
// different collectives are told apart from ranks that are late.
struct Header {
  uint64_t sequence = 0;
  uint64_t fingerprint = 0;
};

// FNV-1a of the instruction's opcode, operand shapes and reduction.
uint64_t Fingerprint(const HloInstruction& instruction) {
  std::string text = std::string(HloOpcodeName(instruction.opcode()));
  for (const HloInstruction* operand : instruction.operands()) {
    text += " " + operand->shape().ToString();
  }
  if (instruction.to_apply() != nullptr) {
    text += " " + std::string(HloOpcodeName(
                      instruction.to_apply()->root_instruction()->opcode()));
  }
  return Fnv1a(text);
}

std::size_t ByteSizeOf(const std::vector<Literal>& literals) {
  std::size_t size = 0;
  for (const Literal& literal : literals) size += literal.byte_size();
  return size;
}

std::vector<uint8_t> Pack(const Header& header,
                          const std::vector<Literal>& literals) {
  std::vector<uint8_t> bytes(sizeof(Header) + ByteSizeOf(literals));
  std::memcpy(bytes.data(), &header, sizeof(Header));
  std::size_t offset = sizeof(Header);
  for (const Literal& literal : literals) {
    std::memcpy(bytes.data() + offset, literal.data(), literal.byte_size());
    offset += literal.byte_size();
  }
  return bytes;
}

// The leaves of a collective's result: a tuple's elements, else itself.
std::vector<Literal> Leaves(Literal literal) {
  if (!literal.IsTuple()) {
    std::vector<Literal> leaves;
    leaves.push_back(std::move(literal));
    return leaves;
  }
  return std::move(literal.mutable_tuple_elements());
}

Literal FromLeaves(const HloInstruction& instruction,
                   std::vector<Literal> leaves) {
  if (!instruction.shape().IsTuple()) return std::move(leaves[0]);
  return Literal::Tuple(std::move(leaves));
}

// One process of the grid on this rank.
class DistributedProcess final : public reference::ProcessContext {
 public:
  DistributedProcess(int64_t id, const DistributedGrid& grid,
                     CollectiveRendezvous& rendezvous)
      : id_(id), grid_(grid), rendezvous_(rendezvous) {}

  int64_t replica_id() const override { return id_ / grid_.grid().partitions; }
  int64_t partition_id() const override {
    return id_ % grid_.grid().partitions;
  }
  bool cancelled() const override { return rendezvous_.cancelled(); }

  StatusOr<Literal> EvaluateCollective(
      const HloInstruction& instruction,
      std::span<const Literal* const> operands,
      reference::ComputationRunner* runner) override;

 private:
  using ProcessGroupList = std::vector<std::vector<int64_t>>;

  // Sends each other rank of `ranks` this collective's header and checks
  // theirs.
  Status ExchangeHeaders(const HloInstruction& instruction, int64_t sequence,
                         int tag, const std::vector<int>& ranks,
                         const std::string& what);
  // The leader's part of a reduction the transport runs: `part`, reduced
  // in place with the other ranks' over the transport's group `handle`.
  Status ReduceAcrossRanks(const HloInstruction& instruction, int64_t sequence,
                           int tag, uint64_t handle,
                           const std::vector<int>& ranks,
                           const std::string& what, std::vector<Literal>& part);
  // The leader's part of any other collective: `part` (this rank's members'
  // operands, or their reduction) sent to every other rank of `ranks`, and
  // the group's values (the total, or every member's operands in group
  // order) made of what they send.
  StatusOr<std::vector<Literal>> ExchangeAcrossRanks(
      const HloInstruction& instruction, int64_t sequence, int tag,
      const std::vector<int64_t>& group, const std::vector<int>& ranks,
      const std::vector<Shape>& shapes, bool reduce_first,
      const std::string& what, std::vector<Literal> part,
      reference::ComputationRunner* runner);
  StatusOr<Literal> Permute(const HloInstruction& instruction,
                            const ProcessGroupList& pairs, int64_t sequence,
                            const std::string& what,
                            std::vector<Literal> values);
  // A meeting of this process's collective `sequence` (each collective
  // holds two: 2 * sequence and 2 * sequence + 1).
  CollectiveMeeting Meeting(const HloInstruction& instruction, int64_t sequence,
                            int stage, std::vector<int64_t> group) const;
  // Checks a message's header against this process's collective.
  Status CheckHeader(const HloInstruction& instruction, int64_t sequence,
                     const HostTransport::Message& message,
                     const std::string& what) const;
  // The literals of `shapes` read from `bytes` at `offset`, which moves
  // past them.
  static std::vector<Literal> Unpack(const std::vector<Shape>& shapes,
                                     const std::vector<uint8_t>& bytes,
                                     std::size_t* offset);

  const int64_t id_;
  const DistributedGrid& grid_;
  CollectiveRendezvous& rendezvous_;
  int64_t next_sequence_ = 0;
  std::unordered_map<const HloInstruction*, ProcessGroupList> groups_;
};

CollectiveMeeting DistributedProcess::Meeting(
    const HloInstruction& instruction, int64_t sequence, int stage,
    std::vector<int64_t> group) const {
  CollectiveMeeting meeting;
  meeting.process = id_;
  meeting.sequence = 2 * sequence + stage;
  meeting.instruction = &instruction;
  meeting.group = std::move(group);
  return meeting;
}

Status DistributedProcess::CheckHeader(const HloInstruction& instruction,
                                       int64_t sequence,
                                       const HostTransport::Message& message,
                                       const std::string& what) const {
  Header theirs;
  std::memcpy(&theirs, message.bytes.data(), sizeof(Header));
  if (theirs.sequence == static_cast<uint64_t>(sequence) &&
      theirs.fingerprint == Fingerprint(instruction)) {
    return OkStatus();
  }
  return FailedPrecondition(
      what + ": rank " + std::to_string(message.peer) +
      " is at another collective (do all ranks run the same program?)");
}

std::vector<Literal> DistributedProcess::Unpack(
    const std::vector<Shape>& shapes, const std::vector<uint8_t>& bytes,
    std::size_t* offset) {
  std::vector<Literal> literals;
  for (const Shape& shape : shapes) {
    Literal literal(shape);
    std::memcpy(literal.data(), bytes.data() + *offset, literal.byte_size());
    *offset += literal.byte_size();
    literals.push_back(std::move(literal));
  }
  return literals;
}

StatusOr<Literal> DistributedProcess::EvaluateCollective(
    const HloInstruction& instruction, std::span<const Literal* const> operands,
    reference::ComputationRunner* runner) {
  const int64_t sequence = next_sequence_++;
  const int me = grid_.transport().rank();
  std::string what = std::string(HloOpcodeName(instruction.opcode())) + " %" +
                     instruction.name() + " (collective #" +
                     std::to_string(sequence) + ") of process " +
                     std::to_string(id_) + " on rank " + std::to_string(me);
  auto found = groups_.find(&instruction);
  if (found == groups_.end()) {
    PHAL_ASSIGN_OR_RETURN(ProcessGroupList groups,
                          ProcessGroupsOf(instruction, grid_.grid()));
    found = groups_.emplace(&instruction, std::move(groups)).first;
  }
  const ProcessGroupList& groups = found->second;
  std::vector<Literal> values;
  std::vector<Shape> shapes;
  for (const Literal* operand : operands) {
    values.push_back(*operand);
    shapes.push_back(operand->shape());
  }
  if (instruction.opcode() == HloOpcode::kCollectivePermute) {
    return Permute(instruction, groups, sequence, what, std::move(values));
  }
  std::size_t group_index = groups.size();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (std::find(groups[g].begin(), groups[g].end(), id_) != groups[g].end()) {
      group_index = g;
    }
  }
  if (group_index == groups.size()) {
    // Only collective-broadcast may leave a process out: it receives
    // zeros.
    for (int stage = 0; stage < 2; ++stage) {
      PHAL_RETURN_IF_ERROR(
          rendezvous_.Exchange(Meeting(instruction, sequence, stage, {id_}), {})
              .status());
    }
    std::vector<Literal> zeros;
    for (const Shape& shape : shapes) zeros.emplace_back(shape);
    return FromLeaves(instruction, std::move(zeros));
  }
  const std::vector<int64_t>& group = groups[group_index];
  what += ", group " + reference::ProcessListToString(group);
  const auto member = static_cast<int64_t>(
      std::find(group.begin(), group.end(), id_) - group.begin());
  std::vector<int64_t> local;
  std::vector<int> ranks;  // every rank of the group, ascending
  for (int64_t process : group) {
    const int rank = grid_.rank_of(process);
    if (rank == me) local.push_back(process);
    if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end()) {
      ranks.push_back(rank);
    }
  }
  std::sort(ranks.begin(), ranks.end());

  // Stage 1: the members on this rank meet; a process that is its rank's
  // only member of a group spanning ranks keeps its values to itself.
  const bool alone = local.size() == 1 && ranks.size() > 1;
  std::vector<CollectiveRendezvous::Operands> mine;
  std::vector<const std::vector<Literal>*> local_sets;
  if (alone) {
    // The meeting only marks this process's place in the rank's sequence.
    PHAL_RETURN_IF_ERROR(
        rendezvous_.Exchange(Meeting(instruction, sequence, 0, group), {})
            .status());
    local_sets.push_back(&values);
  } else {
    CollectiveMeeting gather = Meeting(instruction, sequence, 0, group);
    gather.sources = local;
    gather.readers = static_cast<int64_t>(local.size());
    PHAL_ASSIGN_OR_RETURN(mine,
                          rendezvous_.Exchange(gather, std::move(values)));
    for (const CollectiveRendezvous::Operands& set : mine) {
      local_sets.push_back(set.get());
    }
  }
  if (ranks.size() == 1) {
    PHAL_RETURN_IF_ERROR(
        rendezvous_.Exchange(Meeting(instruction, sequence, 1, group), {})
            .status());
    return reference::EvaluateGroupCollective(instruction, member, local_sets,
                                              runner);
  }

  // Stage 2: the rank's leader shares the rank's part with the other
  // ranks' leaders and leaves the group's values for the rank's members.
  // Only a reduction that is one associative op is reduced within each
  // rank first; any other combines the group's values in group order, as
  // the reference does.
  const bool reduce_first =
      instruction.opcode() == HloOpcode::kAllReduce &&
      reference::PlainReducer(*instruction.to_apply()).has_value();
  const int64_t leader = local[0];
  std::vector<Literal> shared;
  if (id_ == leader) {
    std::vector<Literal> part;
    if (reduce_first && alone) {
      part = std::move(values);
    } else if (reduce_first) {
      PHAL_ASSIGN_OR_RETURN(Literal partial,
                            reference::EvaluateGroupCollective(
                                instruction, 0, local_sets, runner));
      part = Leaves(std::move(partial));
    } else {
      for (const std::vector<Literal>* set : local_sets) {
        part.insert(part.end(), set->begin(), set->end());
      }
    }
    const int tag =
        1 + static_cast<int>((static_cast<uint64_t>(sequence) * groups.size() +
                              group_index) %
                             static_cast<uint64_t>(kFirstFreeTransportTag - 1));
    const std::optional<uint64_t> native =
        reduce_first ? grid_.reduction_group(instruction, group_index)
                     : std::nullopt;
    if (native.has_value()) {
      PHAL_RETURN_IF_ERROR(ReduceAcrossRanks(instruction, sequence, tag,
                                             *native, ranks, what, part));
      shared = std::move(part);
    } else {
      PHAL_ASSIGN_OR_RETURN(
          shared,
          ExchangeAcrossRanks(instruction, sequence, tag, group, ranks, shapes,
                              reduce_first, what, std::move(part), runner));
    }
  }
  std::vector<Literal> owned;
  const std::vector<Literal>* all = &shared;
  if (alone) {
    PHAL_RETURN_IF_ERROR(
        rendezvous_.Exchange(Meeting(instruction, sequence, 1, group), {})
            .status());
  } else {
    CollectiveMeeting share = Meeting(instruction, sequence, 1, group);
    share.sources = {leader};
    if (id_ == leader) share.readers = static_cast<int64_t>(local.size());
    // The leader may wait for its peers up to the timeout, twice where the
    // transport reduces (its reduction, then the ranks' second meeting):
    // the others wait for the leader longer, so that the leader's error,
    // which names the ranks that did not arrive, is the one reported.
    share.timeout = 3 * grid_.timeout();
    PHAL_ASSIGN_OR_RETURN(
        std::vector<CollectiveRendezvous::Operands> group_values,
        rendezvous_.Exchange(share, std::move(shared)));
    owned = *group_values[0];
    all = &owned;
  }
  if (reduce_first) {
    return FromLeaves(instruction,
                      alone ? std::move(shared) : std::move(owned));
  }
  std::vector<std::vector<Literal>> member_sets(group.size());
  std::vector<const std::vector<Literal>*> sets;
  for (std::size_t j = 0; j < group.size(); ++j) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      member_sets[j].push_back((*all)[j * shapes.size() + i]);
    }
    sets.push_back(&member_sets[j]);
  }
  return reference::EvaluateGroupCollective(instruction, member, sets, runner);
}

Status DistributedProcess::ExchangeHeaders(const HloInstruction& instruction,
                                           int64_t sequence, int tag,
                                           const std::vector<int>& ranks,
                                           const std::string& what) {
  const std::vector<uint8_t> bytes = Pack(
      Header{static_cast<uint64_t>(sequence), Fingerprint(instruction)}, {});
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  for (int rank : ranks) {
    if (rank == grid_.transport().rank()) continue;
    sends.push_back({rank, bytes});
    receives.push_back({rank, std::vector<uint8_t>(sizeof(Header))});
  }
  PHAL_RETURN_IF_ERROR(
      grid_.transport().Exchange(sends, receives, tag, grid_.timeout(), what));
  for (const HostTransport::Message& message : receives) {
    PHAL_RETURN_IF_ERROR(CheckHeader(instruction, sequence, message, what));
  }
  return OkStatus();
}

Status DistributedProcess::ReduceAcrossRanks(const HloInstruction& instruction,
                                             int64_t sequence, int tag,
                                             uint64_t handle,
                                             const std::vector<int>& ranks,
                                             const std::string& what,
                                             std::vector<Literal>& part) {
  // The leaders first agree that they are at this collective, so that a
  // missing rank is named and a rank at another collective told apart.
  PHAL_RETURN_IF_ERROR(
      ExchangeHeaders(instruction, sequence, tag, ranks, what));
  const std::optional<phal_reduction_t> reduction = ReductionOf(instruction);
  HostReductions& reductions = *grid_.transport().reductions();
  for (Literal& leaf : part) {
    const Status reduced = reductions.AllReduce(
        handle, leaf.data(), static_cast<std::size_t>(leaf.ElementCount()),
        leaf.shape().element_type(), *reduction, grid_.timeout(), what);
    if (reduced.code() == PHAL_DEADLINE_EXCEEDED) {
      // A rank stopped after the headers went round (MPI cannot say which):
      // the ranks still here meet once more, and those that do not come
      // are named.
      PHAL_RETURN_IF_ERROR(
          ExchangeHeaders(instruction, sequence, tag, ranks, what));
    }
    PHAL_RETURN_IF_ERROR(reduced);
  }
  return OkStatus();
}

StatusOr<std::vector<Literal>> DistributedProcess::ExchangeAcrossRanks(
    const HloInstruction& instruction, int64_t sequence, int tag,
    const std::vector<int64_t>& group, const std::vector<int>& ranks,
    const std::vector<Shape>& shapes, bool reduce_first,
    const std::string& what, std::vector<Literal> part,
    reference::ComputationRunner* runner) {
  const int me = grid_.transport().rank();
  const Header header{static_cast<uint64_t>(sequence),
                      Fingerprint(instruction)};
  std::size_t set_bytes = 0;
  for (const Shape& shape : shapes) {
    set_bytes += static_cast<std::size_t>(shape.ByteSize());
  }
  const std::vector<uint8_t> bytes = Pack(header, part);
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  for (int rank : ranks) {
    if (rank == me) continue;
    sends.push_back({rank, bytes});
    std::size_t members = 0;
    for (int64_t process : group) members += grid_.rank_of(process) == rank;
    receives.push_back(
        {rank, std::vector<uint8_t>(sizeof(Header) +
                                    (reduce_first ? 1 : members) * set_bytes)});
  }
  PHAL_RETURN_IF_ERROR(
      grid_.transport().Exchange(sends, receives, tag, grid_.timeout(), what));
  sends.clear();
  for (const HostTransport::Message& message : receives) {
    PHAL_RETURN_IF_ERROR(CheckHeader(instruction, sequence, message, what));
  }
  // Each rank's values, in rank order.
  std::vector<std::vector<Literal>> by_rank(ranks.size());
  std::size_t next = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (ranks[r] == me) {
      by_rank[r] = std::move(part);
      continue;
    }
    std::size_t offset = sizeof(Header);
    const std::vector<uint8_t>& theirs = receives[next++].bytes;
    while (offset < theirs.size()) {
      std::vector<Literal> set = Unpack(shapes, theirs, &offset);
      for (Literal& literal : set) by_rank[r].push_back(std::move(literal));
    }
  }
  if (reduce_first) {
    std::vector<const std::vector<Literal>*> partials;
    for (const std::vector<Literal>& partial : by_rank) {
      partials.push_back(&partial);
    }
    PHAL_ASSIGN_OR_RETURN(Literal total, reference::EvaluateGroupCollective(
                                             instruction, 0, partials, runner));
    return Leaves(std::move(total));
  }
  // The members' operands in group order, each rank's in the order its
  // leader packed them (its members in group order).
  std::vector<Literal> shared;
  std::vector<std::size_t> taken(ranks.size(), 0);
  for (int64_t process : group) {
    const auto r = static_cast<std::size_t>(
        std::find(ranks.begin(), ranks.end(), grid_.rank_of(process)) -
        ranks.begin());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      shared.push_back(std::move(by_rank[r][taken[r]++]));
    }
  }
  return shared;
}

// `pairs` are the {source, target} process pairs: a process takes the
// operands of its source, if it has one, and zeros otherwise.
StatusOr<Literal> DistributedProcess::Permute(const HloInstruction& instruction,
                                              const ProcessGroupList& pairs,
                                              int64_t sequence,
                                              const std::string& what,
                                              std::vector<Literal> values) {
  const int me = grid_.transport().rank();
  std::vector<Shape> shapes;
  for (const Literal& value : values) shapes.push_back(value.shape());
  int64_t source = -1;
  int64_t target = -1;
  for (const std::vector<int64_t>& pair : pairs) {
    if (pair[0] == id_) target = pair[1];
    if (pair[1] == id_) source = pair[0];
  }
  const bool local_target = target >= 0 && grid_.rank_of(target) == me;
  const bool local_source = source >= 0 && grid_.rank_of(source) == me;
  const Header header{static_cast<uint64_t>(sequence),
                      Fingerprint(instruction)};
  const auto tag_for = [&](int64_t receiver) {
    return 1 + static_cast<int>(
                   (static_cast<uint64_t>(sequence) *
                        static_cast<uint64_t>(grid_.grid().process_count()) +
                    static_cast<uint64_t>(receiver)) %
                   static_cast<uint64_t>(kFirstFreeTransportTag - 1));
  };
  // Every process sends and receives across ranks before it waits for a
  // source on its own rank, so that no two processes wait for each other.
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  if (target >= 0 && !local_target) {
    sends.push_back(
        {grid_.rank_of(target), Pack(header, values), tag_for(target)});
  }
  if (source >= 0 && !local_source) {
    receives.push_back(
        {grid_.rank_of(source),
         std::vector<uint8_t>(sizeof(Header) + ByteSizeOf(values)),
         tag_for(id_)});
  }
  std::vector<Literal> received;
  if (!sends.empty() || !receives.empty()) {
    PHAL_RETURN_IF_ERROR(grid_.transport().Exchange(
        sends, receives, tag_for(id_), grid_.timeout(), what));
  }
  if (!receives.empty()) {
    PHAL_RETURN_IF_ERROR(CheckHeader(instruction, sequence, receives[0], what));
    std::size_t offset = sizeof(Header);
    received = Unpack(shapes, receives[0].bytes, &offset);
  }
  std::vector<int64_t> group = {id_};
  if (source >= 0) group = {source, id_};
  CollectiveMeeting meeting = Meeting(instruction, sequence, 0, group);
  if (local_target) meeting.readers = 1;
  if (local_source) meeting.sources = {source};
  if (!local_target) values.clear();
  PHAL_ASSIGN_OR_RETURN(std::vector<CollectiveRendezvous::Operands> from_rank,
                        rendezvous_.Exchange(meeting, std::move(values)));
  PHAL_RETURN_IF_ERROR(
      rendezvous_.Exchange(Meeting(instruction, sequence, 1, group), {})
          .status());
  if (local_source) received = *from_rank[0];
  if (received.empty()) {
    for (const Shape& shape : shapes) received.emplace_back(shape);
  }
  return FromLeaves(instruction, std::move(received));
}

}  // namespace

StatusOr<DistributedGrid> DistributedGrid::Create(
    HostTransport& transport, ProcessGrid grid, std::vector<int> rank_of,
    std::chrono::milliseconds timeout,
    std::span<const HloModule* const> modules) {
  if (static_cast<int64_t>(rank_of.size()) != grid.process_count()) {
    return InvalidArgument("the program runs on " +
                           std::to_string(grid.process_count()) +
                           " processes, " + std::to_string(rank_of.size()) +
                           " were placed on ranks");
  }
  for (std::size_t k = 0; k < rank_of.size(); ++k) {
    if (rank_of[k] < 0 || rank_of[k] >= transport.size()) {
      return InvalidArgument("process " + std::to_string(k) +
                             " is placed on rank " +
                             std::to_string(rank_of[k]) + " of a job of " +
                             std::to_string(transport.size()));
    }
  }
  DistributedGrid placed(transport, grid, std::move(rank_of), timeout);
  HostReductions* reductions = transport.reductions();
  if (reductions == nullptr) return placed;
  // By name: each all-reduce of one op the ABI names, and that op.
  std::map<std::string, std::pair<const HloInstruction*, phal_reduction_t>>
      all_reduces;
  for (const HloModule* module : modules) {
    for (const HloComputation* computation : module->computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        if (instruction->opcode() != HloOpcode::kAllReduce) continue;
        if (const std::optional<phal_reduction_t> reduction =
                ReductionOf(*instruction)) {
          all_reduces.emplace(instruction->name(),
                              std::make_pair(instruction, *reduction));
        }
      }
    }
  }
  // The groups of processes of one set of ranks, numbered as first met.
  std::map<std::vector<int64_t>, int> instance_of;
  std::map<std::vector<int>, int> instances;
  for (const auto& [name, reduced] : all_reduces) {
    const auto [instruction, reduction] = reduced;
    PHAL_ASSIGN_OR_RETURN(const std::vector<std::vector<int64_t>> groups,
                          ProcessGroupsOf(*instruction, grid));
    std::vector<std::optional<uint64_t>> handles(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
      std::vector<int> ranks;
      for (int64_t process : groups[g])
        ranks.push_back(placed.rank_of(process));
      std::sort(ranks.begin(), ranks.end());
      ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
      if (ranks.size() < 2) continue;
      bool supported = true;
      for (const HloInstruction* operand : instruction->operands()) {
        supported = supported && reductions->Supports(
                                     operand->shape().element_type(), reduction,
                                     static_cast<int>(ranks.size()));
      }
      if (!supported) continue;
      std::vector<int64_t> members = groups[g];
      std::sort(members.begin(), members.end());
      auto [found, added] = instance_of.emplace(members, instances[ranks]);
      if (added) ++instances[ranks];
      if (!std::binary_search(ranks.begin(), ranks.end(), transport.rank())) {
        continue;
      }
      PHAL_ASSIGN_OR_RETURN(
          handles[g], transport.ReductionGroup(ranks, found->second, timeout));
    }
    placed.reduction_groups_[name] = std::move(handles);
  }
  return placed;
}

int DistributedGrid::reduction_group_count() const {
  int count = 0;
  for (const auto& [name, handles] : reduction_groups_) {
    for (const std::optional<uint64_t>& handle : handles) {
      count += handle.has_value();
    }
  }
  return count;
}

std::optional<uint64_t> DistributedGrid::reduction_group(
    const HloInstruction& instruction, std::size_t group_index) const {
  const auto found = reduction_groups_.find(instruction.name());
  if (found == reduction_groups_.end() || group_index >= found->second.size()) {
    return std::nullopt;
  }
  return found->second[group_index];
}

DistributedGrid::DistributedGrid(HostTransport& transport, ProcessGrid grid,
                                 std::vector<int> rank_of,
                                 std::chrono::milliseconds timeout)
    : transport_(&transport),
      grid_(grid),
      rank_of_(std::move(rank_of)),
      timeout_(timeout) {
  for (std::size_t k = 0; k < rank_of_.size(); ++k) {
    if (rank_of_[k] == transport.rank()) {
      local_.push_back(static_cast<int64_t>(k));
    }
  }
}

Status DistributedGrid::Run(
    const std::function<Status(int64_t, reference::ProcessContext*)>& run)
    const {
  CollectiveRendezvous rendezvous(grid_.process_count(), timeout_);
  std::unordered_map<int64_t, std::unique_ptr<DistributedProcess>> processes;
  for (int64_t k : local_) {
    processes[k] = std::make_unique<DistributedProcess>(k, *this, rendezvous);
  }
  return reference::RunProcesses(local_, grid_, rendezvous, [&](int64_t k) {
    return run(k, processes[k].get());
  });
}

}  // namespace phal
