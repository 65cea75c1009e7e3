#include "plugins/nvidia/nvidia_emulated_nccl_shared.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>
#include <thread>
#include <utility>

namespace phal::nvidia {
namespace {

// What every message starts with; its bytes follow at kDataOffset.
struct Header {
  std::atomic<uint32_t> ready;
  std::atomic<uint32_t> readers_done;
  uint64_t bytes;
  int64_t pid;
};
constexpr std::size_t kDataOffset = 64;
static_assert(sizeof(Header) <= kDataOffset);
static_assert(std::atomic<uint32_t>::is_always_lock_free);

std::string SegmentName(const std::string& clique, const std::string& suffix) {
  return "/" + clique + "-" + suffix;
}

std::string ErrnoText(int error) { return std::strerror(error); }

// Sleeps a little longer each time, up to a millisecond.
class Backoff {
 public:
  void Pause() {
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us_));
    if (delay_us_ < 1000) delay_us_ *= 2;
  }

 private:
  int delay_us_ = 20;
};

bool ProcessExists(int64_t pid) {
  if (pid <= 0) return true;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

}  // namespace

std::string SharedClique::MakeName() {
  static std::atomic<uint64_t> counter{0};
  std::random_device random;
  char text[96];
  std::snprintf(text, sizeof(text), "phal-nccl-%ld-%lu-%08x%08x",
                static_cast<long>(getpid()),
                static_cast<unsigned long>(counter.fetch_add(1)), random(),
                random());
  return text;
}

SharedClique::SharedClique(std::string name, int size, int rank)
    : name_(std::move(name)),
      size_(size),
      rank_(rank),
      pids_(static_cast<std::size_t>(size), 0),
      sent_(static_cast<std::size_t>(size), 0),
      received_(static_cast<std::size_t>(size), 0) {}

SharedClique::~SharedClique() = default;

StatusOr<std::shared_ptr<SharedClique>> SharedClique::Announce(
    const std::string& name, int size, int rank) {
  if (size < 1 || rank < 0 || rank >= size) {
    return InvalidArgument("rank " + std::to_string(rank) +
                           " of a communicator of " + std::to_string(size));
  }
  std::shared_ptr<SharedClique> clique(new SharedClique(name, size, rank));
  clique->pids_[static_cast<std::size_t>(rank)] = getpid();
  if (size > 1) {
    PHAL_RETURN_IF_ERROR(
        clique->Publish("j" + std::to_string(rank), nullptr, 0));
  }
  return clique;
}

Status SharedClique::Complete() {
  for (int q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    PHAL_ASSIGN_OR_RETURN(
        Mapped mapped,
        Wait(q, "j" + std::to_string(q), "its arrival at ncclCommInitRank"));
    pids_[static_cast<std::size_t>(q)] =
        static_cast<const Header*>(mapped.base)->pid;
    Release(mapped, size_ - 1);
  }
  return OkStatus();
}

Status SharedClique::Publish(const std::string& suffix, const void* data,
                             std::size_t bytes) {
  const std::string name = SegmentName(name_, suffix);
  const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    return Internal("the emulated NCCL cannot create " + name + ": " +
                    ErrnoText(errno));
  }
  const std::size_t length = kDataOffset + bytes;
  void* base = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(length)) == 0) {
    base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  const int error = errno;
  close(fd);
  if (base == MAP_FAILED) {
    shm_unlink(name.c_str());
    return ResourceExhausted("the emulated NCCL cannot map " +
                             std::to_string(length) + " bytes of " + name +
                             ": " + ErrnoText(error));
  }
  auto* header = static_cast<Header*>(base);
  header->bytes = bytes;
  header->pid = getpid();
  if (bytes > 0) {
    std::memcpy(static_cast<std::byte*>(base) + kDataOffset, data, bytes);
  }
  header->ready.store(1, std::memory_order_release);
  munmap(base, length);
  return OkStatus();
}

