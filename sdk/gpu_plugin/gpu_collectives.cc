// Collectives between a GPU plugin's devices (ABI 1.8). Every rank of a
// communicator first meets its peers in the SDK's HostCommunicator
// (sdk/plugin_support/host_communicator.h), which checks that the ranks'
// descriptions agree, keeps the description's timeout (naming the ranks
// that did not arrive) and honours communicator_abort. Then:
//   - where the devices' runtime has a collective library
//     (GpuDriver::CollectiveLibrary: NCCL for CUDA) and the library runs
//     the description with the layout's bits, each rank queues its part
//     of the library's collective on its stream, device to device;
//   - otherwise the rank waits for the work queued before it, copies its
//     send range to the host, runs the collective in host memory with its
//     peers, and copies its result back.
// The emulated devices take both ways over the emulator's memory (their
// library is the emulator's), a real GPU over its driver.
//
// A communicator over several processes (ABI 1.12: communicator_make_id,
// communicator_join) exists only where the library spans processes
// (GpuCollectiveLibrary::Joins); its collectives always go to the library,
// which has every rank, and the core has met the processes before it
// queues one (a host meeting here would see only this process's ranks).
#include <cstddef>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "sdk/gpu_plugin/gpu_memory.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/gpu_plugin/gpu_stream.h"
#include "sdk/plugin_support/host_collective_slots.h"

namespace phal::gpu_plugin {
namespace {

// What every rank's handle of one communicator shares.
struct CommunicatorGroup {
  explicit CommunicatorGroup(uint32_t ranks)
      : host(std::make_shared<HostCommunicator>(ranks)), rank_count(ranks) {}
  ~CommunicatorGroup() {
    for (GpuCollectiveLibrary::Communicator rank : library_ranks) {
      library->Destroy(rank);
    }
  }
  CommunicatorGroup(const CommunicatorGroup&) = delete;
  CommunicatorGroup& operator=(const CommunicatorGroup&) = delete;

  std::shared_ptr<HostCommunicator> host;
  // The communicator's ranks over every process; more than host's where
  // it was joined.
  uint32_t rank_count;
  bool joined = false;
  // The library and its handle of each rank; none where the devices have
  // no library or it could not make the communicator.
  const GpuCollectiveLibrary* library = nullptr;
  std::vector<GpuCollectiveLibrary::Communicator> library_ranks;
  // Held shared while a rank queues on the library, exclusively to abort
  // its handles (an aborted handle accepts nothing but Destroy).
  std::shared_mutex library_mutex;
  bool library_aborted = false;
};

}  // namespace
}  // namespace phal::gpu_plugin

struct phal_plugin_communicator final {
  std::shared_ptr<phal::gpu_plugin::CommunicatorGroup> group;
  // The handle's index among this process's ranks of the group, and its
  // rank in the communicator (the same unless it was joined).
  uint32_t rank = 0;
  uint32_t global_rank = 0;
};

