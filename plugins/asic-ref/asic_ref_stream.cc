#include "asic_ref_stream.h"

#include "asic_ref_plugin.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {

// Work runs before the call queuing it returns, so destroying a stream has
// nothing to wait for.
PHAL_DEFINE_STREAM_HANDLE_SLOTS()

}  // namespace phal::asic_ref
