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
#include <memory>
#include <optional>
#include <utility>

#include "polyhal/plugin.h"
#include "sdk/kir_interpreter/kir_interpreter.h"
#include "template_program.h"

namespace phal::template_plugin {}  // namespace phal::template_plugin

// A kernel as the interpreter holds it (a deep copy of its description),
// or a whole program the template took (template_program.h).
struct phal_plugin_kernel final {
  explicit phal_plugin_kernel(phal::kir_interpreter::Kernel k)
      : kernel(std::move(k)) {}
  explicit phal_plugin_kernel(std::unique_ptr<phal::template_plugin::Program> p)
      : program(std::move(p)) {}
  std::optional<phal::kir_interpreter::Kernel> kernel;
  std::unique_ptr<phal::template_plugin::Program> program;
};

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_KERNEL_H_
