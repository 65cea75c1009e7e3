// The plugin's entry point: sdk/plugin_support builds phal_plugin_entry and
// one function table per ABI version (1.0 to 1.4, whose ahead-of-time
// slots, the targets and their compile-only devices, are in amd_device.cc)
// from the slot functions amd_plugin.h declares.
#include "plugins/amd/amd_plugin.h"

#include "plugins/amd/amd_device.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::amd {

// Every device has closed: the device list goes, so a plugin loaded again
// lists them afresh. The runtime stays loaded and initialised.
void Shutdown() noexcept { ForgetDevices(); }

}  // namespace phal::amd

PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_BY_SLOT_NAME(phal::amd,
                                                   PHAL_MAKE_VERSION(1, 0),
                                                   PHAL_MAKE_VERSION(1, 4))
