// This process's place in an MPI job (one process per rank, started by
// mpirun), and the messages between ranks that every distributed part of
// Polyhal is made of (the HostTransport the executor's distributed grid
// runs on). Every wait has a deadline: a rank that never sends
// fails the waiting rank with DEADLINE_EXCEEDED naming it, never a hang.
#ifndef POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
#define POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/executor/host_transport.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal {

class MpiJob final : public RawHostTransport {
 public:
  // The job, with MPI initialised on the first call (MPI_Init_thread,
  // serialized) and finalised when the process exits. UNAVAILABLE when MPI
  // cannot start (not launched by mpirun and no singleton support).
  static StatusOr<MpiJob*> Get();

  // Over MPI_COMM_WORLD (every MPI call is serialized; the waits poll with
  // the lock released). Messages over 1 GiB travel in pieces.
  Status ExchangeRaw(std::span<const phal_host_message_t> sends,
                     std::span<const phal_host_message_t> receives,
                     std::chrono::milliseconds timeout,
                     const std::string& what) override;

  // Ends the whole job with exit code `code` (MPI_Abort): what a rank does
  // after a failure, so that mpirun exits non-zero instead of leaving its
  // peers waiting.
  [[noreturn]] void Abort(int code);

 private:
  MpiJob(int rank, int size) : RawHostTransport(rank, size) {}
};

}  // namespace phal

#endif  // POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
