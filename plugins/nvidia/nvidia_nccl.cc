#include "plugins/nvidia/nvidia_nccl.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "plugins/nvidia/nvidia_emulator.h"
#include "plugins/nvidia/nvidia_plugin.h"
#include "sdk/base/element_types.h"

namespace phal::nvidia {
namespace {

using gpu_plugin::GpuAddress;
using gpu_plugin::GpuCollectiveLibrary;

constexpr bool kRequired = true;

struct Loaded {
  std::once_flag once;
  void* library = nullptr;
  Nccl nccl;
  Status status;
};

Loaded& State() {
  // Never destroyed, as the CUDA driver's table (nvidia_cuda.cc).
  static Loaded* loaded = new Loaded();
  return *loaded;
}

Status Load(Loaded& loaded) {
  const char* name = std::getenv("PHAL_NVIDIA_NCCL_LIBRARY");
  if (name == nullptr || *name == '\0') name = "libnccl.so.2";
  loaded.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (loaded.library == nullptr) {
    const char* error = dlerror();
    return NotFound(std::string("no NCCL: ") + name + " cannot be opened: " +
                    (error != nullptr ? error : "dlopen failed"));
  }
  Nccl& nccl = loaded.nccl;
  nccl.implementation = name;
  std::string missing;
#define PHAL_NCCL_RESOLVE(requirement, member, symbol, parameters)            \
  nccl.member =                                                               \
      reinterpret_cast<decltype(nccl.member)>(dlsym(loaded.library, symbol)); \
  if (nccl.member == nullptr && requirement) missing += " " symbol;
  PHAL_NCCL_ENTRY_POINTS(PHAL_NCCL_RESOLVE)
#undef PHAL_NCCL_RESOLVE
  nccl.ncclGetErrorString = reinterpret_cast<decltype(nccl.ncclGetErrorString)>(
      dlsym(loaded.library, "ncclGetErrorString"));
  if (!missing.empty()) {
    return FailedPrecondition(std::string("NCCL ") + name +
                              " lacks entry points the plugin needs (older "
                              "than NCCL 2.7?):" +
                              missing);
  }
  return NcclStatus(nccl, nccl.ncclGetVersion(&nccl.version), "ncclGetVersion");
}

// How much the library runs (nvidia_nccl.h); kOff also for a value the
// knob does not have, so that a misspelt knob shows as a device without
// collectives=... in its features.
enum class Mode { kOff, kExact, kFast };

Mode ModeFromEnvironment() {
  const char* text = std::getenv("PHAL_NVIDIA_NCCL");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "exact") == 0) {
    return Mode::kExact;
  }
  if (std::strcmp(text, "fast") == 0) return Mode::kFast;
  return Mode::kOff;
}

// NCCL's type for reducing elements of `type`; pred is a byte of 0 or 1.
bool ReductionType(uint32_t type, ncclDataType_t* out) {
  if (type == PHAL_ELEMENT_TYPE_PRED) type = PHAL_ELEMENT_TYPE_U8;
  for (const NcclTypeName& known : kNcclTypes) {
    if (known.element_type == type) {
      *out = known.nccl;
      return true;
    }
  }
  return false;
}

// NCCL's op for `reduction` of `type`: and and or only of pred (min and
// max of 0 and 1), sum and product of anything but pred.
bool ReductionOp(uint32_t type, uint32_t reduction, ncclRedOp_t* out) {
  const bool pred = type == PHAL_ELEMENT_TYPE_PRED;
  if (pred && (reduction == PHAL_REDUCTION_SUM ||
               reduction == PHAL_REDUCTION_PRODUCT)) {
    return false;
  }
  if (pred && reduction == PHAL_REDUCTION_AND) reduction = PHAL_REDUCTION_MIN;
  if (pred && reduction == PHAL_REDUCTION_OR) reduction = PHAL_REDUCTION_MAX;
  for (const NcclReductionName& known : kNcclReductions) {
    if (known.reduction == reduction) {
      *out = known.nccl;
      return true;
    }
  }
  return false;
}

bool IsFloating(uint32_t type) {
  return type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16 ||
         type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
}

// One rank's communicator; an aborted one is freed by NCCL already.
struct NcclRank {
  ncclComm_t comm = nullptr;
  bool aborted = false;
};

// Zeros for a permute's ranks that receive from no one.
constexpr std::size_t kZeroBytes = 64 << 10;
const std::array<unsigned char, kZeroBytes> kZeros{};

class NcclLibrary final : public GpuCollectiveLibrary {
 public:
  NcclLibrary(const Nccl& nccl, const Cuda& cuda, Mode mode)
      : nccl_(nccl), cuda_(cuda), mode_(mode) {}

