// The grid emulator's NCCL (nvidia_emulator.h). A clique (ncclCommInitAll)
// is a HostCommunicator over its ranks and a mailbox per ordered pair of
// ranks. The collectives are the HostCommunicator's on the emulated
// devices' memory (host addresses); a send copies its bytes into the
// mailbox at once, a receive waits for them; inside ncclGroupStart and
// ncclGroupEnd the calling thread's sends and receives are held and run at
// ncclGroupEnd, every send first. ncclCommAbort fails every waiting and
// later call of the clique.
//
// A communicator joined with ncclGetUniqueId and ncclCommInitRank may span
// processes: its ranks meet in shared memory (nvidia_emulated_nccl_shared.h)
// and each computes its own receive range from every rank's send range
// with the HostCommunicator's arithmetic, so the bits are the clique's.
// Initialisations inside a group are held to ncclGroupEnd, where every
// rank of the calling thread announces itself before any waits.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "plugins/nvidia/nvidia_emulated_nccl_shared.h"
#include "plugins/nvidia/nvidia_emulator.h"
#include "sdk/base/element_types.h"
#include "sdk/gpu_plugin/gpu_emulator.h"
#include "sdk/plugin_support/host_communicator.h"

namespace phal::nvidia {
namespace {

// The NCCL version whose entry points the emulator implements.
constexpr int kEmulatedVersion = 22809;

struct Clique {
  explicit Clique(int ranks)
      : size(ranks),
        host(static_cast<uint32_t>(ranks)),
        mail(static_cast<std::size_t>(ranks) *
             static_cast<std::size_t>(ranks)) {}

  const int size;
  HostCommunicator host;
  std::mutex mutex;
  std::condition_variable changed;
  // mail[from * size + to]: the messages in the order they were sent.
  std::vector<std::deque<std::vector<unsigned char>>> mail;
  bool aborted = false;
};

}  // namespace

struct ncclComm {
  // One of the two: the ranks of one process, or of several.
  std::shared_ptr<Clique> clique;
  std::shared_ptr<SharedClique> shared;
  int rank = 0;

