// Graph programs: asic-ref's whole-program compiler (ABI 1.13, the KIR
// graph format; PHAL_ASIC_REF_MODE=graph). The core's kernels of a part
// become one program that the chip runs in one launch:
//
// - each kernel is compiled as in kernel mode (compiler/asic_compiler.h),
//   and its code follows the previous kernel's without a halt, its
//   argument area written by the scalar core in between while the units
//   still drain the previous kernel, so the transfers of one kernel overlap
//   the compute of the one before wherever the scoreboard allows (a part of
//   one kernel is that kernel's program exactly);
// - intermediate values that fit are kept on chip, in the top of the
//   scratchpad (a quarter, half or three quarters of it: whichever keeps
//   the most traffic on chip), and addressed through the scratchpad
//   aperture (kScratchpadAperture): the kernels read and write them with
//   the same DMA instructions, at on-chip latency and with no DRAM
//   traffic, and the scoreboard orders them. A value stays on chip only
//   across kernels whose program is the same when compiled without that
//   region, so no kernel runs with smaller tiles than in kernel mode;
// - a fence separates two kernels only where the later one reads DRAM the
//   earlier ones write, or writes DRAM they read or write (DRAM is not in
//   the scoreboard);
// - a value the part returns is computed in the result buffer itself.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_GRAPH_COMPILER_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_GRAPH_COMPILER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/asic_isa.h"
#include "polyhal/plugin.h"
#include "sdk/base/byte_codec.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

struct GraphValue {
  uint32_t kind = 0;       // phal_program_value_kind_t
  uint32_t parameter = 0;  // PARAMETER: its launch buffer
  uint64_t byte_size = 0;
  // On chip at this SRAM byte (addressed as kScratchpadAperture + it), or
  // -1.
  int64_t sram_offset = -1;
  // A TEMPORARY computed in result buffer `result` itself, or -1.
  int64_t result = -1;
  std::vector<uint8_t> constant;  // CONSTANT: its bytes
};

// Instruction `instruction` (an li) gets value `value`'s device address at
// launch.
struct GraphPatch {
  uint32_t instruction = 0;
  uint32_t value = 0;
};

struct GraphProgram {
  // The kernels one after another; named after the part.
  Program program;
  std::vector<GraphPatch> patches;
  std::vector<GraphValue> values;
  uint32_t parameter_count = 0;
  // Bytes of each launch buffer: the parameters, then the results.
  std::vector<uint64_t> buffer_bytes;
  // Per result: the value it is.
  std::vector<uint32_t> results;
  // The values bound to the first kernel's buffers: the launch writes their
  // addresses to the argument area, as for a kernel of its own.
  std::vector<uint32_t> first_arguments;
  // What the compiler decided: kernels, values kept on chip, fences.
  uint32_t kernel_count = 0;
  uint32_t on_chip_values = 0;
  uint32_t fences = 0;
};

// Compiles the KIR graph of `desc` for a device of `config`. Errors of a
// kernel's compilation are returned as the kernel compiler gave them
// (UNIMPLEMENTED for a type the machine lacks).
// `compile_kernel` compiles one kernel as kernel mode would (a plugin
// passes its cached compile); null: CompileKernel.
StatusOr<GraphProgram> CompileGraph(
    const ArchConfig& config, const phal_program_desc_t& desc,
    const std::function<StatusOr<Program>(const phal_kernel_desc_t&)>&
        compile_kernel = nullptr);

// The graph's own fields (the program is encoded by the caller).
void EncodeGraphFields(const GraphProgram& graph, ByteWriter& out);
// Reads EncodeGraphFields's bytes and checks every index against
// `graph->program`, which the caller decoded first.
Status DecodeGraphFields(ByteReader& in, GraphProgram* graph);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_GRAPH_COMPILER_H_