  std::string Description() const override {
    if (nccl_.reduces_in_rank_order) return "nccl-emulated";
    return "nccl-" + std::to_string(nccl_.version / 10000) + "." +
           std::to_string(nccl_.version / 100 % 100) + "." +
           std::to_string(nccl_.version % 100);
  }

  bool Runs(const CollectiveDesc& desc, uint32_t ranks) const override {
    switch (desc.kind) {
      case PHAL_COLLECTIVE_BROADCAST:
      case PHAL_COLLECTIVE_PERMUTE:
        return true;
      case PHAL_COLLECTIVE_ALL_GATHER:
      case PHAL_COLLECTIVE_ALL_TO_ALL:
        // NCCL's blocks are whole ranges: one outer block only.
        return desc.outer_count == 1;
      case PHAL_COLLECTIVE_REDUCE_SCATTER:
        if (desc.outer_count != 1) return false;
        return ReducesExactly(desc, ranks);
      case PHAL_COLLECTIVE_ALL_REDUCE:
        return ReducesExactly(desc, ranks);
      default:
        return false;
    }
  }

  Status Create(std::span<const gpu_plugin::GpuPlace> places,
                std::vector<Communicator>* out) const override {
    std::vector<int> devices;
    for (const gpu_plugin::GpuPlace& place : places) {
      devices.push_back(place.device);
    }
    std::vector<ncclComm_t> comms(places.size(), nullptr);
    PHAL_RETURN_IF_ERROR(
        Check(nccl_.ncclCommInitAll(
                  comms.data(), static_cast<int>(comms.size()), devices.data()),
              "ncclCommInitAll"));
    out->clear();
    for (ncclComm_t comm : comms) out->push_back(new NcclRank{comm, false});
    return OkStatus();
  }

  bool Joins() const override { return true; }

  Status MakeId(const gpu_plugin::GpuPlace& /*place*/,
                phal_communicator_id_t* out) const override {
    static_assert(sizeof(ncclUniqueId) == PHAL_COMMUNICATOR_ID_SIZE);
    ncclUniqueId id{};
    PHAL_RETURN_IF_ERROR(Check(nccl_.ncclGetUniqueId(&id), "ncclGetUniqueId"));
    std::memcpy(out->bytes, id.internal, sizeof(id.internal));
    return OkStatus();
  }

  // Every local rank's ncclCommInitRank in one group (NCCL then waits for
  // them all at once), each with its device's context current.
  Status Join(const phal_communicator_id_t& id, uint32_t rank_count,
              std::span<const gpu_plugin::GpuPlace> places,
              std::span<const uint32_t> ranks,
              std::vector<Communicator>* out) const override {
    ncclUniqueId unique{};
    std::memcpy(unique.internal, id.bytes, sizeof(unique.internal));
    std::vector<ncclComm_t> comms(places.size(), nullptr);
    PHAL_RETURN_IF_ERROR(Check(nccl_.ncclGroupStart(), "ncclGroupStart"));
    Status queued = OkStatus();
    for (std::size_t i = 0; i < places.size() && queued.ok(); ++i) {
      queued = CudaStatus(
          cuda_,
          cuda_.cuCtxPushCurrent(static_cast<CUcontext>(places[i].context)),
          "cuCtxPushCurrent");
      if (!queued.ok()) break;
      queued =
          Check(nccl_.ncclCommInitRank(&comms[i], static_cast<int>(rank_count),
                                       unique, static_cast<int>(ranks[i])),
                "ncclCommInitRank");
      CUcontext popped = nullptr;
      cuda_.cuCtxPopCurrent(&popped);
    }
    const Status ended = Check(nccl_.ncclGroupEnd(), "ncclGroupEnd");
    if (!queued.ok() || !ended.ok()) {
      for (ncclComm_t comm : comms) {
        if (comm != nullptr) static_cast<void>(nccl_.ncclCommAbort(comm));
      }
      return queued.ok() ? ended : queued;
    }
    out->clear();
    for (ncclComm_t comm : comms) out->push_back(new NcclRank{comm, false});
    return OkStatus();
  }

  void Destroy(Communicator communicator) const override {
    auto* rank = static_cast<NcclRank*>(communicator);
    if (!rank->aborted) static_cast<void>(nccl_.ncclCommDestroy(rank->comm));
    delete rank;
  }

  void Abort(Communicator communicator) const override {
    auto* rank = static_cast<NcclRank*>(communicator);
    if (rank->aborted) return;
    static_cast<void>(nccl_.ncclCommAbort(rank->comm));
    rank->aborted = true;
  }

