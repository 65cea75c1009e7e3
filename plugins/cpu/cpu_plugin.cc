// The plugin's entry point. sdk/plugin_support builds phal_plugin_entry and
// the table of each ABI version the plugin speaks, 1.0 (no kernel slots) to
// 1.14 (LINALG kernels, cpu_linalg.h), from the slot functions cpu_plugin.h
// declares: the ahead-of-time slots of 1.4 (cpu_device.cc), FFT kernels of
// 1.6 (cpu_fft.h), the collective slots of 1.8 (cpu_collectives.cc); not
// the counter slots of 1.5, which the core answers for the plugin, nor the
// joined communicators of 1.12 or the whole programs of 1.13.
#include "plugins/cpu/cpu_plugin.h"

#include "plugins/cpu/cpu_block_cache.h"
#include "sdk/plugin_support/plugin_entry.h"

namespace phal::cpu {

// Devices, buffers, streams and events are owned by their handles; the
// cache of freed buffer memory (cpu_block_cache.h) is the only global state.
void Shutdown() noexcept { BlockCache::Instance().Clear(); }

}  // namespace phal::cpu

PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(phal::cpu, PHAL_MAKE_VERSION(1, 0),
                                      PHAL_MAKE_VERSION(1, 14),
                                      phal::kPluginTargetSlots |
                                          phal::kPluginCollectiveSlots)