  int size() const { return shared != nullptr ? shared->size() : clique->size; }
};

namespace {

// A send or receive held until ncclGroupEnd.
struct Transfer {
  bool send = false;
  const void* from = nullptr;
  void* to = nullptr;
  std::size_t bytes = 0;
  int peer = 0;
  ncclComm_t comm = nullptr;
};

// An ncclCommInitRank held until ncclGroupEnd.
struct Init {
  ncclComm_t* comm = nullptr;
  std::string name;
  int size = 0;
  int rank = 0;
};

struct Group {
  int depth = 0;
  std::vector<Transfer> held;
  std::vector<Init> inits;
};

thread_local Group group;

ncclResult_t Fail(ncclResult_t result, std::string detail) {
  gpu_plugin::SetEmulatorErrorDetail(std::move(detail));
  return result;
}

ncclResult_t Succeed() {
  gpu_plugin::SetEmulatorErrorDetail("");
  return ncclSuccess;
}

// A HostCommunicator failure as NCCL's result: a peer's failure or an
// abort as a remote error, a wrong call as invalid usage.
ncclResult_t FromStatus(const Status& status) {
  if (status.ok()) return Succeed();
  const ncclResult_t result =
      status.code() == PHAL_ABORTED || status.code() == PHAL_DEADLINE_EXCEEDED
          ? ncclRemoteError
          : ncclInvalidUsage;
  return Fail(result, status.ToString());
}

bool ElementType(ncclDataType_t type, uint32_t* out) {
  for (const NcclTypeName& known : kNcclTypes) {
    if (known.nccl == type) {
      *out = known.element_type;
      return true;
    }
  }
  return false;
}

bool Reduction(ncclRedOp_t op, uint32_t* out) {
  for (const NcclReductionName& known : kNcclReductions) {
    if (known.nccl == op) {
      *out = known.reduction;
      return true;
    }
  }
  return false;
}

// Rank comm->rank's part of a collective of `kind` on the clique's
// HostCommunicator; the emulator's calls wait for no timeout, as NCCL's.
ncclResult_t Collective(ncclComm_t comm, uint32_t kind, ncclDataType_t type,
                        ncclRedOp_t op, bool reduces, uint64_t block, int root,
                        const void* send, void* recv) {
  if (comm == nullptr) return Fail(ncclInvalidArgument, "a NULL communicator");
  if (group.depth > 0) {
    return Fail(ncclInvalidUsage,
                "the emulator runs only sends and receives in a group");
  }
  CollectiveDesc desc;
  desc.kind = kind;
  if (!ElementType(type, &desc.element_type)) {
    return Fail(ncclInvalidArgument,
                "data type " + std::to_string(static_cast<int>(type)));
  }
  if (reduces && !Reduction(op, &desc.reduction)) {
    return Fail(ncclInvalidArgument,
                "reduction " + std::to_string(static_cast<int>(op)));
  }
  desc.block_count = block;
  desc.root = static_cast<uint32_t>(root);
  if (comm->shared != nullptr) {
    StatusOr<CollectiveBytes> bytes =
        CheckCollectiveDesc(desc, static_cast<uint32_t>(comm->size()));
    if (!bytes.ok()) return FromStatus(bytes.status());
    auto* out = static_cast<std::byte*>(recv);
    return FromStatus(comm->shared->Gather(
        static_cast<const std::byte*>(send), bytes->send,
        [&](std::span<const std::byte* const> sends) {
          ComputeCollectiveRank(desc, sends, static_cast<uint32_t>(comm->rank),
                                out);
        }));
  }
  return FromStatus(comm->clique->host.Run(
      static_cast<uint32_t>(comm->rank), desc,
      static_cast<const std::byte*>(send), static_cast<std::byte*>(recv)));
}

ncclResult_t GetVersion(int* version) {
  *version = kEmulatedVersion;
  return Succeed();
}

const char* GetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess:
      return "no error";
    case ncclInvalidArgument:
      return "invalid argument";
    case ncclInvalidUsage:
      return "invalid usage";
    case ncclRemoteError:
      return "remote process exited or there was a network error";
    default:
      return "internal error";
  }
}

ncclResult_t CommInitAll(ncclComm_t* comms, int count, const int* devices) {
  if (comms == nullptr || count < 1) {
    return Fail(ncclInvalidArgument, "no communicators to make");
  }
  for (int i = 0; i < count; ++i) {
    const int device = devices != nullptr ? devices[i] : i;
    const Status checked = gpu_plugin::CheckEmulatedDevice(device);
    if (!checked.ok()) return Fail(ncclInvalidArgument, checked.ToString());
  }
  auto clique = std::make_shared<Clique>(count);
  for (int i = 0; i < count; ++i) comms[i] = new ncclComm{clique, nullptr, i};
  return Succeed();
}

ncclResult_t GetUniqueId(ncclUniqueId* id) {
  if (id == nullptr) return Fail(ncclInvalidArgument, "a NULL id");
  std::memset(id->internal, 0, sizeof(id->internal));
  const std::string name = SharedClique::MakeName();
  std::memcpy(id->internal, name.data(),
              std::min(name.size(), sizeof(id->internal) - 1));
  return Succeed();
}

// Announces every held rank, then waits for each one's peers.
ncclResult_t InitHeld(std::vector<Init> inits) {
  std::vector<std::shared_ptr<SharedClique>> cliques;
  Status status = OkStatus();
  for (const Init& init : inits) {
    StatusOr<std::shared_ptr<SharedClique>> clique =
        SharedClique::Announce(init.name, init.size, init.rank);
    if (!clique.ok()) {
      status = clique.status();
      break;
    }
    cliques.push_back(std::move(*clique));
  }
  for (std::size_t i = 0; i < cliques.size() && status.ok(); ++i) {
    status = cliques[i]->Complete();
  }
  if (!status.ok()) return FromStatus(status);
  for (std::size_t i = 0; i < inits.size(); ++i) {
    *inits[i].comm = new ncclComm{nullptr, cliques[i], inits[i].rank};
  }
  return Succeed();
}

