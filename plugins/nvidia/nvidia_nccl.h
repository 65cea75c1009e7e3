// NCCL as the plugin calls it: the types, constants and entry points it
// uses, declared here with the values nccl.h gives them (so nothing needs
// nccl.h to build), and a table of entry points resolved at run time. Two
// tables exist, as for the CUDA driver (nvidia_cuda.h): NCCL's
// (libnccl.so.2, opened with dlopen, never linked) and the grid emulator's
// (nvidia_emulator.h), which implements the same entry points over the
// emulator's memory. The plugin's collective library (NcclLibrary, the
// GPU layer's GpuCollectiveLibrary) drives either, so the emulated
// devices run the code path a GPU runs.
//
// PHAL_NVIDIA_NCCL chooses how much the library runs:
//   exact (the default)  the collectives whose bits NCCL gives as plugin.h's
//                        layouts do: data movement of every type, and
//                        reductions of integers and pred, of floating types
//                        over two ranks, or on the emulator (which reduces
//                        in rank order); the rest are staged through host
//                        memory in rank order
//   fast                 every floating-point sum and product too, in
//                        NCCL's order (ring or tree): the same bits on
//                        every run of one machine, not the rank order's
//   off                  none: every collective is staged
// PHAL_NVIDIA_NCCL_LIBRARY names another library than libnccl.so.2.
#ifndef POLYHAL_PLUGINS_NVIDIA_NVIDIA_NCCL_H_
#define POLYHAL_PLUGINS_NVIDIA_NVIDIA_NCCL_H_

#include <cstddef>
#include <string>

#include "plugins/nvidia/nvidia_cuda.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_driver.h"

