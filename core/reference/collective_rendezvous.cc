#include "core/reference/collective_rendezvous.h"

#include <string>

#include "core/hlo/opcode.h"

namespace phal::reference {
namespace {

std::string Describe(const HloInstruction& instruction) {
  return "%" + instruction.name() + " (" +
         std::string(HloOpcodeName(instruction.opcode())) + ")";
}

std::string DescribeMeeting(const CollectiveMeeting& meeting) {
  return Describe(*meeting.instruction) + ", collective #" +
         std::to_string(meeting.sequence) + " of process " +
         std::to_string(meeting.process) + ", group " +
         ProcessListToString(meeting.group);
}

}  // namespace

std::string ProcessListToString(const std::vector<int64_t>& processes) {
  std::string text = "{";
  for (std::size_t i = 0; i < processes.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(processes[i]);
  }
  return text + "}";
}

CollectiveRendezvous::CollectiveRendezvous(int64_t process_count,
                                           std::chrono::milliseconds timeout)
    : timeout_(timeout),
      history_(static_cast<std::size_t>(process_count)),
      finished_(static_cast<std::size_t>(process_count), false) {}

std::vector<int64_t> CollectiveRendezvous::MissingSources(
    const CollectiveMeeting& meeting) const {
  std::vector<int64_t> missing;
  for (int64_t source : meeting.sources) {
    if (deposits_.count({source, meeting.sequence}) == 0) {
      missing.push_back(source);
    }
  }
  return missing;
}

Status CollectiveRendezvous::CheckAgreement(
    const CollectiveMeeting& meeting) const {
  for (int64_t source : meeting.sources) {
    const auto& history = history_[static_cast<std::size_t>(source)];
    if (static_cast<int64_t>(history.size()) <= meeting.sequence) continue;
    const HloInstruction* other =
        history[static_cast<std::size_t>(meeting.sequence)];
    // Separately compiled copies of a program name their collectives alike.
    if (other == meeting.instruction ||
        (other->opcode() == meeting.instruction->opcode() &&
         other->name() == meeting.instruction->name())) {
      continue;
    }
    return FailedPrecondition(
        DescribeMeeting(meeting) + ": process " + std::to_string(source) +
        " executed " + Describe(*other) + " as its collective #" +
        std::to_string(meeting.sequence) +
        ": the processes disagree about which collective they are at");
  }
  return OkStatus();
}

Status CollectiveRendezvous::CheckFinished(
    const CollectiveMeeting& meeting,
    const std::vector<int64_t>& missing) const {
  std::vector<int64_t> gone;
  for (int64_t source : missing) {
    if (finished_[static_cast<std::size_t>(source)]) gone.push_back(source);
  }
  if (gone.empty()) return OkStatus();
  return Status(PHAL_DEADLINE_EXCEEDED,
                DescribeMeeting(meeting) + ": missing processes " +
                    ProcessListToString(gone) +
                    ", which finished the program without reaching it");
}

StatusOr<std::vector<CollectiveRendezvous::Operands>>
CollectiveRendezvous::Exchange(const CollectiveMeeting& meeting,
                               std::vector<Literal> operands) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto& history = history_[static_cast<std::size_t>(meeting.process)];
  if (static_cast<int64_t>(history.size()) != meeting.sequence) {
    return Internal(DescribeMeeting(meeting) + ": expected collective #" +
                    std::to_string(history.size()));
  }
  history.push_back(meeting.instruction);
  if (meeting.readers > 0) {
    deposits_[{meeting.process, meeting.sequence}] = Deposit{
        std::make_shared<const std::vector<Literal>>(std::move(operands)),
        meeting.readers};
  }
  arrived_.notify_all();
  const std::chrono::milliseconds timeout =
      meeting.timeout.count() > 0 ? meeting.timeout : timeout_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  while (true) {
    if (cancelled()) {
      return Status(PHAL_ABORTED, DescribeMeeting(meeting) +
                                      ": abandoned: another process failed");
    }
    PHAL_RETURN_IF_ERROR(CheckAgreement(meeting));
    const std::vector<int64_t> missing = MissingSources(meeting);
    if (missing.empty()) break;
    PHAL_RETURN_IF_ERROR(CheckFinished(meeting, missing));
    if (timed_out) {
      return Status(PHAL_DEADLINE_EXCEEDED,
                    DescribeMeeting(meeting) + ": missing processes " +
                        ProcessListToString(missing) + " did not arrive in " +
                        std::to_string(timeout.count()) + " ms");
    }
    timed_out = arrived_.wait_until(lock, deadline) == std::cv_status::timeout;
  }
  std::vector<Operands> received;
  for (int64_t source : meeting.sources) {
    const auto found = deposits_.find({source, meeting.sequence});
    received.push_back(found->second.operands);
    if (--found->second.readers_left == 0) deposits_.erase(found);
  }
  return received;
}

void CollectiveRendezvous::Finish(int64_t process, const Status& status) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_[static_cast<std::size_t>(process)] = true;
    if (!status.ok()) cancelled_.store(true, std::memory_order_relaxed);
  }
  arrived_.notify_all();
}

}  // namespace phal::reference