  Status Queue(Communicator communicator, uint32_t rank, uint32_t ranks,
               const CollectiveDesc& desc, GpuAddress send, GpuAddress recv,
               gpu_plugin::GpuStream handle) const override {
    const ncclComm_t comm = static_cast<NcclRank*>(communicator)->comm;
    auto* stream = static_cast<CUstream>(handle);
    const uint64_t element = ElementTypeByteSize(desc.element_type);
    const uint64_t count = desc.outer_count * desc.block_count;
    const uint64_t block_bytes = desc.block_count * element;
    const void* in = reinterpret_cast<const void*>(send);
    void* out = reinterpret_cast<void*>(recv);
    ncclDataType_t type = ncclUint8;
    ncclRedOp_t op = ncclSum;
    switch (desc.kind) {
      case PHAL_COLLECTIVE_ALL_REDUCE:
        if (count == 0) return OkStatus();
        ReductionType(desc.element_type, &type);
        ReductionOp(desc.element_type, desc.reduction, &op);
        return Check(
            nccl_.ncclAllReduce(in, out, count, type, op, comm, stream),
            "ncclAllReduce");
      case PHAL_COLLECTIVE_REDUCE_SCATTER:
        if (count == 0) return OkStatus();
        ReductionType(desc.element_type, &type);
        ReductionOp(desc.element_type, desc.reduction, &op);
        return Check(nccl_.ncclReduceScatter(in, out, desc.block_count, type,
                                             op, comm, stream),
                     "ncclReduceScatter");
      case PHAL_COLLECTIVE_ALL_GATHER:
        if (block_bytes == 0) return OkStatus();
        return Check(
            nccl_.ncclAllGather(in, out, block_bytes, ncclUint8, comm, stream),
            "ncclAllGather");
      case PHAL_COLLECTIVE_BROADCAST:
        if (count == 0) return OkStatus();
        return Check(
            nccl_.ncclBroadcast(in, out, count * element, ncclUint8,
                                static_cast<int>(desc.root), comm, stream),
            "ncclBroadcast");
      case PHAL_COLLECTIVE_ALL_TO_ALL:
        return AllToAll(comm, ranks, block_bytes, send, recv, stream);
      case PHAL_COLLECTIVE_PERMUTE:
        return Permute(comm, rank, desc, count * element, send, recv, stream);
      default:
        return Unimplemented(desc.ToString() + " is not an NCCL collective");
    }
  }

 private:
  // A reduction NCCL computes with the rank order's bits: integers and
  // pred in any order; floating types where NCCL reduces in rank order
  // (the emulator), over two ranks (a commutative step; f32 and f64,
  // which NCCL adds in their own precision), or in fast mode.
  bool ReducesExactly(const CollectiveDesc& desc, uint32_t ranks) const {
    ncclDataType_t type;
    ncclRedOp_t op;
    if (!ReductionType(desc.element_type, &type) ||
        !ReductionOp(desc.element_type, desc.reduction, &op)) {
      return false;
    }
    if (!IsFloating(desc.element_type) || nccl_.reduces_in_rank_order) {
      return true;
    }
    // NCCL's minimum and maximum of floats are not StableHLO's (NaN, -0).
    if (op == ncclMin || op == ncclMax) return false;
    if (mode_ == Mode::kFast) return true;
    return ranks <= 2 && (desc.element_type == PHAL_ELEMENT_TYPE_F32 ||
                          desc.element_type == PHAL_ELEMENT_TYPE_F64);
  }

  Status Check(ncclResult_t result, const char* what) const {
    return NcclStatus(nccl_, result, what);
  }

  // Sends and receives of one group: NCCL matches them as a whole, so no
  // rank waits for a peer that waits for it.
  template <typename Queue>
  Status Grouped(const Queue& queue) const {
    PHAL_RETURN_IF_ERROR(Check(nccl_.ncclGroupStart(), "ncclGroupStart"));
    const Status queued = queue();
    const Status ended = Check(nccl_.ncclGroupEnd(), "ncclGroupEnd");
    return queued.ok() ? ended : queued;
  }

  Status AllToAll(ncclComm_t comm, uint32_t ranks, uint64_t block_bytes,
                  GpuAddress send, GpuAddress recv, CUstream stream) const {
    if (block_bytes == 0) return OkStatus();
    return Grouped([&]() -> Status {
      for (uint32_t peer = 0; peer < ranks; ++peer) {
        const uint64_t offset = peer * block_bytes;
        PHAL_RETURN_IF_ERROR(
            Check(nccl_.ncclSend(reinterpret_cast<const void*>(send + offset),
                                 block_bytes, ncclUint8, static_cast<int>(peer),
                                 comm, stream),
                  "ncclSend"));
        PHAL_RETURN_IF_ERROR(Check(
            nccl_.ncclRecv(reinterpret_cast<void*>(recv + offset), block_bytes,
                           ncclUint8, static_cast<int>(peer), comm, stream),
            "ncclRecv"));
      }
      return OkStatus();
    });
  }

