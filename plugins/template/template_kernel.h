// Kernels: the KIR the core hands over (polyhal/kernel.h), made runnable.
// The template runs every kernel with the SDK's KIR interpreter, on the
// host, so a fresh copy is certified before its author changes a line.
// TODO(vendor): compile kernels for your hardware instead, one kernel kind
// at a time: emit the kinds you have (sdk/emitters/llvm or
// sdk/emitters/source help), keep the interpreter for the rest, and take
// kinds out of the device's kernel_kinds only if you drop them.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_KERNEL_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_KERNEL_H_

#include <cstdint>
#include <utility>

#include "polyhal/plugin.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

namespace phal::template_plugin {

phal_status_t* KernelEmit(phal_plugin_device_t* device,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t* options,
                          phal_plugin_kernel_t** out_kernel) noexcept;
void KernelDestroy(phal_plugin_kernel_t* kernel) noexcept;
phal_status_t* KernelSerialize(phal_plugin_kernel_t* kernel, void** out_data,
                               uint64_t* out_size) noexcept;
phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept;
phal_status_t* StreamLaunch(phal_plugin_stream_t* stream,
                            phal_plugin_kernel_t* kernel,
                            phal_plugin_buffer_t* const* buffers,
                            uint32_t buffer_count) noexcept;

}  // namespace phal::template_plugin

// A kernel as the interpreter holds it: a deep copy of its description.
struct phal_plugin_kernel final {
  explicit phal_plugin_kernel(phal::kir_interpreter::Kernel k)
      : kernel(std::move(k)) {}
  phal::kir_interpreter::Kernel kernel;
};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_KERNEL_H_
