// Collectives between cpu devices (ABI 1.8): every device's memory is the
// host's, so the ranks meet in process and each rank's stream worker reads
// its peers' send ranges and does its share of the work directly
// (HostCommunicator): nothing is staged, and n devices' threads share the
// arithmetic and the copies.
#include <functional>
#include <utility>

#include "plugins/cpu/cpu_memory.h"
#include "plugins/cpu/cpu_plugin.h"
#include "plugins/cpu/cpu_stream.h"
#include "sdk/plugin_support/host_collective_slots.h"

struct phal_plugin_communicator final : phal::HostCommunicatorRank {};

namespace phal::cpu {

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
        [](phal_plugin_buffer_t* buffer, uint64_t offset, uint64_t bytes) {
          return buffer->RangeStart(offset, bytes);
        },
        [&](std::function<Status()> work) {
          // On an idle stream the rank's part runs on the calling thread
          // (the core queues each rank from a thread of its own): no
          // hand-off to the worker and back.
          if (!stream->RunIfIdle(work)) stream->Enqueue(std::move(work));
          return OkStatus();
        });
  });
}

}  // namespace phal::cpu
