// How the processes of a job (one per rank: ranks of an MPI job, or
// whatever an application's own launcher provides) send each other bytes
// on host memory. The executor runs programs whose processes span several
// ranks on it (distributed_grid.h); core/distributed implements it over
// MPI, and the runtime wraps an application's phal_host_transport_t
// (polyhal/runtime.h) in it, so that the core itself never links a
// transport.
#ifndef POLYHAL_CORE_EXECUTOR_HOST_TRANSPORT_H_
#define POLYHAL_CORE_EXECUTOR_HOST_TRANSPORT_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "polyhal/plugin.h"
#include "polyhal/runtime.h"
#include "polyhal/transport.h"
#include "sdk/base/status.h"

namespace phal {

// Reductions a transport runs itself over groups of its ranks
// (phal_host_reductions_t, polyhal/transport.h): MPI's MPI_Iallreduce on a
// communicator per group.
class HostReductions {
 public:
  virtual ~HostReductions() = default;

  // Whether AllReduce runs `reduction` on `type` over `rank_count` ranks,
  // with the same bits on every rank and every run.
  virtual bool Supports(phal_element_type_t type, phal_reduction_t reduction,
                        int rank_count) const = 0;

  // A new group of `ranks` (ascending, this rank among them, at least
  // two). Every rank of the group calls it, the groups in the same order on
  // every rank, while nothing else runs on the transport.
  virtual StatusOr<uint64_t> MakeGroup(std::span<const int> ranks,
                                       std::chrono::milliseconds timeout) = 0;

  // Reduces `count` elements of `type` at `data` in place with the other
  // ranks of `group`. The all-reduces of one group are issued in the same
  // order on every rank, one at a time; distinct groups' run at once.
  virtual Status AllReduce(uint64_t group, void* data, std::size_t count,
                           phal_element_type_t type, phal_reduction_t reduction,
                           std::chrono::milliseconds timeout,
                           const std::string& what) = 0;
};

class HostTransport {
 public:
  // Bytes for `peer` (sending) or from it (receiving, where `bytes` is
  // sized to what is expected), tagged `tag` (0: the exchange's tag).
  struct Message {
    int peer = 0;
    std::vector<uint8_t> bytes;
    int tag = 0;
  };

  virtual ~HostTransport() = default;

  // This process's rank, and how many ranks the job has.
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Sends every message of `sends` and receives every one of `receives`,
  // tagged `tag` (1 to 32767) unless they carry their own, within
  // `timeout`. Messages between two
  // ranks with the same tag arrive in the order they were sent.
  // DEADLINE_EXCEEDED naming `what` and the ranks whose messages did not
  // arrive; FAILED_PRECONDITION when a message has another length than
  // expected. Thread-safe: several threads exchange at once, each with
  // tags of its own.
  virtual Status Exchange(std::vector<Message>& sends,
                          std::vector<Message>& receives, int tag,
                          std::chrono::milliseconds timeout,
                          const std::string& what) = 0;

  // Every rank's `bytes` (equal lengths on every rank), in rank order.
  StatusOr<std::vector<std::vector<uint8_t>>> AllGather(
      const std::vector<uint8_t>& bytes, int tag,
      std::chrono::milliseconds timeout, const std::string& what);

  // The reductions this transport runs itself, or null.
  virtual HostReductions* reductions() { return nullptr; }

  // The reductions' group `instance` (0, 1, ...) over `ranks`, made on
  // first use and kept for the transport's life, so that the programs
  // compiled over one transport share their groups: a program numbers the
  // groups of its own that span the same ranks 0, 1, ..., and every rank
  // asks for them in the same order. Requires reductions().
  StatusOr<uint64_t> ReductionGroup(const std::vector<int>& ranks, int instance,
                                    std::chrono::milliseconds timeout);

 private:
  std::mutex groups_mutex_;
  std::map<std::pair<std::vector<int>, int>, uint64_t> groups_;
};

// A transport whose exchange works on the C API's messages themselves,
// without copies (MPI's, TCP's: core/distributed): Exchange and the C form
// of the transport are made from ExchangeRaw.
class RawHostTransport : public HostTransport {
 public:
  RawHostTransport(int rank, int size);
  RawHostTransport(const RawHostTransport&) = delete;
  RawHostTransport& operator=(const RawHostTransport&) = delete;

  int rank() const final { return rank_; }
  int size() const final { return size_; }

  // HostTransport::Exchange on the messages' own buffers, each message
  // with its own tag.
  virtual Status ExchangeRaw(std::span<const phal_host_message_t> sends,
                             std::span<const phal_host_message_t> receives,
                             std::chrono::milliseconds timeout,
                             const std::string& what) = 0;

  Status Exchange(std::vector<Message>& sends, std::vector<Message>& receives,
                  int tag, std::chrono::milliseconds timeout,
                  const std::string& what) final;

  // This transport as a phal_host_transport_t (polyhal/runtime.h), for
  // phal_client_options_t::transport; valid as long as this object.
  const phal_host_transport_t* c_transport() const { return &c_transport_; }

 protected:
  // Chains `reductions` (which must outlive this object) on the C form's
  // `next` as a phal_host_reductions_t.
  void ChainReductions(HostReductions& reductions);

 private:
  const int rank_;
  const int size_;
  phal_host_transport_t c_transport_{};
  phal_host_reductions_t c_reductions_{};
};

// An application's phal_host_reductions_t as HostReductions.
class CHostReductions final : public HostReductions {
 public:
  explicit CHostReductions(const phal_host_reductions_t& reductions)
      : reductions_(reductions) {}
  bool Supports(phal_element_type_t type, phal_reduction_t reduction,
                int rank_count) const override;
  StatusOr<uint64_t> MakeGroup(std::span<const int> ranks,
                               std::chrono::milliseconds timeout) override;
  Status AllReduce(uint64_t group, void* data, std::size_t count,
                   phal_element_type_t type, phal_reduction_t reduction,
                   std::chrono::milliseconds timeout,
                   const std::string& what) override;

 private:
  const phal_host_reductions_t& reductions_;
};

// `messages` as the C API's messages (polyhal/runtime.h), pointing at their
// bytes, each with its own tag or else `tag`.
std::vector<phal_host_message_t> ToHostMessages(
    std::vector<HostTransport::Message>& messages, int tag);

// `status` as the C transport functions return it: its code, with its
// message in `error` (at most `error_capacity` bytes, NUL-terminated).
phal_status_code_t StatusToCError(const Status& status, char* error,
                                  size_t error_capacity);

// A C transport function's code and the message it left in `error` (of
// `capacity` bytes) as a Status; `fallback` where it left none.
Status StatusFromCError(phal_status_code_t code, char* error, size_t capacity,
                        const std::string& fallback);

// "{0, 1, 2}".
std::string RankListToString(const std::vector<int>& ranks);

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_HOST_TRANSPORT_H_
