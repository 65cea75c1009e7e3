// This process's place in an MPI job (one process per rank, started by
// mpirun), and the messages between ranks that every distributed part of
// Polyhal is made of. Every wait has a deadline: a rank that never sends
// fails the waiting rank with DEADLINE_EXCEEDED naming it, never a hang.
#ifndef POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
#define POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "sdk/base/status.h"

namespace phal {

class MpiJob {
 public:
  // The job, with MPI initialised on the first call (MPI_Init_thread,
  // serialized) and finalised when the process exits. UNAVAILABLE when MPI
  // cannot start (not launched by mpirun and no singleton support).
  static StatusOr<MpiJob*> Get();

  int rank() const { return rank_; }
  int size() const { return size_; }

  // One message: bytes for `peer` (sending) or from it (receiving, where
  // `bytes` is sized to what is expected).
  struct Message {
    int peer = 0;
    std::vector<uint8_t> bytes;
  };
  // Sends every message of `sends` and receives every one of `receives`
  // (tagged `tag`), all at once, within `timeout`. DEADLINE_EXCEEDED
  // naming `what` and the ranks whose messages did not arrive (those still
  // pending are cancelled); FAILED_PRECONDITION when a message is longer
  // than expected.
  Status Exchange(std::vector<Message>& sends, std::vector<Message>& receives,
                  int tag, std::chrono::milliseconds timeout,
                  const std::string& what);

  // Every rank's `bytes` (equal lengths), in rank order, within `timeout`.
  StatusOr<std::vector<std::vector<uint8_t>>> AllGather(
      const std::vector<uint8_t>& bytes, int tag,
      std::chrono::milliseconds timeout, const std::string& what);

  // Ends the whole job with exit code `code` (MPI_Abort): what a rank does
  // after a failure, so that mpirun exits non-zero instead of leaving its
  // peers waiting.
  [[noreturn]] void Abort(int code);

 private:
  MpiJob(int rank, int size) : rank_(rank), size_(size) {}
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace phal

#endif  // POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
