#include "core/distributed/mpi_job.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "sdk/base/element_types.h"

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

// The tag of the messages with which a group's ranks meet before MPI makes
// its communicator (above every tag the collectives and clients use).
constexpr int kGroupTag = 32767;

// The communicators of MakeGroup's groups, by handle; under MpiMutex().
std::vector<MPI_Comm>& Groups() {
  static std::vector<MPI_Comm> groups;
  return groups;
}

// Between two polls of a request: a yield at first, so that a short wait
// stays short, then 20 us sleeps, so that a long one leaves the cores to
// the ranks that are late.
void Pause(int poll) {
  if (poll < 64) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

// MPI's datatype and op for `reduction` on `type`, or nullopt. Signed
// sums and products run on the unsigned type of the same width, which
// wraps as two's complement.
std::optional<std::pair<MPI_Datatype, MPI_Op>> MpiReduction(
    phal_element_type_t type, phal_reduction_t reduction) {
  MPI_Datatype signed_type = MPI_DATATYPE_NULL;
  MPI_Datatype unsigned_type = MPI_DATATYPE_NULL;
  switch (type) {
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_F64: {
      const MPI_Datatype floating =
          type == PHAL_ELEMENT_TYPE_F32 ? MPI_FLOAT : MPI_DOUBLE;
      if (reduction == PHAL_REDUCTION_SUM) return std::pair(floating, MPI_SUM);
      if (reduction == PHAL_REDUCTION_PRODUCT) {
        return std::pair(floating, MPI_PROD);
      }
      return std::nullopt;
    }
    case PHAL_ELEMENT_TYPE_PRED:
      // Bytes of 0 or 1: and, or, and min and max, which are and and or.
      if (reduction == PHAL_REDUCTION_AND || reduction == PHAL_REDUCTION_MIN) {
        return std::pair(MPI_UINT8_T, MPI_BAND);
      }
      if (reduction == PHAL_REDUCTION_OR || reduction == PHAL_REDUCTION_MAX) {
        return std::pair(MPI_UINT8_T, MPI_BOR);
      }
      return std::nullopt;
    case PHAL_ELEMENT_TYPE_S8:
      signed_type = MPI_INT8_T;
      unsigned_type = MPI_UINT8_T;
      break;
    case PHAL_ELEMENT_TYPE_S16:
      signed_type = MPI_INT16_T;
      unsigned_type = MPI_UINT16_T;
      break;
    case PHAL_ELEMENT_TYPE_S32:
      signed_type = MPI_INT32_T;
      unsigned_type = MPI_UINT32_T;
      break;
    case PHAL_ELEMENT_TYPE_S64:
      signed_type = MPI_INT64_T;
      unsigned_type = MPI_UINT64_T;
      break;
    case PHAL_ELEMENT_TYPE_U8:
      signed_type = unsigned_type = MPI_UINT8_T;
      break;
    case PHAL_ELEMENT_TYPE_U16:
      signed_type = unsigned_type = MPI_UINT16_T;
      break;
    case PHAL_ELEMENT_TYPE_U32:
      signed_type = unsigned_type = MPI_UINT32_T;
      break;
    case PHAL_ELEMENT_TYPE_U64:
      signed_type = unsigned_type = MPI_UINT64_T;
      break;
    default:
      return std::nullopt;
  }
  switch (reduction) {
    case PHAL_REDUCTION_SUM:
      return std::pair(unsigned_type, MPI_SUM);
    case PHAL_REDUCTION_PRODUCT:
      return std::pair(unsigned_type, MPI_PROD);
    case PHAL_REDUCTION_MIN:
      return std::pair(signed_type, MPI_MIN);
    case PHAL_REDUCTION_MAX:
      return std::pair(signed_type, MPI_MAX);
    case PHAL_REDUCTION_AND:
      return std::pair(unsigned_type, MPI_BAND);
    case PHAL_REDUCTION_OR:
      return std::pair(unsigned_type, MPI_BOR);
    default:
      return std::nullopt;
  }
}

}  // namespace

