#include "core/distributed/mpi_job.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace phal {
namespace {

void FinalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// Every MPI call of the process, so that several threads exchange at once
// on an MPI that only promises MPI_THREAD_SERIALIZED.
std::mutex& MpiMutex() {
  static std::mutex mutex;
  return mutex;
}

// The largest piece of a message one MPI call carries (its count is an int).
constexpr std::size_t kPieceBytes = std::size_t{1} << 30;

}  // namespace

StatusOr<MpiJob*> MpiJob::Get() {
  static std::once_flag once;
  static MpiJob* job = nullptr;
  static Status failure = OkStatus();
  std::call_once(once, [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) !=
          MPI_SUCCESS) {
        failure = Unavailable("MPI_Init_thread failed");
        return;
      }
      std::atexit(FinalizeAtExit);
    }
    // Errors come back as codes, never as an abort inside MPI.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    job = new MpiJob(rank, size);
  });
  if (job == nullptr) return failure;
  return job;
}

Status MpiJob::ExchangeRaw(std::span<const phal_host_message_t> sends,
                           std::span<const phal_host_message_t> receives,
                           std::chrono::milliseconds timeout,
                           const std::string& what) {
  // Each request with the message it belongs to: receives first, then
  // sends.
  std::vector<MPI_Request> requests;
  std::vector<std::size_t> owner;
  const auto post = [&](const phal_host_message_t& message, std::size_t index,
                        bool receive) -> Status {
    auto* data = static_cast<uint8_t*>(message.data);
    std::size_t offset = 0;
    do {
      const std::size_t piece = std::min(kPieceBytes, message.size - offset);
      MPI_Request request = MPI_REQUEST_NULL;
      const int code =
          receive
              ? MPI_Irecv(data + offset, static_cast<int>(piece), MPI_BYTE,
                          message.peer, message.tag, MPI_COMM_WORLD, &request)
              : MPI_Isend(data + offset, static_cast<int>(piece), MPI_BYTE,
                          message.peer, message.tag, MPI_COMM_WORLD, &request);
      if (code != MPI_SUCCESS) {
        return Internal(
            what +
            (receive ? ": MPI_Irecv from rank " : ": MPI_Isend to rank ") +
            std::to_string(message.peer) + " failed");
      }
      requests.push_back(request);
      owner.push_back(index);
      offset += piece;
    } while (offset < message.size);
    return OkStatus();
  };
  {
    std::lock_guard<std::mutex> lock(MpiMutex());
    for (std::size_t i = 0; i < receives.size(); ++i) {
      PHAL_RETURN_IF_ERROR(post(receives[i], i, true));
    }
    for (std::size_t i = 0; i < sends.size(); ++i) {
      PHAL_RETURN_IF_ERROR(post(sends[i], receives.size() + i, false));
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<MPI_Status> statuses(requests.size());
  for (;;) {
    int done = 0;
    int code = MPI_SUCCESS;
    {
      std::lock_guard<std::mutex> lock(MpiMutex());
      code = MPI_Testall(static_cast<int>(requests.size()), requests.data(),
                         &done, statuses.data());
    }
    if (code != MPI_SUCCESS) {
      for (std::size_t i = 0; i < requests.size(); ++i) {
        if (owner[i] < receives.size() &&
            statuses[i].MPI_ERROR == MPI_ERR_TRUNCATE) {
          const phal_host_message_t& message = receives[owner[i]];
          return FailedPrecondition(
              what + ": rank " + std::to_string(message.peer) +
              " sent more than the " + std::to_string(message.size) +
              " bytes expected (do all ranks run the same program?)");
        }
      }
      return Internal(what + ": MPI_Testall failed");
    }
    if (done) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      std::vector<int> missing;
      std::vector<int> unreceived;
      std::lock_guard<std::mutex> lock(MpiMutex());
      for (std::size_t i = 0; i < requests.size(); ++i) {
        int complete = 0;
        MPI_Test(&requests[i], &complete, MPI_STATUS_IGNORE);
        if (complete) continue;
        std::vector<int>& list =
            owner[i] < receives.size() ? missing : unreceived;
        const int peer = owner[i] < receives.size()
                             ? receives[owner[i]].peer
                             : sends[owner[i] - receives.size()].peer;
        if (std::find(list.begin(), list.end(), peer) == list.end()) {
          list.push_back(peer);
        }
        MPI_Cancel(&requests[i]);
        MPI_Request_free(&requests[i]);
      }
      if (missing.empty()) {
        return DeadlineExceeded(what + ": ranks " +
                                RankListToString(unreceived) +
                                " did not take this rank's messages within " +
                                std::to_string(timeout.count()) + " ms");
      }
      return DeadlineExceeded(what + ": ranks " + RankListToString(missing) +
                              " did not arrive within " +
                              std::to_string(timeout.count()) + " ms");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  // A receive whose pieces came in full, but fewer bytes in one of them.
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (owner[i] >= receives.size()) continue;
    int count = 0;
    MPI_Get_count(&statuses[i], MPI_BYTE, &count);
    const phal_host_message_t& message = receives[owner[i]];
    std::size_t expected = message.size % kPieceBytes;
    if (expected == 0 && message.size != 0) expected = kPieceBytes;
    const bool last = i + 1 == requests.size() || owner[i + 1] != owner[i];
    if (static_cast<std::size_t>(count) != (last ? expected : kPieceBytes)) {
      return FailedPrecondition(
          what + ": rank " + std::to_string(message.peer) + " sent " +
          std::to_string(count) + " bytes where " +
          std::to_string(last ? expected : kPieceBytes) +
          " were expected (do all ranks run the same program?)");
    }
  }
  return OkStatus();
}

void MpiJob::Abort(int code) {
  std::lock_guard<std::mutex> lock(MpiMutex());
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace phal
