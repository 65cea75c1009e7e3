// Streams: in-order queues of work on the device. The simulator runs a
// kernel before the launch that queues it returns, which is a valid
// in-order queue (work finishes in the order it was queued) and needs no
// thread: the SDK's phal::HostQueue (sdk/plugin_support/host_queue.h),
// which keeps the first error until the next synchronize, as plugin.h
// requires.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_

#include "asic_ref_device.h"
#include "polyhal/plugin.h"
#include "sdk/plugin_support/host_queue.h"

namespace phal::asic_ref {

// Thread-safe: work queued from several threads runs one item at a time.
using Stream = HostStream<Device>;

}  // namespace phal::asic_ref

struct phal_plugin_stream final : phal::asic_ref::Stream {
  using HostStream::HostStream;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
