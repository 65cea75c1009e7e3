// f32 exp, tanh and logistic emitted as straight-line IR instead of calls
// into the math library (math/math_library.h), so that a loop applying them
// vectorizes. Each computes in f64 and rounds once to f32, as the library
// does: exp by a reduction to r = x - k ln 2 (|r| <= ln 2 / 2, ln 2 in two
// parts) and a degree-12 Taylor polynomial, scaled by 2^k built in the
// exponent bits; tanh from that exp as 1 - 2 / (e^2|x| + 1) with the sign of
// x, and by its odd series below |x| = 2^-5 where the subtraction would
// cancel; logistic as 1 / (1 + e^-x); erf by its Taylor series in x^2
// (70 terms) below |x| = 4, and 1 with x's sign above, where erf rounds to 1
// in f32.
//
// The f64 value is within 2^-46 of the exact one (relative; exp within
// 2^-51), so the f32 result is the correctly rounded one except where the
// exact value lies within 2^-22 f32 ulp of a rounding tie: within 0.5 ulp
// plus 2^-22 ulp. Measured over every f32 input of the functions' ranges
// (VectorMathTest in phal_plugin_cpu_tests): bit-identical to the library,
// which is what the reference interpreter computes, on all but a handful of
// inputs; docs/plugins/cpu.md gives the counts. NaN in gives NaN out,
// infinities and overflow follow C99 Annex F as the library does.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_INLINE_MATH_H_
#define POLYHAL_SDK_EMITTERS_LLVM_INLINE_MATH_H_

#include <llvm/IR/IRBuilder.h>

namespace phal::llvm_emitter {

// Each takes and returns an f32 (`float`) value.
llvm::Value* EmitExpF32(llvm::IRBuilder<>& builder, llvm::Value* x);
llvm::Value* EmitTanhF32(llvm::IRBuilder<>& builder, llvm::Value* x);
llvm::Value* EmitLogisticF32(llvm::IRBuilder<>& builder, llvm::Value* x);
llvm::Value* EmitErfF32(llvm::IRBuilder<>& builder, llvm::Value* x);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_INLINE_MATH_H_
