// Copies between host memory and buffers, and between buffers, queued on a
// stream (arm_stream.h says when they run).
#include "plugins/arm/arm_memory.h"
#include "plugins/arm/arm_plugin.h"
#include "plugins/arm/arm_stream.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::arm {

PHAL_DEFINE_STREAM_COPY_SLOTS()

}  // namespace phal::arm