StatusOr<MpiJob*> MpiJob::Get() {
  static std::once_flag once;
  static MpiJob* job = nullptr;
  static Status failure = OkStatus();
  std::call_once(once, [] {
    StatusOr<TransportReductions> reductions =
        TransportReductionsFromEnv("PHAL_MPI_REDUCTIONS");
    if (!reductions.ok()) {
      failure = reductions.status();
      return;
    }
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
    job = new MpiJob(rank, size, *reductions);
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
  for (int poll = 0;;) {
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
    Pause(poll++);
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

MpiJob::MpiJob(int rank, int size, TransportReductions reductions)
    : RawHostTransport(rank, size), reductions_(reductions) {
  ChainReductions(*this);
}

bool MpiJob::Supports(phal_element_type_t type, phal_reduction_t reduction,
                      int rank_count) const {
  return MpiReduction(type, reduction).has_value() &&
         ReductionsAllow(reductions_, type, rank_count);
}

StatusOr<uint64_t> MpiJob::MakeGroup(std::span<const int> ranks,
                                     std::chrono::milliseconds timeout) {
  const std::vector<int> list(ranks.begin(), ranks.end());
  const std::string what = "making MPI's communicator of ranks " +
                           RankListToString(list) + " (rank " +
                           std::to_string(rank()) + ")";
  // The ranks meet first, so that one that never comes is named within the
  // timeout rather than holding MPI_Comm_create_group forever.
  uint8_t byte = 1;
  std::vector<uint8_t> theirs(list.size(), 0);
  std::vector<phal_host_message_t> sends;
  std::vector<phal_host_message_t> receives;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == rank()) continue;
    sends.push_back({list[i], kGroupTag, &byte, 1});
    receives.push_back({list[i], kGroupTag, &theirs[i], 1});
  }
  PHAL_RETURN_IF_ERROR(ExchangeRaw(sends, receives, timeout, what));
  std::lock_guard<std::mutex> lock(MpiMutex());
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Group members = MPI_GROUP_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  int code = MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (code == MPI_SUCCESS) {
    code = MPI_Group_incl(world, static_cast<int>(list.size()), list.data(),
                          &members);
  }
  if (code == MPI_SUCCESS) {
    code = MPI_Comm_create_group(MPI_COMM_WORLD, members, 0, &comm);
  }
  if (members != MPI_GROUP_NULL) MPI_Group_free(&members);
  if (world != MPI_GROUP_NULL) MPI_Group_free(&world);
  if (code != MPI_SUCCESS || comm == MPI_COMM_NULL) {
    return Internal(what + ": MPI_Comm_create_group failed");
  }
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  Groups().push_back(comm);
  return static_cast<uint64_t>(Groups().size() - 1);
}

Status MpiJob::AllReduce(uint64_t group, void* data, std::size_t count,
                         phal_element_type_t type, phal_reduction_t reduction,
                         std::chrono::milliseconds timeout,
                         const std::string& what) {
  const std::optional<std::pair<MPI_Datatype, MPI_Op>> mpi =
      MpiReduction(type, reduction);
  if (!mpi.has_value()) {
    return InvalidArgument(what + ": MPI does not run this reduction on " +
                           std::string(ElementTypeName(type)));
  }
  MPI_Comm comm = MPI_COMM_NULL;
  int width = 0;
  {
    std::lock_guard<std::mutex> lock(MpiMutex());
    if (group >= Groups().size()) {
      return InvalidArgument(what + ": no group " + std::to_string(group));
    }
    comm = Groups()[group];
    MPI_Type_size(mpi->first, &width);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto* bytes = static_cast<uint8_t*>(data);
  const std::size_t piece_elements =
      kPieceBytes / static_cast<std::size_t>(width);
  for (std::size_t done = 0; done < count;) {
    const std::size_t piece = std::min(piece_elements, count - done);
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard<std::mutex> lock(MpiMutex());
      if (MPI_Iallreduce(MPI_IN_PLACE,
                         bytes + done * static_cast<std::size_t>(width),
                         static_cast<int>(piece), mpi->first, mpi->second, comm,
                         &request) != MPI_SUCCESS) {
        return Internal(what + ": MPI_Iallreduce failed");
      }
    }
    for (int poll = 0;; ++poll) {
      int complete = 0;
      int code = MPI_SUCCESS;
      {
        std::lock_guard<std::mutex> lock(MpiMutex());
        code = MPI_Test(&request, &complete, MPI_STATUS_IGNORE);
      }
      if (code != MPI_SUCCESS) {
        return Internal(what + ": MPI_Iallreduce failed");
      }
      if (complete) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        return DeadlineExceeded(
            what + ": MPI's all-reduce did not complete within " +
            std::to_string(timeout.count()) +
            " ms (a rank of the group stopped after the collective began)");
      }
      Pause(poll);
    }
    done += piece;
  }
  return OkStatus();
}

void MpiJob::Abort(int code) {
  std::lock_guard<std::mutex> lock(MpiMutex());
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace phal
