// Copies between host memory and buffers, and between buffers, queued on a
// stream: PHAL_DEFINE_STREAM_COPY_SLOTS checks the ranges and hands each
// copy to the stream, a phal::HostQueue, which runs it as a memcpy.
// TODO(vendor): queue a DMA or a driver copy on the stream's hardware
// queue instead: give your stream CopyFromHost, CopyToHost and CopyBuffer
// (plugin_slots.h says their signatures).
#include "template_plugin.h"

#include "sdk/plugin_support/plugin_slots.h"
#include "template_memory.h"
#include "template_stream.h"

namespace phal::template_plugin {

PHAL_DEFINE_STREAM_COPY_SLOTS()

}  // namespace phal::template_plugin
