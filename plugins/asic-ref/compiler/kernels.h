// The compiler's kernel kinds, each emitting a whole program for a tile
// capacity the driver (asic_compiler.cc) chooses: the largest that fits the
// scratchpad.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_KERNELS_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_KERNELS_H_

#include <cstdint>
#include <span>
#include <string>

#include "compiler/program_builder.h"
#include "isa/asic_isa.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// What every kind's emitter is given.
struct KernelContext {
  const ArchConfig& config;
  std::string name;
  std::span<const phal_kir_buffer_t> buffers;
  // The SRAM a kernel may use: [sram_begin, sram_end), past the argument
  // area, within what instructions address directly.
  uint32_t sram_begin = 0;
  uint32_t sram_end = 0;
};

// Each emits into `program` for tiles of `lanes` lanes; RESOURCE_EXHAUSTED
// when that does not fit (the driver then halves `lanes`).
Status EmitLoop(const KernelContext& context, const phal_kir_loop_t& loop,
                int64_t lanes, ProgramBuilder& program);
Status EmitReduce(const KernelContext& context, const phal_kir_reduce_t& reduce,
                  int64_t lanes, ProgramBuilder& program);
Status EmitDot(const KernelContext& context, const phal_kir_dot_t& dot,
               int64_t lanes, ProgramBuilder& program);
Status EmitConv(const KernelContext& context, const phal_kir_conv_t& conv,
                int64_t lanes, ProgramBuilder& program);
Status EmitGather(const KernelContext& context, const phal_kir_gather_t& gather,
                  int64_t lanes, ProgramBuilder& program);
Status EmitScatter(const KernelContext& context,
                   const phal_kir_scatter_t& scatter, int64_t lanes,
                   ProgramBuilder& program);
Status EmitSort(const KernelContext& context, const phal_kir_sort_t& sort,
                int64_t lanes, ProgramBuilder& program);
Status EmitCopy(const KernelContext& context, const phal_kir_copy_t& copy,
                int64_t lanes, ProgramBuilder& program);

// Whether a convolution has the channels-innermost layouts the direct
// convolution reads by boxes (conv_direct.cc), and that convolution.
bool ConvIsDirect(const KernelContext& context, const phal_kir_conv_t& conv);
Status EmitConvDirect(const KernelContext& context, const phal_kir_conv_t& conv,
                      int64_t lanes, ProgramBuilder& program);

// Whether the matrix unit takes the convolution, and the convolution on it.
bool ConvOnMatrixUnit(const KernelContext& context,
                      const phal_kir_conv_t& conv);
Status EmitConvOnMatrixUnit(const KernelContext& context,
                            const phal_kir_conv_t& conv, int64_t lanes,
                            ProgramBuilder& program);

// A dot or a loop the matrix unit does not take, on the vector unit.
Status EmitDotOnVectorUnit(const KernelContext& context,
                           const phal_kir_dot_t& dot, int64_t lanes,
                           ProgramBuilder& program);

// Emits `dst = address of buffer + (sum(reg * stride) + constant) *
// element_size` (terms of register x0 or stride 0 left out), the products
// in temporary x23.
void EmitElementAddress(ProgramBuilder& program, uint8_t dst, uint32_t buffer,
                        std::span<const std::pair<uint8_t, int64_t>> terms,
                        int64_t element_size, int64_t constant);

int64_t ElementCount(std::span<const int64_t> dims);

// The matrix unit's input types (f32 accumulation; s8 accumulates in s32).
inline bool IsMatrixInput(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_BF16 ||
         type == PHAL_ELEMENT_TYPE_F16;
}

inline int64_t RoundUp(int64_t value, int64_t step) {
  return (value + step - 1) / step * step;
}

// Emits `count_reg = min(step, bound_reg - position_reg)`.
void EmitTileCount(ProgramBuilder& program, uint8_t count_reg,
                   uint8_t bound_reg, uint8_t position_reg, int64_t step);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_KERNELS_H_
