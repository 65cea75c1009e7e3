// Kernels: the KIR the core hands over (polyhal/kernel.h) compiled to the
// asic-ref ISA (compiler/asic_compiler.h) for the device's architecture,
// and their serialized form, which kernel_serialize returns and the kernel
// cache keeps:
//
//   "PHALASIC"            8 bytes of magic
//   u32 format            3
//   str build identity    the plugin build (BuildIdentity) that compiled it
//   str architecture      ArchConfigToString of the device compiled for
//   u64 n, u64 x n        the byte size of each buffer the kernel binds
//   str program           EncodeProgram (isa/asic_isa.h)
//   u64 n, (u32, str) x n the compiler's comments: instruction, text
//   u8                    1 for a graph program, then its fields
//                         (EncodeGraphFields, compiler/graph_compiler.h)
//
// A record of sdk/base/byte_codec.h: integers little-endian,
// a str a u64 length and its bytes. Bytes of another build or architecture
// are refused (FAILED_PRECONDITION), so a kernel only ever runs on the
// machine it was compiled for.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/graph_compiler.h"
#include "isa/asic_isa.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

// A compiled kernel; immutable, so it may launch from many threads.
struct phal_plugin_kernel final {
  // Named after the kernel (phal_kernel_desc_t::name): the simulator's
  // fault messages and the device's per-kernel counters use the name.
  phal::asic_ref::Program program;
  std::vector<uint64_t> buffer_bytes;
  std::string config_text;  // the architecture compiled for
  // A whole part compiled in graph mode (asic_ref_program.h): its values
  // and the instructions patched with their addresses at launch; `program`
  // is its code. Null for a kernel.
  std::unique_ptr<phal::asic_ref::GraphProgram> graph;
};

namespace phal::asic_ref {
class Device;
// The program of `desc` compiled for `device` as kernel_emit compiles it,
// through the kernel cache (memory and disk), named after the kernel.
StatusOr<Program> CachedKernelProgram(const Device& device,
                                      const phal_kernel_desc_t& desc);
}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_KERNEL_H_
