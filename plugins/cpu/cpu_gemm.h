// Dot and convolution sums through OpenBLAS: tuned, packed GEMMs that the
// emitted kernel then finishes with its epilogue. OpenBLAS runs
// single-threaded; the sums are cut into blocks that the device's thread
// pool multiplies in parallel, so OpenBLAS's threads never compete with the
// pool's for the cores.
#ifndef POLYHAL_PLUGINS_CPU_CPU_GEMM_H_
#define POLYHAL_PLUGINS_CPU_CPU_GEMM_H_

#include "plugins/cpu/cpu_thread_pool.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

// Writes sums[batch][m][n] (f32 or f64, as shape.type says) for the operands
// in buffers[shape.lhs] and buffers[shape.rhs], on `pool` and the calling
// thread.
void RunGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
             void* sums, ThreadPool& pool);

// Writes a convolution's sums, laid out as its output (f32 or f64, as
// shape.type says), for the input and kernel in buffers: the patches of
// all images (zeros on padding) gathered into rows, block by block on
// `pool` and the calling thread, times the kernel.
void RunConvGemm(const llvm_emitter::ConvGemmShape& shape, void* const* buffers,
                 void* sums, ThreadPool& pool);

// The address of `name` in the OpenBLAS the plugin opened (single-threaded,
// with the kernels of the target processor, as above), or null when
// OpenBLAS could not be loaded or lacks the symbol. Its LAPACK routines
// (cpu_linalg.h) come from here too.
void* OpenBlasSymbol(const char* name);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_GEMM_H_