namespace phal::gpu_plugin {
namespace {

// The library's communicator over `devices`, or none: devices of several
// runtimes, a runtime without a library, or a library that fails to make
// one (the collectives are then staged, which every device can do).
void AttachLibrary(phal_plugin_device_t* const* devices, uint32_t count,
                   CommunicatorGroup& group) {
  const GpuDriver& driver = devices[0]->driver();
  const GpuCollectiveLibrary* library = driver.CollectiveLibrary();
  if (library == nullptr) return;
  std::vector<GpuPlace> places;
  for (uint32_t rank = 0; rank < count; ++rank) {
    if (&devices[rank]->driver() != &driver) return;
    places.push_back(devices[rank]->place());
  }
  std::vector<GpuCollectiveLibrary::Communicator> ranks;
  if (!library->Create(places, &ranks).ok() || ranks.size() != count) return;
  group.library = library;
  group.library_ranks = std::move(ranks);
}

// This process's `count` handles of `group`: handle i is rank ranks[i] of
// the communicator (i where `ranks` is null).
void HandOut(const std::shared_ptr<CommunicatorGroup>& group,
             const uint32_t* ranks, uint32_t count,
             phal_plugin_communicator_t** out) {
  for (uint32_t i = 0; i < count; ++i) {
    out[i] =
        new phal_plugin_communicator{group, i, ranks != nullptr ? ranks[i] : i};
  }
}

// Rank `rank`'s part through host memory, once its peers have arrived.
void RunStaged(Stream& stream, const phal_plugin_communicator& communicator,
               const CollectiveDesc& collective, const CollectiveBytes& bytes,
               const Buffer& source, uint64_t send_offset, const Buffer& target,
               uint64_t recv_offset) {
  std::vector<std::byte> in(bytes.send);
  std::vector<std::byte> out(bytes.recv);
  // An error of earlier work stays the stream's; the rank still takes
  // part, so that its peers are not left waiting.
  Status staged = stream.CopyToHost(source, send_offset, in.data(), bytes.send);
  if (staged.ok()) staged = stream.Drain();
  Status ran = communicator.group->host->Run(communicator.rank, collective,
                                             in.data(), out.data());
  if (!ran.ok()) {
    stream.AddError(std::move(ran));
    return;
  }
  if (!staged.ok()) return;
  Status back =
      stream.CopyFromHost(out.data(), target, recv_offset, bytes.recv);
  // `out` is freed on return: the copy must have finished.
  if (back.ok()) back = stream.Drain();
  if (!back.ok()) stream.AddError(std::move(back));
}

}  // namespace

phal_status_t* DeviceSupportsCollective(phal_plugin_device_t* /*device*/,
                                        const phal_collective_desc_t* desc,
                                        int* out_supported) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    // What the library does not run is staged, so the host's answer is
    // the devices'.
    *out_supported = HostCommunicatorSupports(*desc) ? 1 : 0;
    return OkStatus();
  });
}

phal_status_t* CommunicatorCreate(
    phal_plugin_device_t* const* devices, uint32_t count,
    phal_plugin_communicator_t** out_communicators) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckCommunicatorDevices(devices, count));
    for (uint32_t rank = 0; rank < count; ++rank) {
      PHAL_RETURN_IF_ERROR(
          devices[rank]->CheckRunnable("create communicators"));
    }
    auto group = std::make_shared<CommunicatorGroup>(count);
    AttachLibrary(devices, count, *group);
    HandOut(group, nullptr, count, out_communicators);
    return OkStatus();
  });
}

void CommunicatorDestroy(phal_plugin_communicator_t* communicator) noexcept {
  delete communicator;
}

phal_status_t* CommunicatorAbort(
    phal_plugin_communicator_t* communicator) noexcept {
  return RunAtAbiBoundary([&] {
    CommunicatorGroup& group = *communicator->group;
    // Ranks waiting to meet stop first; a rank queuing on the library
    // finishes queuing before its handles are aborted.
    group.host->Abort();
    std::unique_lock<std::shared_mutex> lock(group.library_mutex);
    if (group.library != nullptr && !group.library_aborted) {
      for (GpuCollectiveLibrary::Communicator rank : group.library_ranks) {
        group.library->Abort(rank);
      }
      group.library_aborted = true;
    }
    return OkStatus();
  });
}