namespace phal::nvidia {

enum ncclResult_t : int {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
};

enum ncclDataType_t : int {
  ncclInt8 = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,
  ncclFloat32 = 7,
  ncclFloat64 = 8,
  ncclBfloat16 = 9,
};

enum ncclRedOp_t : int {
  ncclSum = 0,
  ncclProd = 1,
  ncclMax = 2,
  ncclMin = 3,
};

// The element types NCCL has, each with its Polyhal type, and its four
// reductions with theirs: the plugin maps one way (nvidia_nccl.cc), the
// emulator the other (nvidia_emulated_nccl.cc).
struct NcclTypeName {
  uint32_t element_type;  // phal_element_type_t
  ncclDataType_t nccl;
};
inline constexpr NcclTypeName kNcclTypes[] = {
    {PHAL_ELEMENT_TYPE_S8, ncclInt8},
    {PHAL_ELEMENT_TYPE_U8, ncclUint8},
    {PHAL_ELEMENT_TYPE_S32, ncclInt32},
    {PHAL_ELEMENT_TYPE_U32, ncclUint32},
    {PHAL_ELEMENT_TYPE_S64, ncclInt64},
    {PHAL_ELEMENT_TYPE_U64, ncclUint64},
    {PHAL_ELEMENT_TYPE_F16, ncclFloat16},
    {PHAL_ELEMENT_TYPE_BF16, ncclBfloat16},
    {PHAL_ELEMENT_TYPE_F32, ncclFloat32},
    {PHAL_ELEMENT_TYPE_F64, ncclFloat64},
};
struct NcclReductionName {
  uint32_t reduction;  // phal_reduction_t
  ncclRedOp_t nccl;
};
inline constexpr NcclReductionName kNcclReductions[] = {
    {PHAL_REDUCTION_SUM, ncclSum},
    {PHAL_REDUCTION_PRODUCT, ncclProd},
    {PHAL_REDUCTION_MIN, ncclMin},
    {PHAL_REDUCTION_MAX, ncclMax},
};

// Opaque to the plugin; the grid emulator defines the one it hands out.
struct ncclComm;
using ncclComm_t = ncclComm*;

// What one process makes and every rank of a communicator over several
// processes joins with (ncclCommInitRank), passed by value as NCCL does.
inline constexpr std::size_t kNcclUniqueIdBytes = 128;
struct ncclUniqueId {
  char internal[kNcclUniqueIdBytes];
};

// Every entry point the plugin calls, as nvidia_cuda.h lists the driver's.
#define PHAL_NCCL_ENTRY_POINTS(X)                                              \
  X(kRequired, ncclGetVersion, "ncclGetVersion", (int* version))               \
  X(kRequired, ncclCommInitAll, "ncclCommInitAll",                             \
    (ncclComm_t * comms, int count, const int* devices))                       \
  X(kRequired, ncclGetUniqueId, "ncclGetUniqueId", (ncclUniqueId * id))        \
  X(kRequired, ncclCommInitRank, "ncclCommInitRank",                           \
    (ncclComm_t * comm, int ranks, ncclUniqueId id, int rank))                 \
  X(kRequired, ncclCommDestroy, "ncclCommDestroy", (ncclComm_t comm))          \
  X(kRequired, ncclCommAbort, "ncclCommAbort", (ncclComm_t comm))              \
  X(kRequired, ncclAllReduce, "ncclAllReduce",                                 \
    (const void* send, void* recv, size_t count, ncclDataType_t type,          \
     ncclRedOp_t op, ncclComm_t comm, CUstream stream))                        \
  X(kRequired, ncclAllGather, "ncclAllGather",                                 \
    (const void* send, void* recv, size_t send_count, ncclDataType_t type,     \
     ncclComm_t comm, CUstream stream))                                        \
  X(kRequired, ncclReduceScatter, "ncclReduceScatter",                         \
    (const void* send, void* recv, size_t recv_count, ncclDataType_t type,     \
     ncclRedOp_t op, ncclComm_t comm, CUstream stream))                        \
  X(kRequired, ncclBroadcast, "ncclBroadcast",                                 \
    (const void* send, void* recv, size_t count, ncclDataType_t type,          \
     int root, ncclComm_t comm, CUstream stream))                              \
  X(kRequired, ncclSend, "ncclSend",                                           \
    (const void* send, size_t count, ncclDataType_t type, int peer,            \
     ncclComm_t comm, CUstream stream))                                        \
  X(kRequired, ncclRecv, "ncclRecv",                                           \
    (void* recv, size_t count, ncclDataType_t type, int peer, ncclComm_t comm, \
     CUstream stream))                                                         \
  X(kRequired, ncclGroupStart, "ncclGroupStart", ())                           \
  X(kRequired, ncclGroupEnd, "ncclGroupEnd", ())

#define PHAL_NCCL_DECLARE_ENTRY_POINT(requirement, member, symbol, parameters) \
  ncclResult_t(*member) parameters = nullptr;

struct Nccl {
  // The library opened, or the grid emulator.
  std::string implementation;
  // ncclGetVersion's answer: 10000 * major + 100 * minor + patch.
  int version = 0;
  // True where every reduction is combined in rank order (the emulator's).
  bool reduces_in_rank_order = false;
  PHAL_NCCL_ENTRY_POINTS(PHAL_NCCL_DECLARE_ENTRY_POINT)
  const char* (*ncclGetErrorString)(ncclResult_t result) = nullptr;
  // The emulator's explanation of the last error it returned on the
  // calling thread; NULL for NCCL.
  std::string (*last_error_detail)() = nullptr;
};

#undef PHAL_NCCL_DECLARE_ENTRY_POINT

// NCCL's table: libnccl.so.2 (or PHAL_NVIDIA_NCCL_LIBRARY) opened and its
// version read on the first call; on every call after a failure, the
// reason.
StatusOr<const Nccl*> GetNccl();

// OK for ncclSuccess; else an error naming `what`, the result and NCCL's
// description of it (and the emulator's detail).
Status NcclStatus(const Nccl& nccl, ncclResult_t result,
                  const std::string& what);

// The collective library of a CUDA driver's devices over `nccl`; NULL when
// PHAL_NVIDIA_NCCL=off. Valid for the process's life.
const gpu_plugin::GpuCollectiveLibrary* NcclLibraryOver(const Nccl& nccl,
                                                        const Cuda& cuda);

}  // namespace phal::nvidia

#endif  // POLYHAL_PLUGINS_NVIDIA_NVIDIA_NCCL_H_
