// Rewrites of single HLO ops that no kernel kind computes into ops that
// some kernel kind does; the `decompose-ops` pass (passes.h) applies them.
// Each returns the instruction standing for `source` in the computation
// being rebuilt, or null when `source` needs no rewrite; `operands` and
// `called` are the already rewritten ones.
#ifndef POLYHAL_CORE_COMPILER_DECOMPOSITIONS_H_
#define POLYHAL_CORE_COMPILER_DECOMPOSITIONS_H_

#include <vector>

#include "core/compiler/hlo_rewriter.h"

namespace phal {

// topk(x), k, largest: a stable sort of (x, iota) along the last dimension
// by x, descending (largest) or ascending in the total order, then the
// first k of both. Equal values keep index order, as the reference's.
StatusOr<HloInstruction*> DecomposeTopK(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// bitcast-convert between types of different widths: the wider element is
// split into (or joined from) pieces along the narrower side's last
// dimension, least significant piece first (little-endian memory order),
// with shifts, integer converts and a sum. From pred to an 8-bit type, a
// convert: a pred's byte is 0 or 1.
StatusOr<HloInstruction*> DecomposeBitcastConvert(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// erfc(x), which no KIR node computes: 1 - erf(x) for |x| < 1, else
// Cephes' rational approximations of erfc(|x|) / exp(-x^2) (erfcf's for f32,
// f16 and bf16, computed in f32; erfc's for f64) times exp(-x^2) computed
// without the rounding error of x^2, and 2 minus that for x <= -1.
StatusOr<HloInstruction*> DecomposeErfc(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// lgamma, digamma (XLA's Lanczos approximation with g = 7, reflected
// below 1/2), zeta (Cephes' Hurwitz zeta with fixed work: ten direct terms
// and a twelve-term Euler-Maclaurin tail) and polygamma ((-1)^(n+1) n!
// zeta(n + 1, x), digamma for n = 0), computed in f32 for f16, bf16 and
// f32 and in f64 for f64. docs/compiler.md gives their measured accuracy.
StatusOr<HloInstruction*> DecomposeGammaFamily(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// bessel-i1e: Cephes' Chebyshev series on [0, 8] and [8, inf) (i1e's for
// f64, i1ef's shorter ones in f32 for the narrower types), odd in x.
StatusOr<HloInstruction*> DecomposeBesselI1e(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// next-after on the bit patterns as unsigned integers of the type's width:
// one step up or down, y's smallest subnormal after a zero, y when equal,
// NaN when either is NaN.
StatusOr<HloInstruction*> DecomposeNextAfter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// asin, acos, atan, sinh, cosh, asinh, acosh, atanh. Real operands (in
// f32 for f16 and bf16): asinh, acosh and atanh through log1p of
// arguments that do not cancel near their zeros and log(2|x|) where
// squares would overflow; sinh through expm1 below 1 and exp(|x|/2)^2
// beyond, so neither overflows early. Complex operands, on real and
// imaginary parts: Kahan's formulas for asin, acos and acosh over complex
// square roots, atanh in real parts, atan and asinh by rotation.
StatusOr<HloInstruction*> DecomposeInverseOrHyperbolic(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// fft: one reduce per transformed dimension, summing x[.., j, ..] times
// the twiddle exp(-+2 pi i j k / n) over j (RFFT's last dimension only for
// k <= n/2; IRFFT's last dimension from its n/2+1 frequencies by Hermitian
// symmetry, as a real sum), then one division by the product of the lengths
// for IFFT and IRFFT. Twiddle grids of up to 2^20 elements are constants
// computed on the host in double; larger ones come from integer arithmetic
// on iotas (j k mod n, reduced to within pi/4 of a multiple of pi/2), sin
// and cos in the kernel. Lengths above 64 with a factor are split
// (Cooley-Tukey: n = n1 n2, transforms of n1 and n2 with twiddles between,
// again for each factor above 64; RFFT through the full complex transform,
// IRFFT through the Hermitian-extended spectrum): O(n1 + n2) work per
// output element and dimension instead of O(n); prime lengths sum directly.
StatusOr<HloInstruction*> DecomposeFft(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context);

// scatter of N > 1 operands: one scatter per operand, each with the part of
// the update computation that computes its result. UNIMPLEMENTED when a
// result reads another operand's current value or update.
StatusOr<HloInstruction*> SplitVariadicScatter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context);

// select-and-scatter: a reduce-window over (operand, flat index) pairs
// selects each window's element with the select computation (padding never
// selected; on a tie both ways the earlier element, as the specification's
// scan keeps it), then a scatter of the source onto a flat array of the
// init value at the selected indices applies the scatter computation.
StatusOr<HloInstruction*> DecomposeSelectAndScatter(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context);

// reduce-window whose window spans a whole dimension, padded on one side
// (a cumulative sum, product, maximum or minimum, as JAX writes cumsum,
// cumprod, cummax and cummin, or cumlogsumexp's logaddexp) with a reducer
// that is one associative op (add, multiply, maximum, minimum) with its
// identity as the init value, or any computation of scalar elementwise ops
// whose init value is an identity on probe values (signed zeros, the
// extremes, infinities, NaN, magnitudes across the exponent range,
// evaluated by the reference interpreter): a logarithmic scan, ceil(log2 n)
// steps each combining the row with itself shifted by 1, 2, 4, ... (slice,
// pad with the identity, the reducer applied elementwise), each step's
// result kept in memory
// behind an optimization barrier so that no kernel recomputes the steps
// before it: O(n log n) work instead of the window's O(n^2). Null for any
// other reduce-window.
StatusOr<HloInstruction*> DecomposeCumulativeReduceWindow(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_DECOMPOSITIONS_H_
