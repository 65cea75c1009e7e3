// The GPU plugin layer's slot functions, one per slot of phal_plugin_api_t
// (plugin.h) with the targets of ABI 1.4, each defined in the layer's file
// of its concept, and the entry point a GPU plugin names once, beside the
// definition of its Vendor() (gpu_driver.h), which
// PHAL_GPU_PLUGIN_DEFINE_VENDOR writes:
//
//   PHAL_GPU_PLUGIN_DEFINE_VENDOR(phal::acme, kNames, AcmeDriver, ...)
//   PHAL_GPU_PLUGIN_DEFINE_ENTRY()
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_

#include "sdk/plugin_support/plugin_entry.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::gpu_plugin {
PHAL_DECLARE_PLUGIN_SLOTS()
}  // namespace phal::gpu_plugin

// Defines Vendor() for a plugin whose namespace `ns` holds its names
// (`names`, a GpuVendorNames), its targets (kTargets), its compiler
// (CompileOnlyInfo, KernelTarget, CompileKernel, DumpKernel: GpuVendor's
// members of those roles) and a driver class `Driver` over its API's table,
// made as Driver(table, emulated), with the functions that answer the
// runtime's table and the grid emulator's (TableDrivers):
//
//   PHAL_GPU_PLUGIN_DEFINE_VENDOR(phal::amd, kNames, HipDriver, GetHip,
//                                 EmulatedHip)
#define PHAL_GPU_PLUGIN_DEFINE_VENDOR(ns, names, Driver, runtime_table,        \
                                      emulated_table)                          \
  const ::phal::gpu_plugin::GpuVendor& ::phal::gpu_plugin::Vendor() {          \
    using Drivers =                                                            \
        TableDrivers<::ns::Driver, ::ns::runtime_table, ::ns::emulated_table>; \
    static constexpr GpuVendor kVendor = {                                     \
        .name = ::ns::names.name,                                              \
        .vendor_name = ::ns::names.vendor_name,                                \
        .api_name = ::ns::names.api_name,                                      \
        .version = PHAL_PLUGIN_VERSION,                                        \
        .serialization_magic = ::ns::names.serialization_magic,                \
        .targets = ::ns::kTargets,                                             \
        .runtime = Drivers::Runtime,                                           \
        .emulator = Drivers::Emulator,                                         \
        .compile_only_info = ::ns::CompileOnlyInfo,                            \
        .target_name = ::ns::KernelTarget,                                     \
        .compile = ::ns::CompileKernel,                                        \
        .dump = ::ns::DumpKernel,                                              \
    };                                                                         \
    return kVendor;                                                            \
  }

// phal_plugin_entry of a plugin built by phal_add_plugin on the layer: ABI
// 1.0 to 1.12, with the targets (1.4), the collectives (1.8) and the
// communicators over several processes (1.12).
#define PHAL_GPU_PLUGIN_DEFINE_ENTRY()                                       \
  PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(                                     \
      ::phal::gpu_plugin, PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 12), \
      ::phal::kPluginTargetSlots | ::phal::kPluginCollectiveSlots |          \
          ::phal::kPluginJoinedCollectiveSlots)

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_PLUGIN_H_
