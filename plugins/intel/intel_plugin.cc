// The plugin's entry point. sdk/plugin_support builds phal_plugin_entry and
// the table of each ABI version the plugin speaks, 1.0 (no kernel slots) to
// 1.2, from the slot functions intel_plugin.h declares.
#include "plugins/intel/intel_plugin.h"

#include "plugins/intel/intel_device.h"
#include "plugins/intel/intel_memory.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::intel {

// Devices, buffers, streams and events are owned by their handles; the
// OpenCL contexts the devices share and the freed buffers kept for reuse
// are the global state.
void Shutdown() noexcept {
  ReleaseCachedBuffers();
  ReleaseContexts();
}

}  // namespace phal::intel

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::intel, PHAL_MAKE_VERSION(1, 0),
                                      PHAL_MAKE_VERSION(1, 2))
