// Dot sums through OpenBLAS: a tuned, packed and threaded GEMM that the
// emitted dot kernel then finishes with its epilogue.
#ifndef POLYHAL_PLUGINS_CPU_CPU_GEMM_H_
#define POLYHAL_PLUGINS_CPU_CPU_GEMM_H_

#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

// Writes sums[batch][m][n] (f32 or f64, as shape.type says) for the operands
// in buffers[shape.lhs] and buffers[shape.rhs].
void RunGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
             void* sums);

// Writes a convolution's sums, laid out as its output (f32 or f64, as
// shape.type says), for the input and kernel in buffers: per image, the
// patches (zeros on padding) gathered into rows, times the kernel.
void RunConvGemm(const llvm_emitter::ConvGemmShape& shape, void* const* buffers,
                 void* sums);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_GEMM_H_
