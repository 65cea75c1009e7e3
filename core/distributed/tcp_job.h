// A job whose processes find each other over TCP, for processes no MPI
// launcher started (a cluster scheduler, a script, Python's
// polyhal.distributed.initialize with a coordinator): every process is
// told the job's size, its own rank and the coordinator's address, and
// rank 0 listens there. The others connect to it and say where they
// listen; rank 0 checks that every process agrees on the size and that no
// rank is claimed twice, and hands out the table of addresses; then every
// pair of ranks holds one connection. A thread per process reads every
// connection into mailboxes (one per peer and tag), so exchanges of
// several threads, with tags of their own, never wait for each other.
//
// A rank whose connection closes (its process died or ended) fails every
// exchange waiting for it at once, naming it; a rank that is alive but
// silent fails it at the exchange's deadline, as HostTransport promises.
//
// The job also reduces (HostReductions): an all-reduce over a group of
// ranks is a ring (a reduce-scatter, then an all-gather, each rank
// sending 2 (n - 1) / n of the buffer) above 64 KiB, and below that every
// rank sends its buffer to the others and adds them in rank order. Each
// element is reduced by one rank and copied to the others, so every rank
// gets the same bits, and a group of the same ranks the same bits on every
// run. PHAL_TCP_REDUCTIONS = all (default) | exact | off, as
// PHAL_MPI_REDUCTIONS (mpi_job.h).
#ifndef POLYHAL_CORE_DISTRIBUTED_TCP_JOB_H_
#define POLYHAL_CORE_DISTRIBUTED_TCP_JOB_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/executor/host_reduce.h"
#include "core/executor/host_transport.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal {

struct TcpJobOptions {
  // "HOST:PORT" (a name or an IPv4 address): where rank 0 listens and the
  // others connect.
  std::string coordinator;
  int rank = 0;
  int size = 1;
  // How long the processes wait for each other while the job forms.
  std::chrono::milliseconds timeout{60000};
};

class TcpJob final : public RawHostTransport, public HostReductions {
 public:
  // The job, once every process has joined: INVALID_ARGUMENT for a bad
  // address, rank or size; DEADLINE_EXCEEDED naming the ranks that did not
  // join within options.timeout; FAILED_PRECONDITION when the processes
  // disagree on the size or two claim one rank; INVALID_ARGUMENT for a
  // PHAL_TCP_REDUCTIONS it does not know.
  static StatusOr<std::unique_ptr<TcpJob>> Connect(
      const TcpJobOptions& options);

  // Tells the peers this rank is done, waits a moment for theirs (so that
  // nothing sent is lost), and closes every connection.
  ~TcpJob() override;
  TcpJob(const TcpJob&) = delete;
  TcpJob& operator=(const TcpJob&) = delete;

  Status ExchangeRaw(std::span<const phal_host_message_t> sends,
                     std::span<const phal_host_message_t> receives,
                     std::chrono::milliseconds timeout,
                     const std::string& what) override;

  // Closes every connection at once, so that the peers waiting on this
  // rank fail now, naming it, instead of at their deadline; exchanges
  // fail from then on.
  void Abandon();

  HostReductions* reductions() override { return this; }
  // What host_reduce.h reduces, as PHAL_TCP_REDUCTIONS allows.
  bool Supports(phal_element_type_t type, phal_reduction_t reduction,
                int rank_count) const override;
  // The group's first rank gives it a tag of its own and tells the others.
  StatusOr<uint64_t> MakeGroup(std::span<const int> ranks,
                               std::chrono::milliseconds timeout) override;
  Status AllReduce(uint64_t group, void* data, std::size_t count,
                   phal_element_type_t type, phal_reduction_t reduction,
                   std::chrono::milliseconds timeout,
                   const std::string& what) override;

 private:
  struct Peer {
    int fd = -1;
    std::mutex send_mutex;
    // Why the connection ended; empty while it is open.
    std::string closed;
  };

  TcpJob(int rank, int size, TransportReductions reductions);
  // Reads every connection into the mailboxes until each has closed or
  // the job is destroyed.
  void ReadLoop();
  Status Send(int peer, int tag, const void* data, std::size_t size,
              std::chrono::steady_clock::time_point deadline,
              const std::string& what);

  std::vector<std::unique_ptr<Peer>> peers_;
  // Written to wake the reader when the job ends.
  int wake_[2] = {-1, -1};
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<std::pair<int, int>, std::deque<std::vector<uint8_t>>> mail_;
  bool abandoned_ = false;
  std::thread reader_;
  const TransportReductions reductions_;
  struct Ring {
    std::vector<int> ranks;
    int tag = 0;
  };
  std::mutex ring_mutex_;
  std::vector<Ring> rings_;  // MakeGroup's groups, by handle
  int groups_led_ = 0;       // groups this rank is the first of
};

}  // namespace phal

#endif  // POLYHAL_CORE_DISTRIBUTED_TCP_JOB_H_
