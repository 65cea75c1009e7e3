// The plugin's entry point. sdk/plugin_support builds phal_plugin_entry
// (version negotiation, host services) and one function table per ABI
// version the plugin speaks, 1.0 (no kernel slots) to the ABI of the
// headers it is built against, from the slot functions asic_ref_plugin.h
// declares, each named after its slot (DeviceCount for device_count) and
// defined in the concept file it belongs to: the ahead-of-time slots of
// ABI 1.4 (TargetGetNames, TargetDeviceOpen) and the counter slots of ABI
// 1.5 (DeviceGetCounters, DeviceResetCounters) in asic_ref_device.cc, the
// whole-program slots of ABI 1.13 (graph mode) in asic_ref_program.cc.
#include "asic_ref_plugin.h"

#include "sdk/plugin_support/plugin_entry.h"

namespace phal::asic_ref {

// Devices, buffers, streams, events and kernels are owned by their handles;
// the kernel cache (asic_ref_kernel_cache.h) lives until the process ends,
// so that a plugin loaded again finds its kernels compiled.
void Shutdown() noexcept {}

}  // namespace phal::asic_ref

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::asic_ref, PHAL_MAKE_VERSION(1, 0),
                                      PHAL_ABI_VERSION,
                                      phal::kPluginTargetSlots |
                                          phal::kPluginCounterSlots |
                                          phal::kPluginCollectiveSlots |
                                          phal::kPluginProgramSlots)
