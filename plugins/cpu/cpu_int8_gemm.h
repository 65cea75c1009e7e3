// s32 sums of s8 and u8 operands with AVX-512 VNNI: VPDPBUSD multiplies u8
// by s8 and adds four products into each s32 lane, exactly and modulo 2^32
// as an s32 accumulation wraps. Operands of other signedness are shifted by
// 128 into that form and the shift's sums taken out again (cpu_int8_gemm.cc).
#ifndef POLYHAL_PLUGINS_CPU_CPU_INT8_GEMM_H_
#define POLYHAL_PLUGINS_CPU_CPU_INT8_GEMM_H_

#include <cstdint>
#include <string>

#include "plugins/cpu/cpu_thread_pool.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

// Whether a processor with these ISA features (LLVM's spellings, space
// separated, as TargetIsaFeatures() lists them) runs RunInt8Gemm.
bool HasInt8GemmFeatures(const std::string& features);

// Writes sums[batch][m][n] for the s8/u8 operands shape.lhs_type and
// shape.rhs_type name (shape.type is s32), on `pool` and the calling
// thread. Only on a processor HasInt8GemmFeatures accepts.
void RunInt8Gemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                 int32_t* sums, ThreadPool& pool);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_INT8_GEMM_H_
