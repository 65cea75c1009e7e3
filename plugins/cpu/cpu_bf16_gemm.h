// f32 sums of bf16 operands with AVX-512 BF16: VDPBF16PS multiplies pairs
// of bf16 elements (each product exact in f32) and adds both into an f32
// lane with round-to-nearest-even, as the f32 GEMM over the widened
// operands would, at twice its products per instruction. Like every GEMM
// of the plugin it runs with denormals flushed (cpu_bf16_gemm.cc).
#ifndef POLYHAL_PLUGINS_CPU_CPU_BF16_GEMM_H_
#define POLYHAL_PLUGINS_CPU_CPU_BF16_GEMM_H_

#include <string>

#include "plugins/cpu/cpu_thread_pool.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

// Whether a processor with these ISA features (LLVM's spellings, space
// separated, as TargetIsaFeatures() lists them) runs RunBf16Gemm.
bool HasBf16GemmFeatures(const std::string& features);

// Writes sums[batch][m][n] (f32) for the bf16 operands of `shape` (type
// f32, lhs_type and rhs_type bf16), on `pool` and the calling thread. Only
// on a processor HasBf16GemmFeatures accepts.
void RunBf16Gemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                 float* sums, ThreadPool& pool);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_BF16_GEMM_H_
