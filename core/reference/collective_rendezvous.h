// Where the processes of an SPMD program, each on its own thread, meet at a
// collective: each leaves its operands and waits for those of its group.
// A process's collectives are numbered in the order it executes them (its
// own control flow decides which ones), so collective number n of one
// process meets collective number n of its peers; processes that disagree
// about which instruction that is fail at once, and none waits forever:
// a missing peer fails the waiters after a timeout, a failed peer fails
// them at once.
#ifndef POLYHAL_CORE_REFERENCE_COLLECTIVE_RENDEZVOUS_H_
#define POLYHAL_CORE_REFERENCE_COLLECTIVE_RENDEZVOUS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// One process's part in one collective.
struct CollectiveMeeting {
  int64_t process = 0;
  // The process's collective number `sequence` (0 for its first).
  int64_t sequence = 0;
  const HloInstruction* instruction = nullptr;
  // The processes taking part, for error messages (the group, or the
  // source and the target of collective-permute).
  std::vector<int64_t> group;
  // The processes whose operands this process needs, in the order
  // Exchange returns them.
  std::vector<int64_t> sources;
  // How many processes (this one included, if it is among its sources)
  // take this process's operands; 0 leaves none.
  int64_t readers = 0;
  // How long this process waits for its sources; 0: the rendezvous's
  // timeout.
  std::chrono::milliseconds timeout{0};
};

class CollectiveRendezvous {
 public:
  // A process's operands of one collective, shared by its readers.
  using Operands = std::shared_ptr<const std::vector<Literal>>;

  // `timeout`: how long a process waits at a collective for a peer.
  CollectiveRendezvous(int64_t process_count,
                       std::chrono::milliseconds timeout);
  CollectiveRendezvous(const CollectiveRendezvous&) = delete;
  CollectiveRendezvous& operator=(const CollectiveRendezvous&) = delete;

  // Leaves `operands` for meeting.readers processes, then waits until each
  // of meeting.sources has left its operands for the same collective and
  // returns them in that order. Fails with DEADLINE_EXCEEDED naming the
  // sources that did not arrive within the timeout (or that finished the
  // program without arriving), FAILED_PRECONDITION when a source executed
  // another instruction as that collective, and ABORTED once another
  // process failed. Thread-safe.
  StatusOr<std::vector<Operands>> Exchange(const CollectiveMeeting& meeting,
                                           std::vector<Literal> operands);

  // Records that `process` finished the program with `status`. Peers
  // waiting for a process that finished fail at once; an error cancels
  // every process. Thread-safe.
  void Finish(int64_t process, const Status& status);

  // True once a process finished with an error. Thread-safe.
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  struct Deposit {
    Operands operands;
    int64_t readers_left = 0;
  };

  // FAILED_PRECONDITION when a source executed another instruction as
  // this collective.
  Status CheckAgreement(const CollectiveMeeting& meeting) const;
  // DEADLINE_EXCEEDED when a `missing` source finished the program, so
  // that it can never arrive.
  Status CheckFinished(const CollectiveMeeting& meeting,
                       const std::vector<int64_t>& missing) const;
  std::vector<int64_t> MissingSources(const CollectiveMeeting& meeting) const;

  const std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  // (process, sequence) -> the operands it left.
  std::map<std::pair<int64_t, int64_t>, Deposit> deposits_;
  // Per process, the instruction of each collective it executed so far.
  std::vector<std::vector<const HloInstruction*>> history_;
  std::vector<bool> finished_;
  std::atomic<bool> cancelled_{false};
};

// "{0, 1, 2}".
std::string ProcessListToString(const std::vector<int64_t>& processes);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_COLLECTIVE_RENDEZVOUS_H_
