#include "core/distributed/mpi_job.h"

#include <mpi.h>

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

std::string RankList(const std::vector<int>& ranks) {
  std::string text = "{";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(ranks[i]);
  }
  return text + "}";
}

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

Status MpiJob::Exchange(std::vector<Message>& sends,
                        std::vector<Message>& receives, int tag,
                        std::chrono::milliseconds timeout,
                        const std::string& what) {
  std::vector<MPI_Request> requests;
  for (Message& message : receives) {
    MPI_Request request = MPI_REQUEST_NULL;
    if (MPI_Irecv(message.bytes.data(), static_cast<int>(message.bytes.size()),
                  MPI_BYTE, message.peer, tag, MPI_COMM_WORLD,
                  &request) != MPI_SUCCESS) {
      return Internal(what + ": MPI_Irecv from rank " +
                      std::to_string(message.peer) + " failed");
    }
    requests.push_back(request);
  }
  for (Message& message : sends) {
    MPI_Request request = MPI_REQUEST_NULL;
    if (MPI_Isend(message.bytes.data(), static_cast<int>(message.bytes.size()),
                  MPI_BYTE, message.peer, tag, MPI_COMM_WORLD,
                  &request) != MPI_SUCCESS) {
      return Internal(what + ": MPI_Isend to rank " +
                      std::to_string(message.peer) + " failed");
    }
    requests.push_back(request);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<MPI_Status> statuses(requests.size());
  for (;;) {
    int done = 0;
    const int code = MPI_Testall(static_cast<int>(requests.size()),
                                 requests.data(), &done, statuses.data());
    if (code != MPI_SUCCESS) {
      for (std::size_t i = 0; i < receives.size(); ++i) {
        if (statuses[i].MPI_ERROR == MPI_ERR_TRUNCATE) {
          return FailedPrecondition(
              what + ": rank " + std::to_string(receives[i].peer) +
              " sent more than the " +
              std::to_string(receives[i].bytes.size()) +
              " bytes expected (do all ranks run the same program?)");
        }
      }
      return Internal(what + ": MPI_Testall failed");
    }
    if (done) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      std::vector<int> missing;
      std::vector<int> unreceived;
      for (std::size_t i = 0; i < requests.size(); ++i) {
        int complete = 0;
        MPI_Test(&requests[i], &complete, MPI_STATUS_IGNORE);
        if (complete) continue;
        if (i < receives.size()) {
          missing.push_back(receives[i].peer);
        } else {
          unreceived.push_back(sends[i - receives.size()].peer);
        }
      }
      for (MPI_Request& request : requests) {
        if (request != MPI_REQUEST_NULL) {
          MPI_Cancel(&request);
          MPI_Request_free(&request);
        }
      }
      if (missing.empty()) {
        return DeadlineExceeded(what + ": ranks " + RankList(unreceived) +
                                " did not take this rank's messages within " +
                                std::to_string(timeout.count()) + " ms");
      }
      return DeadlineExceeded(what + ": ranks " + RankList(missing) +
                              " did not arrive within " +
                              std::to_string(timeout.count()) + " ms");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  for (std::size_t i = 0; i < receives.size(); ++i) {
    int count = 0;
    MPI_Get_count(&statuses[i], MPI_BYTE, &count);
    if (static_cast<std::size_t>(count) != receives[i].bytes.size()) {
      return FailedPrecondition(
          what + ": rank " + std::to_string(receives[i].peer) + " sent " +
          std::to_string(count) + " bytes, " +
          std::to_string(receives[i].bytes.size()) +
          " were expected (do all ranks run the same program?)");
    }
  }
  return OkStatus();
}

StatusOr<std::vector<std::vector<uint8_t>>> MpiJob::AllGather(
    const std::vector<uint8_t>& bytes, int tag,
    std::chrono::milliseconds timeout, const std::string& what) {
  std::vector<Message> sends;
  std::vector<Message> receives;
  for (int peer = 0; peer < size_; ++peer) {
    if (peer == rank_) continue;
    sends.push_back({peer, bytes});
    receives.push_back({peer, std::vector<uint8_t>(bytes.size())});
  }
  PHAL_RETURN_IF_ERROR(Exchange(sends, receives, tag, timeout, what));
  std::vector<std::vector<uint8_t>> all(static_cast<std::size_t>(size_));
  all[static_cast<std::size_t>(rank_)] = bytes;
  for (Message& message : receives) {
    all[static_cast<std::size_t>(message.peer)] = std::move(message.bytes);
  }
  return all;
}

void MpiJob::Abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace phal