ncclResult_t CommInitRank(ncclComm_t* comm, int ranks, ncclUniqueId id,
                          int rank) {
  if (comm == nullptr || ranks < 1 || rank < 0 || rank >= ranks) {
    return Fail(ncclInvalidArgument, "rank " + std::to_string(rank) + " of " +
                                         std::to_string(ranks));
  }
  *comm = nullptr;
  Init init{comm,
            std::string(id.internal, strnlen(id.internal, sizeof(id.internal))),
            ranks, rank};
  if (init.name.rfind("phal-nccl-", 0) != 0) {
    return Fail(ncclInvalidArgument,
                "the id was not made by the emulator's ncclGetUniqueId");
  }
  if (group.depth > 0) {
    group.inits.push_back(std::move(init));
    return Succeed();
  }
  return InitHeld({std::move(init)});
}

ncclResult_t CommDestroy(ncclComm_t comm) {
  delete comm;
  return Succeed();
}

ncclResult_t CommAbort(ncclComm_t comm) {
  if (comm == nullptr) return Succeed();
  if (comm->shared != nullptr) {
    comm->shared->Abort();
    delete comm;
    return Succeed();
  }
  Clique& clique = *comm->clique;
  clique.host.Abort();
  {
    std::lock_guard<std::mutex> lock(clique.mutex);
    clique.aborted = true;
  }
  clique.changed.notify_all();
  delete comm;
  return Succeed();
}

ncclResult_t AllReduce(const void* send, void* recv, size_t count,
                       ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                       CUstream /*stream*/) {
  return Collective(comm, PHAL_COLLECTIVE_ALL_REDUCE, type, op, true, count, 0,
                    send, recv);
}

ncclResult_t AllGather(const void* send, void* recv, size_t send_count,
                       ncclDataType_t type, ncclComm_t comm,
                       CUstream /*stream*/) {
  return Collective(comm, PHAL_COLLECTIVE_ALL_GATHER, type, ncclSum, false,
                    send_count, 0, send, recv);
}

ncclResult_t ReduceScatter(const void* send, void* recv, size_t recv_count,
                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                           CUstream /*stream*/) {
  return Collective(comm, PHAL_COLLECTIVE_REDUCE_SCATTER, type, op, true,
                    recv_count, 0, send, recv);
}

ncclResult_t Broadcast(const void* send, void* recv, size_t count,
                       ncclDataType_t type, int root, ncclComm_t comm,
                       CUstream /*stream*/) {
  if (comm != nullptr && (root < 0 || root >= comm->size())) {
    return Fail(ncclInvalidArgument, "root " + std::to_string(root));
  }
  return Collective(comm, PHAL_COLLECTIVE_BROADCAST, type, ncclSum, false,
                    count, root, send, recv);
}

// A send or a receive of bytes, run now.
ncclResult_t Move(const Transfer& transfer) {
  if (SharedClique* shared = transfer.comm->shared.get()) {
    return FromStatus(
        transfer.send
            ? shared->Send(transfer.peer, transfer.from, transfer.bytes)
            : shared->Receive(transfer.peer, transfer.to, transfer.bytes));
  }
  Clique& clique = *transfer.comm->clique;
  const auto size = static_cast<std::size_t>(clique.size);
  std::unique_lock<std::mutex> lock(clique.mutex);
  if (clique.aborted) return Fail(ncclRemoteError, "the clique was aborted");
  if (transfer.send) {
    const auto* from = static_cast<const unsigned char*>(transfer.from);
    clique
        .mail[static_cast<std::size_t>(transfer.comm->rank) * size +
              static_cast<std::size_t>(transfer.peer)]
        .emplace_back(from, from + transfer.bytes);
    clique.changed.notify_all();
    return Succeed();
  }
  std::deque<std::vector<unsigned char>>& box =
      clique.mail[static_cast<std::size_t>(transfer.peer) * size +
                  static_cast<std::size_t>(transfer.comm->rank)];
  clique.changed.wait(lock, [&] { return clique.aborted || !box.empty(); });
  if (box.empty()) return Fail(ncclRemoteError, "the clique was aborted");
  std::vector<unsigned char> message = std::move(box.front());
  box.pop_front();
  lock.unlock();
  if (message.size() != transfer.bytes) {
    return Fail(ncclInvalidUsage,
                "rank " + std::to_string(transfer.comm->rank) + " receives " +
                    std::to_string(transfer.bytes) + " bytes from rank " +
                    std::to_string(transfer.peer) + ", which sent " +
                    std::to_string(message.size()));
  }
  std::memcpy(transfer.to, message.data(), message.size());
  return Succeed();
}

