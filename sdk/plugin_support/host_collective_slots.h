// The collective slots (ABI 1.8, kPluginCollectiveSlots) of a plugin whose
// device memory the host addresses, over HostCommunicator
// (host_communicator.h). The plugin's communicator handle is a
// HostCommunicatorRank,
//
//   struct phal_plugin_communicator final : phal::HostCommunicatorRank {};
//
// PHAL_DEFINE_HOST_COMMUNICATOR_SLOTS() writes device_supports_collective,
// communicator_create, communicator_destroy and communicator_abort, and
// the plugin's stream_collective is one call of QueueHostCollective with
// two functions of its own: where a buffer's range lies in host memory,
// and how its stream queues work.
//
//   phal_status_t* StreamCollective(...) noexcept {
//     return phal::RunAtAbiBoundary([&] {
//       return phal::QueueHostCollective(
//           *communicator, desc, send, send_offset, recv, recv_offset,
//           [](phal_plugin_buffer_t* b, uint64_t offset, uint64_t bytes) {
//             return b->RangeStart(offset, bytes);  // StatusOr<std::byte*>
//           },
//           [&](std::function<phal::Status()> work) {
//             stream->Enqueue(std::move(work));  // runs on the stream
//             return phal::OkStatus();
//           });
//     });
//   }
//
// The work blocks its stream until every rank's part has arrived, so each
// rank's stream must run on a thread of its own (a worker per stream, or
// the thread that queues, as phal::HostQueue does).
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COLLECTIVE_SLOTS_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COLLECTIVE_SLOTS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/collective_desc.h"
#include "sdk/plugin_support/host_communicator.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal {

// One rank's handle: the communicator all ranks share, the rank, and the
// device it was created for.
struct HostCommunicatorRank {
  std::shared_ptr<HostCommunicator> group;
  uint32_t rank = 0;
  const void* device = nullptr;
};

// What communicator_create checks of its devices: at least one, none
// NULL, none twice.
template <typename Device>
Status CheckCommunicatorDevices(Device* const* devices, uint32_t count) {
  if (count == 0) return InvalidArgument("a communicator needs a device");
  std::set<const void*> distinct(devices, devices + count);
  if (distinct.size() != count || distinct.count(nullptr) != 0) {
    return InvalidArgument(
        "a communicator's devices must be distinct and not NULL");
  }
  return OkStatus();
}

// communicator_create's body: one HostCommunicator for `count` distinct
// devices, a Handle (a HostCommunicatorRank) per rank in out[0..count).
template <typename Handle, typename Device>
Status CreateHostCommunicators(Device* const* devices, uint32_t count,
                               Handle** out) {
  PHAL_RETURN_IF_ERROR(CheckCommunicatorDevices(devices, count));
  auto group = std::make_shared<HostCommunicator>(count);
  std::vector<std::unique_ptr<Handle>> handles;
  for (uint32_t rank = 0; rank < count; ++rank) {
    auto handle = std::make_unique<Handle>();
    handle->group = group;
    handle->rank = rank;
    handle->device = devices[rank];
    handles.push_back(std::move(handle));
  }
  for (uint32_t rank = 0; rank < count; ++rank) {
    out[rank] = handles[rank].release();
  }
  return OkStatus();
}

// stream_collective's body: reads and checks `desc` and the ranges of
// `send` and `recv` (host_range(buffer, offset, bytes) gives the host
// address of a range inside a buffer, or its error), and queues, with
// queue(work), the rank's part of the collective.
template <typename Buffer, typename HostRange, typename Queue>
Status QueueHostCollective(const HostCommunicatorRank& communicator,
                           const phal_collective_desc_t* desc, Buffer* send,
                           uint64_t send_offset, Buffer* recv,
                           uint64_t recv_offset, HostRange&& host_range,
                           Queue&& queue) {
  PHAL_ASSIGN_OR_RETURN(CollectiveDesc collective, CollectiveDesc::From(desc));
  PHAL_ASSIGN_OR_RETURN(
      CollectiveBytes bytes,
      CheckCollectiveDesc(collective, communicator.group->size()));
  PHAL_ASSIGN_OR_RETURN(std::byte * send_bytes,
                        host_range(send, send_offset, bytes.send));
  PHAL_ASSIGN_OR_RETURN(std::byte * recv_bytes,
                        host_range(recv, recv_offset, bytes.recv));
  return queue([group = communicator.group, rank = communicator.rank,
                collective = std::move(collective), send_bytes,
                recv_bytes]() -> Status {
    return group->Run(rank, collective, send_bytes, recv_bytes);
  });
}

}  // namespace phal

// See the top of this file. Use it after the communicator type is
// complete, in the plugin's collectives file.
#define PHAL_DEFINE_HOST_COMMUNICATOR_SLOTS()                                 \
  phal_status_t* DeviceSupportsCollective(phal_plugin_device_t* /*device*/,   \
                                          const phal_collective_desc_t* desc, \
                                          int* out_supported) noexcept {      \
    return ::phal::RunAtAbiBoundary([&]() -> ::phal::Status {                 \
      *out_supported = ::phal::HostCommunicatorSupports(*desc) ? 1 : 0;       \
      return ::phal::OkStatus();                                              \
    });                                                                       \
  }                                                                           \
  phal_status_t* CommunicatorCreate(                                          \
      phal_plugin_device_t* const* devices, uint32_t count,                   \
      phal_plugin_communicator_t** out_communicators) noexcept {              \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      return ::phal::CreateHostCommunicators(devices, count,                  \
                                             out_communicators);              \
    });                                                                       \
  }                                                                           \
  void CommunicatorDestroy(                                                   \
      phal_plugin_communicator_t* communicator) noexcept {                    \
    delete communicator;                                                      \
  }                                                                           \
  phal_status_t* CommunicatorAbort(                                           \
      phal_plugin_communicator_t* communicator) noexcept {                    \
    return ::phal::RunAtAbiBoundary([&] {                                     \
      communicator->group->Abort();                                           \
      return ::phal::OkStatus();                                              \
    });                                                                       \
  }

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_HOST_COLLECTIVE_SLOTS_H_
