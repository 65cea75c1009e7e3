#include "core/distributed/mpi_process_context.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/reference/collectives.h"
#include "sdk/base/hash.h"

namespace phal {
namespace {

// What every message of a collective starts with, so that ranks at
// different collectives are told apart from ranks that are late.
struct Header {
  uint64_t sequence = 0;
  uint64_t fingerprint = 0;
};

// FNV-1a of the instruction's opcode, name and operand shapes.
uint64_t Fingerprint(const HloInstruction& instruction) {
  std::string text = std::string(HloOpcodeName(instruction.opcode())) + " " +
                     instruction.name();
  for (const HloInstruction* operand : instruction.operands()) {
    text += " " + operand->shape().ToString();
  }
  return Fnv1a(text);
}

std::vector<uint8_t> Pack(const Header& header,
                          std::span<const Literal* const> operands) {
  std::size_t size = sizeof(Header);
  for (const Literal* operand : operands) size += operand->byte_size();
  std::vector<uint8_t> bytes(size);
  std::memcpy(bytes.data(), &header, sizeof(Header));
  std::size_t offset = sizeof(Header);
  for (const Literal* operand : operands) {
    std::memcpy(bytes.data() + offset, operand->data(), operand->byte_size());
    offset += operand->byte_size();
  }
  return bytes;
}

std::string GroupText(const std::vector<int64_t>& group) {
  std::string text = "{";
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(group[i]);
  }
  return text + "}";
}

}  // namespace

StatusOr<Literal> MpiProcessContext::EvaluateCollective(
    const HloInstruction& instruction, std::span<const Literal* const> operands,
    reference::ComputationRunner* runner) {
  const int64_t sequence = sequence_++;
  const int me = job_.rank();
  std::string what = std::string(HloOpcodeName(instruction.opcode())) + " %" +
                     instruction.name() + " (collective #" +
                     std::to_string(sequence) + ") on rank " +
                     std::to_string(me);
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                        ProcessGroupsOf(instruction, grid_));
  const Header header{static_cast<uint64_t>(sequence),
                      Fingerprint(instruction)};
  const std::vector<uint8_t> mine = Pack(header, operands);
  const int tag = 1 + static_cast<int>(sequence % 30000);

  // The operands each peer sent, checked to be of the same collective.
  const auto unpack =
      [&](const MpiJob::Message& message) -> StatusOr<std::vector<Literal>> {
    Header theirs;
    std::memcpy(&theirs, message.bytes.data(), sizeof(Header));
    if (theirs.sequence != header.sequence ||
        theirs.fingerprint != header.fingerprint) {
      return FailedPrecondition(
          what + ": rank " + std::to_string(message.peer) +
          " is at another collective (do all ranks run the same program?)");
    }
    std::vector<Literal> literals;
    std::size_t offset = sizeof(Header);
    for (const Literal* operand : operands) {
      Literal literal(operand->shape());
      std::memcpy(literal.data(), message.bytes.data() + offset,
                  literal.byte_size());
      offset += literal.byte_size();
      literals.push_back(std::move(literal));
    }
    return literals;
  };

  if (instruction.opcode() == HloOpcode::kCollectivePermute) {
    if (operands.size() != 1) {
      return Unimplemented(what + ": a permute of several operands");
    }
    std::vector<MpiJob::Message> sends;
    std::vector<MpiJob::Message> receives;
    for (const std::vector<int64_t>& pair : groups) {
      if (pair.size() != 2) continue;
      if (pair[0] == me) sends.push_back({static_cast<int>(pair[1]), mine});
      if (pair[1] == me) {
        receives.push_back(
            {static_cast<int>(pair[0]), std::vector<uint8_t>(mine.size())});
      }
    }
    PHAL_RETURN_IF_ERROR(job_.Exchange(sends, receives, tag, timeout_, what));
    if (receives.empty()) return Literal(operands[0]->shape());
    PHAL_ASSIGN_OR_RETURN(std::vector<Literal> received, unpack(receives[0]));
    return std::move(received[0]);
  }

  const std::vector<int64_t>* group = nullptr;
  int64_t member = 0;
  for (const std::vector<int64_t>& candidate : groups) {
    const auto found = std::find(candidate.begin(), candidate.end(), me);
    if (found != candidate.end()) {
      group = &candidate;
      member = found - candidate.begin();
      break;
    }
  }
  if (group == nullptr) {
    return FailedPrecondition(what + ": rank " + std::to_string(me) +
                              " is in none of its groups");
  }
  what += ", group " + GroupText(*group);
  std::vector<MpiJob::Message> sends;
  std::vector<MpiJob::Message> receives;
  for (int64_t peer : *group) {
    if (peer == me) continue;
    sends.push_back({static_cast<int>(peer), mine});
    receives.push_back(
        {static_cast<int>(peer), std::vector<uint8_t>(mine.size())});
  }
  PHAL_RETURN_IF_ERROR(job_.Exchange(sends, receives, tag, timeout_, what));
  std::vector<std::vector<Literal>> values(group->size());
  std::size_t next = 0;
  for (std::size_t j = 0; j < group->size(); ++j) {
    if ((*group)[j] == me) {
      for (const Literal* operand : operands) values[j].push_back(*operand);
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(values[j], unpack(receives[next++]));
  }
  std::vector<const std::vector<Literal>*> pointers;
  for (const std::vector<Literal>& value : values) pointers.push_back(&value);
  return reference::EvaluateGroupCollective(instruction, member, pointers,
                                            runner);
}

}  // namespace phal
