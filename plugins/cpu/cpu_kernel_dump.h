// The text form of a kernel's device code, for the dump directory of
// kernel_emit (plugin.h, ABI 1.4): the LLVM IR of the kernel after the
// optimisation pipeline that produced its object code. Like cpu_jit.cc, it
// includes LLVM headers; the rest of the plugin does not.
#ifndef POLYHAL_PLUGINS_CPU_CPU_KERNEL_DUMP_H_
#define POLYHAL_PLUGINS_CPU_CPU_KERNEL_DUMP_H_

#include <string>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// Emits `kernel` for the host CPU, optimises it at `optimization_level`
// (0-3) as CompileKernel does, and prints the module as LLVM IR text.
StatusOr<std::string> OptimizedKernelIr(const phal_kernel_desc_t& kernel,
                                        unsigned optimization_level);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_KERNEL_DUMP_H_
