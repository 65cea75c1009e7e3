// The GPU plugin layer's slot functions, one per slot of phal_plugin_api_t
// (plugin.h) with the targets of ABI 1.4, each defined in the layer's file
// of its concept, and the entry point a GPU plugin names once, beside the
// definition of its Vendor() (gpu_driver.h):
//
//   const phal::gpu_plugin::GpuVendor& phal::gpu_plugin::Vendor() { ... }
//   PHAL_GPU_PLUGIN_DEFINE_ENTRY()
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_

#include "sdk/plugin_support/plugin_entry.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::gpu_plugin {
PHAL_DECLARE_PLUGIN_SLOTS()
}  // namespace phal::gpu_plugin

// phal_plugin_entry of a plugin built by phal_add_plugin on the layer: ABI
// 1.0 to 1.4.
#define PHAL_GPU_PLUGIN_DEFINE_ENTRY()                                      \
  PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(                                    \
      ::phal::gpu_plugin, PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 4), \
      ::phal::kPluginTargetSlots)

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_
