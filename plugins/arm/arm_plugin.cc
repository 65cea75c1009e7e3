// The plugin's entry point: sdk/plugin_support builds phal_plugin_entry and
// one function table per ABI version (1.0 to the headers' own) from the
// slot functions arm_plugin.h declares.
#include "plugins/arm/arm_plugin.h"

#include "plugins/arm/arm_device.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::arm {

// Every device has closed: the device list goes (the instance stays for the
// process, arm_vulkan.h).
void Shutdown() noexcept { ForgetDevices(); }

}  // namespace phal::arm

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::arm, PHAL_MAKE_VERSION(1, 0),
                                      PHAL_ABI_VERSION)
