// This process's place in an MPI job (one process per rank, started by
// mpirun), and the messages between ranks that every distributed part of
// Polyhal is made of (the HostTransport the executor's distributed grid
// runs on), with MPI's own all-reduce on a communicator per group (its
// HostReductions). Every wait has a deadline: a rank that never sends
// fails the waiting rank with DEADLINE_EXCEEDED naming it, never a hang.
//
// PHAL_MPI_REDUCTIONS chooses what MPI reduces: `all` (the default) every
// integer and pred reduction and f32/f64 sums and products, floats in
// MPI's order (the same bits on every rank and every run of a job of one
// size); `exact` integers and pred, and floats only over two ranks (where
// MPI's order is the group's); `off` none, so that every group's values
// are exchanged and combined in group order.
#ifndef POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
#define POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/executor/host_reduce.h"
#include "core/executor/host_transport.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal {

class MpiJob final : public RawHostTransport, public HostReductions {
 public:
  // The job, with MPI initialised on the first call (MPI_Init_thread,
  // serialized) and finalised when the process exits. UNAVAILABLE when MPI
  // cannot start (not launched by mpirun and no singleton support);
  // INVALID_ARGUMENT for a PHAL_MPI_REDUCTIONS it does not know.
  static StatusOr<MpiJob*> Get();

  // Over MPI_COMM_WORLD (every MPI call is serialized; the waits poll with
  // the lock released). Messages over 1 GiB travel in pieces.
  Status ExchangeRaw(std::span<const phal_host_message_t> sends,
                     std::span<const phal_host_message_t> receives,
                     std::chrono::milliseconds timeout,
                     const std::string& what) override;

  HostReductions* reductions() override { return this; }

  // Integer and pred reductions (sums and products on unsigned types, so
  // that they wrap) and f32/f64 sums and products, as PHAL_MPI_REDUCTIONS
  // allows.
  bool Supports(phal_element_type_t type, phal_reduction_t reduction,
                int rank_count) const override;

  // An MPI communicator over `ranks` (MPI_Comm_create_group), once every
  // rank of it has arrived within `timeout`.
  StatusOr<uint64_t> MakeGroup(std::span<const int> ranks,
                               std::chrono::milliseconds timeout) override;

  // MPI_Iallreduce in place on the group's communicator, in pieces of at
  // most 2^30 elements, polled with the lock released.
  Status AllReduce(uint64_t group, void* data, std::size_t count,
                   phal_element_type_t type, phal_reduction_t reduction,
                   std::chrono::milliseconds timeout,
                   const std::string& what) override;

  // Ends the whole job with exit code `code` (MPI_Abort): what a rank does
  // after a failure, so that mpirun exits non-zero instead of leaving its
  // peers waiting.
  [[noreturn]] void Abort(int code);

 private:
  MpiJob(int rank, int size, TransportReductions reductions);

  const TransportReductions reductions_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_DISTRIBUTED_MPI_JOB_H_
