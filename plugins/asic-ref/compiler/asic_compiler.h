// KIR -> asic-ref ISA: compiles one kernel description to a Program
// (docs/plugins/asic-ref.md, "The compiler"). Every kernel is tiled to the
// scratchpad: DMA brings tiles in (boxes where the access is a box, gathers
// by computed offsets where it is not), the vector unit evaluates bodies
// over tiles, the matrix unit multiplies, and the DMA of the next tile
// overlaps the compute of this one.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_ASIC_COMPILER_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_ASIC_COMPILER_H_

#include "isa/asic_isa.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Compiles `kernel` for a device of `config`. Fails with UNIMPLEMENTED when
// the kernel uses an element type the machine lacks (IsMachineType), naming
// it, and with RESOURCE_EXHAUSTED when a kernel cannot be tiled to the
// scratchpad (naming what does not fit).
// `sram_limit` (0: config.sram_bytes) is where the SRAM the program may use
// ends: a graph program keeps values above it (graph_compiler.h).
StatusOr<Program> CompileKernel(const ArchConfig& config,
                                const phal_kernel_desc_t& kernel,
                                uint64_t sram_limit = 0);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_ASIC_COMPILER_H_
