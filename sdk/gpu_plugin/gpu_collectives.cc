// Collectives between a GPU plugin's devices (ABI 1.8). Each rank's part
// waits for the work queued before it on its stream, copies its send range
// to the host, meets its peers in the SDK's HostCommunicator
// (sdk/plugin_support/host_communicator.h), and copies its result back:
// the emulated devices run them over the emulator's memory, a real GPU
// through its driver's copies. A device-side collective library (NCCL,
// RCCL) is what would replace this staging on real hardware.
#include <cstddef>
#include <vector>

#include "sdk/gpu_plugin/gpu_memory.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/gpu_plugin/gpu_stream.h"
#include "sdk/plugin_support/host_collective_slots.h"

struct phal_plugin_communicator final : phal::HostCommunicatorRank {};

namespace phal::gpu_plugin {

PHAL_DEFINE_HOST_COMMUNICATOR_SLOTS()

phal_status_t* StreamCollective(phal_plugin_stream_t* stream,
                                phal_plugin_communicator_t* communicator,
                                const phal_collective_desc_t* desc,
                                phal_plugin_buffer_t* send,
                                uint64_t send_offset,
                                phal_plugin_buffer_t* recv,
                                uint64_t recv_offset) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_ASSIGN_OR_RETURN(CollectiveDesc collective,
                          CollectiveDesc::From(desc));
    PHAL_ASSIGN_OR_RETURN(
        CollectiveBytes bytes,
        CheckCollectiveDesc(collective, communicator->group->size()));
    const Buffer& source = *send->buffer;
    const Buffer& target = *recv->buffer;
    PHAL_RETURN_IF_ERROR(source.CheckRange(send_offset, bytes.send));
    PHAL_RETURN_IF_ERROR(target.CheckRange(recv_offset, bytes.recv));
    std::vector<std::byte> in(bytes.send);
    std::vector<std::byte> out(bytes.recv);
    // An error of earlier work stays the stream's; the rank still takes
    // part, so that its peers are not left waiting.
    Status staged =
        stream->CopyToHost(source, send_offset, in.data(), bytes.send);
    if (staged.ok()) staged = stream->Drain();
    Status ran = communicator->group->Run(communicator->rank, collective,
                                          in.data(), out.data());
    if (!ran.ok()) {
      stream->AddError(std::move(ran));
      return OkStatus();
    }
    if (!staged.ok()) return OkStatus();
    PHAL_RETURN_IF_ERROR(
        stream->CopyFromHost(out.data(), target, recv_offset, bytes.recv));
    // `out` is freed on return: the copy must have finished.
    stream->Drain().ok();
    return OkStatus();
  });
}

}  // namespace phal::gpu_plugin