phal_status_t* StreamCollective(phal_plugin_stream_t* stream,
                                phal_plugin_communicator_t* communicator,
                                const phal_collective_desc_t* desc,
                                phal_plugin_buffer_t* send,
                                uint64_t send_offset,
                                phal_plugin_buffer_t* recv,
                                uint64_t recv_offset) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    CommunicatorGroup& group = *communicator->group;
    const uint32_t ranks = group.rank_count;
    PHAL_ASSIGN_OR_RETURN(CollectiveDesc collective,
                          CollectiveDesc::From(desc));
    PHAL_ASSIGN_OR_RETURN(CollectiveBytes bytes,
                          CheckCollectiveDesc(collective, ranks));
    const Buffer& source = *send->buffer;
    const Buffer& target = *recv->buffer;
    PHAL_RETURN_IF_ERROR(source.CheckRange(send_offset, bytes.send));
    PHAL_RETURN_IF_ERROR(target.CheckRange(recv_offset, bytes.recv));
    const bool runs =
        group.library != nullptr && group.library->Runs(collective, ranks);
    if (group.joined && !runs) {
      return FailedPrecondition(collective.ToString() + " over " +
                                std::to_string(ranks) +
                                " ranks of several processes is not run by " +
                                group.library->Description() +
                                " (device_supports_joined_collective says so)");
    }
    if (!runs) {
      RunStaged(*stream, *communicator, collective, bytes, source, send_offset,
                target, recv_offset);
      return OkStatus();
    }
    Status met = group.joined
                     ? OkStatus()
                     : group.host->Meet(communicator->rank, collective);
    if (met.ok()) {
      std::shared_lock<std::shared_mutex> lock(group.library_mutex);
      if (group.library_aborted) {
        met = Aborted("the communicator was aborted");
      } else {
        met = stream->QueueWith([&](GpuStream handle) {
          return group.library->Queue(group.library_ranks[communicator->rank],
                                      communicator->global_rank, ranks,
                                      collective, source.address(send_offset),
                                      target.address(recv_offset), handle);
        });
      }
    }
    if (!met.ok()) stream->AddError(std::move(met));
    return OkStatus();
  });
}

phal_status_t* DeviceSupportsJoinedCollective(
    phal_plugin_device_t* device, const phal_collective_desc_t* desc,
    uint32_t rank_count, int* out_supported) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    *out_supported = 0;
    if (device->compile_only()) return OkStatus();
    const GpuCollectiveLibrary* library = device->driver().CollectiveLibrary();
    if (library == nullptr || !library->Joins()) return OkStatus();
    PHAL_ASSIGN_OR_RETURN(CollectiveDesc collective,
                          CollectiveDesc::From(desc));
    *out_supported = library->Runs(collective, rank_count) ? 1 : 0;
    return OkStatus();
  });
}

phal_status_t* CommunicatorMakeId(phal_plugin_device_t* device,
                                  phal_communicator_id_t* out_id) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("make communicator ids"));
    const GpuCollectiveLibrary* library = device->driver().CollectiveLibrary();
    if (library == nullptr || !library->Joins()) {
      return Unimplemented(
          "the device has no collective library that spans processes");
    }
    return library->MakeId(device->place(), out_id);
  });
}

phal_status_t* CommunicatorJoin(
    const phal_communicator_id_t* id, uint32_t rank_count,
    phal_plugin_device_t* const* devices, const uint32_t* ranks, uint32_t count,
    uint64_t /*timeout_ms*/,
    phal_plugin_communicator_t** out_communicators) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckCommunicatorDevices(devices, count));
    const GpuDriver& driver = devices[0]->driver();
    std::vector<GpuPlace> places;
    for (uint32_t i = 0; i < count; ++i) {
      PHAL_RETURN_IF_ERROR(devices[i]->CheckRunnable("join communicators"));
      if (&devices[i]->driver() != &driver) {
        return InvalidArgument(
            "the devices of one communicator belong to several runtimes");
      }
      if (ranks[i] >= rank_count) {
        return InvalidArgument("rank " + std::to_string(ranks[i]) +
                               " of a communicator of " +
                               std::to_string(rank_count));
      }
      places.push_back(devices[i]->place());
    }
    const GpuCollectiveLibrary* library = driver.CollectiveLibrary();
    if (library == nullptr || !library->Joins()) {
      return Unimplemented(
          "the devices have no collective library that spans processes");
    }
    std::vector<GpuCollectiveLibrary::Communicator> handles;
    PHAL_RETURN_IF_ERROR(library->Join(*id, rank_count, places,
                                       std::span<const uint32_t>(ranks, count),
                                       &handles));
    auto group = std::make_shared<CommunicatorGroup>(count);
    group->rank_count = rank_count;
    group->joined = true;
    group->library = library;
    group->library_ranks = std::move(handles);
    if (group->library_ranks.size() != count) {
      return Internal("the collective library joined " +
                      std::to_string(group->library_ranks.size()) +
                      " ranks of " + std::to_string(count));
    }
    HandOut(group, ranks, count, out_communicators);
    return OkStatus();
  });
}

}  // namespace phal::gpu_plugin
