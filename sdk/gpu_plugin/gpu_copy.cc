// Copies between host memory and buffers, and between buffers, queued on a
// stream (gpu_stream.h says when they run).
#include "sdk/gpu_plugin/gpu_memory.h"
#include "sdk/gpu_plugin/gpu_plugin.h"
#include "sdk/gpu_plugin/gpu_stream.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::gpu_plugin {

PHAL_DEFINE_STREAM_COPY_SLOTS()

}  // namespace phal::gpu_plugin
