// The plugin's entry point: sdk/plugin_support builds phal_plugin_entry and
// one function table per ABI version (1.0 to 1.4, whose ahead-of-time
// slots, the targets and their compile-only devices, are in
// nvidia_device.cc) from the slot functions nvidia_plugin.h declares.
#include "plugins/nvidia/nvidia_plugin.h"

#include "plugins/nvidia/nvidia_device.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::nvidia {

// Every device has closed: the device list goes, so a plugin loaded again
// lists them afresh. The driver stays loaded and initialised: CUDA cannot
// be initialised twice in one process.
void Shutdown() noexcept { ForgetDevices(); }

}  // namespace phal::nvidia

PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_BY_SLOT_NAME(phal::nvidia,
                                                   PHAL_MAKE_VERSION(1, 0),
                                                   PHAL_MAKE_VERSION(1, 4))
