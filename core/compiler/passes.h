// The passes of the default pipeline. Each lives in the file of its name.
#ifndef POLYHAL_CORE_COMPILER_PASSES_H_
#define POLYHAL_CORE_COMPILER_PASSES_H_

#include <memory>

#include "core/compiler/hlo_pass.h"

namespace phal {

// Replaces every call and every fusion instruction (XLA's own fusion
// decisions, as in compiled dumps) by the instructions of its computation.
std::unique_ptr<HloPass> MakeCallInliningPass();

// cholesky, triangular-solve, lu, qr and householder-product as calls of
// computations whose counted while loops compute them column by column
// (linear_algebra_expansion.cc); the call-inlining pass inlines them.
// With `linalg_kernels` (a device that runs LINALG kernels, ABI 1.14) the
// pass leaves every one whole, to become one kernel.
std::unique_ptr<HloPass> MakeLinearAlgebraExpansionPass(
    bool linalg_kernels = false);
// Drops explicit layouts: Polyhal buffers are always dense row-major (the
// ABI says so), and HLO values do not depend on layouts, so after this
// pass every shape is row-major and no transposes are needed, but for a
// bitcast between layouts, which reinterprets bytes in memory order and
// becomes transposes around a row-major bitcast.
std::unique_ptr<HloPass> MakeLayoutNormalizationPass();
// batch-norm-inference, batch-norm-training and batch-norm-grad into
// broadcasts, elementwise ops and reduces.
std::unique_ptr<HloPass> MakeBatchNormDecompositionPass();
// Ops without a kernel kind into ops that have one: topk into a stable
// sort with an index operand and slices; bitcast-convert between widths
// into shifts, converts and a sum; erfc into erf, exp and polynomials; scatter
// of several operands into one scatter per operand (when the update computation
// keeps them apart); select-and-scatter into a reduce-window and a scatter;
// fft into reduces, unless `fft_kernels` (the device runs FFT kernels, ABI
// 1.6), which leaves it whole for the partitioner.
std::unique_ptr<HloPass> MakeOpDecompositionPass(bool fft_kernels = false);
// Convolutions into channels-innermost layouts (transposes around them),
// lhs dilation into a pad with interior padding, window reversal into a
// reversed kernel, and 3-D convolutions with f32 or f64 results into a sum
// of 2-D ones over the kernel's depth: the form a GEMM over patches
// computes.
std::unique_ptr<HloPass> MakeConvolutionCanonicalizationPass();
// Identities that hold bit for bit, NaN and signed zeros included.
std::unique_ptr<HloPass> MakeAlgebraicSimplificationPass();
// Evaluates instructions whose operands are all constants with the
// reference interpreter, when the result has at most `max_elements`
// elements.
std::unique_ptr<HloPass> MakeConstantFoldingPass(int64_t max_elements);
// Merges identical instructions.
std::unique_ptr<HloPass> MakeCommonSubexpressionEliminationPass();
// In a counted while loop (a state element from a constant, up by 1 per
// step, below a constant), a dot of one step's slice of a loop-invariant
// state element (a scan's inputs) by an invariant or constant right operand
// becomes the same slice of one dot of the whole element, computed before
// the loop and carried as a new state element: the inputs' projection is
// one large GEMM instead of a small one per step. Not when the loop runs
// fewer steps than half the slices, nor when the product would be over
// eight times the element or 1 GiB.
std::unique_ptr<HloPass> MakeScanInputHoistingPass();
// In a while body, a dynamic-update-slice of a small window into an
// element of the loop state that the body returns updated (a scan's stacked
// outputs) into a scatter of that window at the clamped starts: a scatter
// updates its operand in place, so an iteration writes the window alone.
std::unique_ptr<HloPass> MakeLoopUpdateScatterPass();
// Removes instructions and computations nothing uses.
std::unique_ptr<HloPass> MakeDeadCodeEliminationPass();

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_PASSES_H_