StatusOr<SharedClique::Mapped> SharedClique::Wait(int from,
                                                  const std::string& suffix,
                                                  const std::string& what) {
  Mapped mapped;
  mapped.name = SegmentName(name_, suffix);
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  Backoff backoff;
  const auto stop = [&]() -> Status {
    const std::string rank = "rank " + std::to_string(from) + " of " +
                             std::to_string(size_) + " (emulated NCCL)";
    if (aborted_.load()) {
      return Aborted("the communicator was aborted while rank " +
                     std::to_string(rank_) + " waited for " + rank);
    }
    const int64_t pid = pids_[static_cast<std::size_t>(from)];
    if (!ProcessExists(pid)) {
      return Aborted(rank + ", process " + std::to_string(pid) +
                     ", exited before it sent " + what);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return DeadlineExceeded(rank + " did not send " + what + " within " +
                              std::to_string(kWaitLimit.count()) + " s");
    }
    return OkStatus();
  };
  while (mapped.base == nullptr) {
    const int fd = shm_open(mapped.name.c_str(), O_RDWR, 0);
    if (fd >= 0) {
      struct stat status {};
      if (fstat(fd, &status) == 0 &&
          static_cast<std::size_t>(status.st_size) >= kDataOffset) {
        const auto length = static_cast<std::size_t>(status.st_size);
        void* base =
            mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (base != MAP_FAILED) {
          mapped.base = base;
          mapped.length = length;
        }
      }
      close(fd);
      if (mapped.base != nullptr) break;
    }
    PHAL_RETURN_IF_ERROR(stop());
    backoff.Pause();
  }
  auto* header = static_cast<Header*>(mapped.base);
  while (header->ready.load(std::memory_order_acquire) == 0) {
    const Status stopped = stop();
    if (!stopped.ok()) {
      munmap(mapped.base, mapped.length);
      return stopped;
    }
    backoff.Pause();
  }
  mapped.bytes = header->bytes;
  mapped.data = static_cast<const std::byte*>(mapped.base) + kDataOffset;
  return mapped;
}

void SharedClique::Release(Mapped& mapped, int readers) {
  auto* header = static_cast<Header*>(mapped.base);
  if (header->readers_done.fetch_add(1) + 1 == static_cast<uint32_t>(readers)) {
    shm_unlink(mapped.name.c_str());
  }
  munmap(mapped.base, mapped.length);
  mapped.base = nullptr;
}

Status SharedClique::Gather(
    const std::byte* mine, std::size_t bytes,
    const std::function<void(std::span<const std::byte* const>)>& use) {
  const std::string sequence = "c" + std::to_string(next_collective_++) + "-";
  if (size_ > 1) {
    PHAL_RETURN_IF_ERROR(
        Publish(sequence + std::to_string(rank_), mine, bytes));
  }
  std::vector<Mapped> peers;
  std::vector<const std::byte*> ranges(static_cast<std::size_t>(size_));
  Status status = OkStatus();
  for (int q = 0; q < size_ && status.ok(); ++q) {
    if (q == rank_) {
      ranges[static_cast<std::size_t>(q)] = mine;
      continue;
    }
    StatusOr<Mapped> mapped =
        Wait(q, sequence + std::to_string(q), "its part of a collective");
    if (!mapped.ok()) {
      status = mapped.status();
      break;
    }
    if (mapped->bytes != bytes) {
      status = FailedPrecondition(
          "rank " + std::to_string(q) + " sent " +
          std::to_string(mapped->bytes) + " bytes to a collective where rank " +
          std::to_string(rank_) + " sent " + std::to_string(bytes));
    }
    ranges[static_cast<std::size_t>(q)] = mapped->data;
    peers.push_back(std::move(*mapped));
  }
  if (status.ok()) use(ranges);
  for (Mapped& mapped : peers) Release(mapped, size_ - 1);
  return status;
}

Status SharedClique::Send(int peer, const void* data, std::size_t bytes) {
  const uint64_t k = sent_[static_cast<std::size_t>(peer)]++;
  return Publish("p" + std::to_string(rank_) + "-" + std::to_string(peer) +
                     "-" + std::to_string(k),
                 data, bytes);
}

Status SharedClique::Receive(int peer, void* data, std::size_t bytes) {
  const uint64_t k = received_[static_cast<std::size_t>(peer)]++;
  PHAL_ASSIGN_OR_RETURN(
      Mapped mapped, Wait(peer,
                          "p" + std::to_string(peer) + "-" +
                              std::to_string(rank_) + "-" + std::to_string(k),
                          "a message"));
  Status status = OkStatus();
  if (mapped.bytes != bytes) {
    status = FailedPrecondition("rank " + std::to_string(rank_) + " receives " +
                                std::to_string(bytes) + " bytes from rank " +
                                std::to_string(peer) + ", which sent " +
                                std::to_string(mapped.bytes));
  } else if (bytes > 0) {
    std::memcpy(data, mapped.data, bytes);
  }
  Release(mapped, 1);
  return status;
}

}  // namespace phal::nvidia