ncclResult_t HoldOrMove(Transfer transfer) {
  if (transfer.comm == nullptr) {
    return Fail(ncclInvalidArgument, "a NULL communicator");
  }
  if (transfer.peer < 0 || transfer.peer >= transfer.comm->size()) {
    return Fail(ncclInvalidArgument, "peer " + std::to_string(transfer.peer));
  }
  if (group.depth == 0) return Move(transfer);
  group.held.push_back(transfer);
  return Succeed();
}

ncclResult_t Send(const void* send, size_t count, ncclDataType_t type, int peer,
                  ncclComm_t comm, CUstream /*stream*/) {
  uint32_t element_type = 0;
  if (!ElementType(type, &element_type)) {
    return Fail(ncclInvalidArgument,
                "data type " + std::to_string(static_cast<int>(type)));
  }
  return HoldOrMove({true, send, nullptr,
                     count * ElementTypeByteSize(element_type), peer, comm});
}

ncclResult_t Recv(void* recv, size_t count, ncclDataType_t type, int peer,
                  ncclComm_t comm, CUstream /*stream*/) {
  uint32_t element_type = 0;
  if (!ElementType(type, &element_type)) {
    return Fail(ncclInvalidArgument,
                "data type " + std::to_string(static_cast<int>(type)));
  }
  return HoldOrMove({false, nullptr, recv,
                     count * ElementTypeByteSize(element_type), peer, comm});
}

ncclResult_t GroupStart() {
  ++group.depth;
  return Succeed();
}

ncclResult_t GroupEnd() {
  if (group.depth == 0) {
    return Fail(ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");
  }
  if (--group.depth > 0) return Succeed();
  std::vector<Transfer> held = std::move(group.held);
  group.held.clear();
  std::vector<Init> inits = std::move(group.inits);
  group.inits.clear();
  ncclResult_t result = inits.empty() ? ncclSuccess : InitHeld(inits);
  for (int pass = 0; pass < 2; ++pass) {
    for (const Transfer& transfer : held) {
      if (transfer.send != (pass == 0)) continue;
      const ncclResult_t moved = Move(transfer);
      if (result == ncclSuccess) result = moved;
    }
  }
  return result == ncclSuccess ? Succeed() : result;
}

Nccl MakeEmulatedNccl() {
  Nccl nccl;
  nccl.implementation = "the grid emulator";
  nccl.version = kEmulatedVersion;
  nccl.reduces_in_rank_order = true;
  nccl.ncclGetVersion = GetVersion;
  nccl.ncclCommInitAll = CommInitAll;
  nccl.ncclGetUniqueId = GetUniqueId;
  nccl.ncclCommInitRank = CommInitRank;
  nccl.ncclCommDestroy = CommDestroy;
  nccl.ncclCommAbort = CommAbort;
  nccl.ncclAllReduce = AllReduce;
  nccl.ncclAllGather = AllGather;
  nccl.ncclReduceScatter = ReduceScatter;
  nccl.ncclBroadcast = Broadcast;
  nccl.ncclSend = Send;
  nccl.ncclRecv = Recv;
  nccl.ncclGroupStart = GroupStart;
  nccl.ncclGroupEnd = GroupEnd;
  nccl.ncclGetErrorString = GetErrorString;
  nccl.last_error_detail = gpu_plugin::EmulatorErrorDetail;
  return nccl;
}

}  // namespace

const Nccl& EmulatedNccl() {
  static const Nccl* nccl = new Nccl(MakeEmulatedNccl());
  return *nccl;
}

}  // namespace phal::nvidia