  Status Permute(ncclComm_t comm, uint32_t rank, const CollectiveDesc& desc,
                 uint64_t bytes, GpuAddress send, GpuAddress recv,
                 CUstream stream) const {
    if (bytes == 0) return OkStatus();
    int source = -1;
    int target = -1;
    for (const phal_collective_pair_t& pair : desc.pairs) {
      if (pair.source == rank) target = static_cast<int>(pair.target);
      if (pair.target == rank) source = static_cast<int>(pair.source);
    }
    const int self = static_cast<int>(rank);
    PHAL_RETURN_IF_ERROR(Grouped([&]() -> Status {
      if (target >= 0 && target != self) {
        PHAL_RETURN_IF_ERROR(
            Check(nccl_.ncclSend(reinterpret_cast<const void*>(send), bytes,
                                 ncclUint8, target, comm, stream),
                  "ncclSend"));
      }
      if (source >= 0 && source != self) {
        PHAL_RETURN_IF_ERROR(
            Check(nccl_.ncclRecv(reinterpret_cast<void*>(recv), bytes,
                                 ncclUint8, source, comm, stream),
                  "ncclRecv"));
      }
      return OkStatus();
    }));
    if (source == self) {
      return CudaStatus(cuda_,
                        cuda_.cuMemcpyDtoDAsync(recv, send, bytes, stream),
                        "cuMemcpyDtoDAsync");
    }
    if (source >= 0) return OkStatus();
    // No source: the rank receives zeros.
    for (uint64_t done = 0; done < bytes; done += kZeroBytes) {
      const uint64_t piece = std::min<uint64_t>(kZeroBytes, bytes - done);
      PHAL_RETURN_IF_ERROR(CudaStatus(
          cuda_,
          cuda_.cuMemcpyHtoDAsync(recv + done, kZeros.data(), piece, stream),
          "cuMemcpyHtoDAsync"));
    }
    return OkStatus();
  }

  const Nccl& nccl_;
  const Cuda& cuda_;
  const Mode mode_;
};

}  // namespace

StatusOr<const Nccl*> GetNccl() {
  Loaded& loaded = State();
  std::call_once(loaded.once, [&] { loaded.status = Load(loaded); });
  if (!loaded.status.ok()) return loaded.status;
  return &loaded.nccl;
}

Status NcclStatus(const Nccl& nccl, ncclResult_t result,
                  const std::string& what) {
  if (result == ncclSuccess) return OkStatus();
  std::string message = "nvidia plugin: " + what + " failed: NCCL result " +
                        std::to_string(static_cast<int>(result));
  if (nccl.ncclGetErrorString != nullptr) {
    const char* text = nccl.ncclGetErrorString(result);
    if (text != nullptr) message += std::string(" (") + text + ")";
  }
  if (nccl.last_error_detail != nullptr) {
    const std::string detail = nccl.last_error_detail();
    if (!detail.empty()) message += ": " + detail;
  }
  switch (result) {
    case ncclInvalidArgument:
      return InvalidArgument(message);
    case ncclInvalidUsage:
      return FailedPrecondition(message);
    case ncclRemoteError:
      return Aborted(message);
    default:
      return Internal(message);
  }
}

const gpu_plugin::GpuCollectiveLibrary* NcclLibraryOver(const Nccl& nccl,
                                                        const Cuda& cuda) {
  const Mode mode = ModeFromEnvironment();
  if (mode == Mode::kOff) return nullptr;
  static std::mutex mutex;
  // Never destroyed: communicators may outlive static destruction.
  static auto* libraries =
      new std::map<std::tuple<const Nccl*, const Cuda*, Mode>, NcclLibrary*>();
  std::lock_guard<std::mutex> lock(mutex);
  NcclLibrary*& library = (*libraries)[{&nccl, &cuda, mode}];
  if (library == nullptr) library = new NcclLibrary(nccl, cuda, mode);
  return library;
}

const gpu_plugin::GpuCollectiveLibrary* CudaDriver::CollectiveLibrary() const {
  if (emulated_) return NcclLibraryOver(EmulatedNccl(), cuda_);
  StatusOr<const Nccl*> nccl = GetNccl();
  if (!nccl.ok()) return nullptr;
  return NcclLibraryOver(**nccl, cuda_);
}

}  // namespace phal::nvidia
