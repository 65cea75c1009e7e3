// f32 exp, tanh, logistic and erf emitted as straight-line IR instead of
// calls into the math library (math/math_library.h), so that a loop
// applying them vectorizes.
//
// All four compute in f32, 16 lanes to a 512-bit vector: exp by a
// reduction to r = x - k ln 2 (|r| <= ln 2 / 2, ln 2 in two parts) and a
// degree-7 Taylor polynomial, scaled by 2^k built in the exponent bits (as
// two factors, so that subnormal results round once); tanh as
// 1 - 2 / (e^2|x| + 1) with the sign of x from |x| = 0.625, and below as
// x + x^3 P(x^2), P a degree-4 polynomial fitted to tanh's relative error;
// logistic as 1 / (1 + t) for x >= 0 and t / (1 + t) below, t = e^-|x|;
// erf as x + x Q(x^2) below |x| = 1 and as 1 - e^-x^2 R(1/|x|) from 1 to 4
// (x^2 split exactly in two parts), Q and R fitted polynomials, and 1 with
// x's sign from 4 on. Measured over every 64th f32 of their ranges
// (VectorMathTest in phal_plugin_cpu_tests): within 0.92, 1.33, 2.41 and
// 1.19 ulp, where the conformance suite allows 4.
//
// NaN in gives NaN out; infinities and overflow follow C99 Annex F as the
// library does.
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
