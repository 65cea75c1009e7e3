// The plugin's entry point. sdk/plugin_support builds phal_plugin_entry
// (version negotiation, host services) and one function table per ABI
// version the plugin speaks, 1.0 (no kernel slots) to the ABI of the
// headers it is built against, from the slot functions template_plugin.h
// declares, each named after its slot (DeviceCount for device_count) and
// defined in the concept file it belongs to; the ahead-of-time slots of ABI
// 1.4 (TargetGetNames, TargetDeviceOpen) are in template_device.cc, the
// whole-program slots of ABI 1.13 (ProgramGetFormats, ProgramAcceptsOp,
// ProgramCompile) in template_program.cc, and the last argument below names
// their groups. TODO(vendor): add
// phal::kPluginCounterSlots when your devices keep performance counters
// (DeviceGetCounters, DeviceResetCounters; docs/writing-a-plugin.md), or
// drop phal::kPluginTargetSlots when you compile only for opened devices.
// A plugin that leaves out a core slot writes its table itself
// (phal::PluginDefinition, sdk/plugin_support/plugin_entry.h); the core
// answers a NULL slot with PHAL_UNIMPLEMENTED.
#include "template_plugin.h"

#include "sdk/plugin_support/plugin_entry.h"

namespace phal::template_plugin {

// Devices, buffers, streams, events and kernels are owned by their handles;
// the template keeps no global state. TODO(vendor): release what your
// driver holds for the whole process (contexts, caches) here.
void Shutdown() noexcept {}

}  // namespace phal::template_plugin

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::template_plugin,
                                      PHAL_MAKE_VERSION(1, 0), PHAL_ABI_VERSION,
                                      phal::kPluginTargetSlots |
                                          phal::kPluginCollectiveSlots |
                                          phal::kPluginProgramSlots)
