// Collectives between the template's devices (ABI 1.8). Its memory is
// host memory, so the SDK's HostCommunicator
// (sdk/plugin_support/host_communicator.h) runs them in process: the ranks
// meet, each does its share, nothing is staged. The stream runs work in the
// caller (template_stream.h), so a rank's call returns once the collective
// is complete for it.
// TODO(vendor): where your devices exchange data themselves (a link
// between chips, a collective library such as NCCL or RCCL), make a
// communicator of your library in communicator_create and queue its
// collective on the stream in stream_collective; answer
// device_supports_collective for what it runs and leave the rest to the
// core, which stages it through host memory.
#include <functional>
#include <utility>

#include "sdk/plugin_support/host_collective_slots.h"
#include "template_memory.h"
#include "template_plugin.h"
#include "template_stream.h"

struct phal_plugin_communicator final : phal::HostCommunicatorRank {};

namespace phal::template_plugin {

PHAL_DEFINE_HOST_COMMUNICATOR_SLOTS()

phal_status_t* StreamCollective(phal_plugin_stream_t* stream,
                                phal_plugin_communicator_t* communicator,
                                const phal_collective_desc_t* desc,
                                phal_plugin_buffer_t* send,
                                uint64_t send_offset,
                                phal_plugin_buffer_t* recv,
                                uint64_t recv_offset) noexcept {
  return RunAtAbiBoundary([&] {
    return QueueHostCollective(
        *communicator, desc, send, send_offset, recv, recv_offset,
        [](phal_plugin_buffer_t* buffer, uint64_t offset,
           uint64_t bytes) -> StatusOr<std::byte*> {
          PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, bytes));
          return buffer->HostBytes(offset, bytes);
        },
        [&](std::function<Status()> work) {
          stream->Run(work);
          return OkStatus();
        });
  });
}

}  // namespace phal::template_plugin
