// The grid emulator's NCCL across processes of one machine: the ranks of
// a communicator joined with ncclCommInitRank meet in POSIX shared memory.
// Every message is a segment of its own, named after the communicator's id
// and what it carries: a rank's arrival (with its process id), its send
// range of one collective, one send of a pair of ranks. The writer creates
// it whole and marks it ready; readers map it, and the last reader
// unlinks it. A wait ends when the message is there, when the communicator
// is aborted, when the peer's process no longer exists (named), or after
// kWaitLimit, so that the emulator never waits for a peer forever as a
// real NCCL does; the core meets the processes over its transport before
// each collective, so these limits only catch a process that dies during
// one.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATED_NCCL_SHARED_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATED_NCCL_SHARED_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sdk/base/status.h"

namespace phal::nvidia {

class SharedClique {
 public:
  static constexpr std::chrono::seconds kWaitLimit{300};

  // A new communicator's name, unique on the machine ("phal-nccl-...").
  static std::string MakeName();

  // Rank `rank` of `size` of the communicator `name` announces itself;
  // Complete then waits for every peer's announcement. Two steps, so that
  // a process holding several ranks announces them all before it waits.
  static StatusOr<std::shared_ptr<SharedClique>> Announce(
      const std::string& name, int size, int rank);
  Status Complete();

  ~SharedClique();
  SharedClique(const SharedClique&) = delete;
  SharedClique& operator=(const SharedClique&) = delete;

  int size() const { return size_; }
  int rank() const { return rank_; }

  // This rank's next collective: publishes `bytes` of `mine`, maps every
  // peer's range of the same collective and calls `use` with every rank's
  // range in rank order (this rank's is `mine`).
  Status Gather(
      const std::byte* mine, std::size_t bytes,
      const std::function<void(std::span<const std::byte* const>)>& use);
  // The next message from this rank to `peer`, and from `peer` to it.
  Status Send(int peer, const void* data, std::size_t bytes);
  Status Receive(int peer, void* data, std::size_t bytes);

  // Ends every wait of this rank, now and later, with ABORTED.
  void Abort() { aborted_.store(true); }

 private:
  SharedClique(std::string name, int size, int rank);

  // Waits for message `suffix` of rank `from` and maps it: its bytes in
  // *out (unmapped by Release), or an error naming the rank.
  struct Mapped {
    std::string name;
    void* base = nullptr;
    std::size_t length = 0;
    const std::byte* data = nullptr;
    std::size_t bytes = 0;
  };
  StatusOr<Mapped> Wait(int from, const std::string& suffix,
                        const std::string& what);
  // Counts this reader; the last of `readers` unlinks the message.
  static void Release(Mapped& mapped, int readers);
  Status Publish(const std::string& suffix, const void* data,
                 std::size_t bytes);

  const std::string name_;
  const int size_;
  const int rank_;
  std::atomic<bool> aborted_{false};
  // Each peer's process id, once it has announced itself.
  std::vector<int64_t> pids_;
  uint64_t next_collective_ = 0;
  std::vector<uint64_t> sent_;
  std::vector<uint64_t> received_;
};

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_EMULATED_NCCL_SHARED_H_
