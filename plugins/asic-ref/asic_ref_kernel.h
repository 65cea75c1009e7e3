// Kernels: the KIR the core hands over (polyhal/kernel.h), made runnable.
// The template runs every kernel with the SDK's KIR interpreter, on the
// host, so a fresh copy is certified before its author changes a line.
// TODO(vendor): compile kernels for your hardware instead, one kernel kind
// at a time: emit the kinds you have (sdk/emitters/llvm or
// sdk/emitters/source help), keep the interpreter for the rest, and take
// kinds out of the device's kernel_kinds only if you drop them.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_

#include <cstdint>
#include <utility>

#include "polyhal/plugin.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

namespace phal::asic_ref {}  // namespace phal::asic_ref

// A kernel as the interpreter holds it: a deep copy of its description.
struct phal_plugin_kernel final {
  explicit phal_plugin_kernel(phal::kir_interpreter::Kernel k)
      : kernel(std::move(k)) {}
  phal::kir_interpreter::Kernel kernel;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_
