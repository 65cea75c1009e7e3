#include "template_stream.h"
#include "template_device.h"
#include "template_plugin.h"

#include "sdk/plugin_support/plugin_slots.h"

namespace phal::template_plugin {

// Work runs before the call queuing it returns, so destroying a stream has
// nothing to wait for.
PHAL_DEFINE_STREAM_HANDLE_SLOTS()

}  // namespace phal::template_plugin
