// Collectives between simulated chips (ABI 1.8). The chips' DRAM is host
// memory, so the data moves as the SDK's HostCommunicator moves it
// (sdk/plugin_support/host_communicator.h); what it costs is the
// interconnect's, counted on each chip as a run of the kernel named after
// the collective's kind.
//
// The interconnect joins every two chips by a link of their own in each
// direction (ArchConfig's link_*), so a chip's transfers to different
// peers run at once. With n chips and S bytes per chip:
//   all-reduce      each chip reduces 1/n of the elements, reading S/n from
//                   every peer, then sends that share to every peer:
//                   2 transfers of S/n in a row
//   all-gather, reduce-scatter, all-to-all
//                   one transfer of a block from every peer at once
//   permute         one transfer of S, where a chip sends or receives
//   broadcast       the root sends S to every peer at once
#include <functional>
#include <utility>

#include "asic_ref_device.h"
#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"
#include "asic_ref_stream.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/host_collective_slots.h"

struct phal_plugin_communicator final : phal::HostCommunicatorRank {};

namespace phal::asic_ref {
namespace {

// What `rank`'s part of `desc` costs on a chip of `config`.
KernelCounters CollectiveCounters(const ArchConfig& config,
                                  const CollectiveDesc& desc, uint32_t rank,
                                  uint32_t ranks) {
  KernelCounters counters;
  const uint64_t bytes = desc.outer_count * desc.block_count *
                         ElementTypeByteSize(desc.element_type);
  const uint64_t peers = ranks - 1;
  if (peers == 0 && desc.kind != PHAL_COLLECTIVE_PERMUTE) return counters;
  switch (desc.kind) {
    case PHAL_COLLECTIVE_ALL_REDUCE: {
      const uint64_t share = (bytes + ranks - 1) / ranks;
      counters.cycles = 2 * LinkTransferCycles(config, share);
      counters.link_bytes_sent = 2 * peers * share;
      counters.link_bytes_received = 2 * peers * share;
      break;
    }
    case PHAL_COLLECTIVE_ALL_GATHER:
    case PHAL_COLLECTIVE_REDUCE_SCATTER:
    case PHAL_COLLECTIVE_ALL_TO_ALL:
      // `bytes` is one block per peer for each of these layouts.
      counters.cycles = LinkTransferCycles(config, bytes);
      counters.link_bytes_sent = peers * bytes;
      counters.link_bytes_received = peers * bytes;
      break;
    case PHAL_COLLECTIVE_PERMUTE:
      for (const phal_collective_pair_t& pair : desc.pairs) {
        if (pair.source == pair.target) continue;
        if (pair.source == rank) counters.link_bytes_sent = bytes;
        if (pair.target == rank) counters.link_bytes_received = bytes;
      }
      if (counters.link_bytes_sent + counters.link_bytes_received > 0) {
        counters.cycles = LinkTransferCycles(config, bytes);
      }
      break;
    case PHAL_COLLECTIVE_BROADCAST:
      counters.cycles = LinkTransferCycles(config, bytes);
      if (rank == desc.root) {
        counters.link_bytes_sent = peers * bytes;
      } else {
        counters.link_bytes_received = bytes;
      }
      break;
    default:
      break;
  }
  return counters;
}

}  // namespace

PHAL_DEFINE_HOST_COMMUNICATOR_SLOTS()

phal_status_t* StreamCollective(phal_plugin_stream_t* stream,
                                phal_plugin_communicator_t* communicator,
                                const phal_collective_desc_t* desc,
                                phal_plugin_buffer_t* send,
                                uint64_t send_offset,
                                phal_plugin_buffer_t* recv,
                                uint64_t recv_offset) noexcept {
  return RunAtAbiBoundary([&] {
    Device& device = stream->device();
    return QueueHostCollective(
        *communicator, desc, send, send_offset, recv, recv_offset,
        [](phal_plugin_buffer_t* buffer, uint64_t offset,
           uint64_t bytes) -> StatusOr<std::byte*> {
          PHAL_RETURN_IF_ERROR(buffer->CheckRange(offset, bytes));
          return reinterpret_cast<std::byte*>(buffer->HostBytes(offset, bytes));
        },
        [&](std::function<Status()> work) {
          StatusOr<CollectiveDesc> read = CollectiveDesc::From(desc);
          PHAL_RETURN_IF_ERROR(read.status());
          const KernelCounters cost =
              CollectiveCounters(device.config(), *read, communicator->rank,
                                 communicator->group->size());
          stream->Run([&]() -> Status {
            PHAL_RETURN_IF_ERROR(work());
            device.counters().Add(CollectiveKindName(read->kind), cost);
            return OkStatus();
          });
          return OkStatus();
        });
  });
}

}  // namespace phal::asic_ref
