// The plugin's entry point. sdk/plugin_support builds phal_plugin_entry and
// the table of each ABI version the plugin speaks, 1.0 (no kernel slots) to
// 1.2, from the slot functions the concept headers below declare.
#include "plugins/intel/intel_copy.h"
#include "plugins/intel/intel_device.h"
#include "plugins/intel/intel_event.h"
#include "plugins/intel/intel_kernel.h"
#include "plugins/intel/intel_memory.h"
#include "plugins/intel/intel_stream.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::intel {

// Devices, buffers, streams and events are owned by their handles; the
// OpenCL contexts the devices share and the freed buffers kept for reuse
// are the global state.
void Shutdown() {
  ReleaseCachedBuffers();
  ReleaseContexts();
}

}  // namespace phal::intel

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::intel, PHAL_MAKE_VERSION(1, 0),
                                      PHAL_MAKE_VERSION(1, 2))
