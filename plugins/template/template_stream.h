// Streams: in-order queues of work. The template runs each operation before
// the call that queues it returns, which is a valid in-order queue (work
// finishes in the order it was queued) and needs no thread; the stream
// keeps the first error until the next synchronize, as plugin.h requires.
// The SDK's phal::HostQueue (sdk/plugin_support/host_queue.h) is that
// queue, and PHAL_DEFINE_STREAM_HANDLE_SLOTS writes the stream's slots.
// TODO(vendor): map a stream to your hardware queue (a CUDA stream, a
// Vulkan queue, a command list) and queue work there instead; the cpu
// plugin's cpu_stream.h is a worker-thread queue to learn from.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_STREAM_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_STREAM_H_

#include "polyhal/plugin.h"
#include "sdk/plugin_support/host_queue.h"
#include "template_device.h"

namespace phal::template_plugin {

// Thread-safe: work queued from several threads runs one item at a time.
using Stream = HostStream<Device>;

}  // namespace phal::template_plugin

struct phal_plugin_stream final : phal::template_plugin::Stream {
  using HostStream::HostStream;
};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_STREAM_H_
