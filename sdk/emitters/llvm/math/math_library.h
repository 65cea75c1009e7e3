// The portable math library every kernel the LLVM toolkit emits calls for
// transcendental functions, so that all targets built on the toolkit agree.
//
// Choice: f32 functions are computed in f64 with the C library's f64
// functions and rounded once to f32 (f16 and bf16 kernels compute in f32 and
// round again to their type). An f64 result a few f64 ulp off is off by less
// than 2^-27 f32 ulp, so the f32 result is the correctly rounded one but for
// near-ties: simple, and as accurate as f32 gets. f64 functions are glibc's
// own, with glibc's accuracy. This is what the StableHLO reference
// interpreter does too, so kernels and the oracle agree to the last bit on
// f32.
//
// Measured bounds (MathLibraryTest in phal_plugin_cpu_tests: 2^18 random
// inputs per function plus edge values; errors against std:: in long
// double), in ulp of the result type, with the bound the test enforces:
//
//   function   f32 measured  f64 measured (bound)
//   exp        0.500         0.506 (1)
//   expm1      0.500         0.774 (1)
//   log        0.500         0.500 (1)
//   log1p      0.500         0.773 (1)
//   logistic   0.500         1.883 (2)    1 / (1 + exp(-x)): three roundings
//   tanh       0.500         1.979 (2)
//   sin        0.500         0.514 (1)
//   cos        0.500         0.515 (1)
//   tan        0.500         0.539 (1)
//   erf        0.500         0.938 (1)
//   cbrt       0.500         3.150 (3.5)  glibc's cbrt is not correctly rounded
//   rsqrt      0.500         1.485 (1.5)  1 / sqrt(x): two roundings
//   atan2      0.500         0.516 (1)
//   pow        0.500         0.505 (1)
//   sqrt       exact         exact        (llvm.sqrt, not this library)
//
// The f32 column is 0.5 ulp plus less than 2^-28 ulp everywhere: every f32
// result is the correctly rounded value except in double-rounding ties.
//
// f16 and bf16 results are within 0.5 ulp of their type plus the f32 error
// (rounded twice): at most 1 ulp, which the op tests enforce.
//
// Special values follow C99 Annex F (exp(-inf) = 0, log(0) = -inf, NaN in,
// NaN out); logistic(x) = 1 / (1 + exp(-x)) and rsqrt(x) = 1 / sqrt(x).
//
// These are plain C functions with unmangled names: a JIT resolves them from
// RuntimeSymbols() (runtime_functions.h), never through the C library.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_MATH_MATH_LIBRARY_H_
#define POLYHAL_SDK_EMITTERS_LLVM_MATH_MATH_LIBRARY_H_

#ifdef __cplusplus
extern "C" {
#endif

#define PHAL_MATH_DECLARE_UNARY(name)    \
  float phal_math_##name##_f32(float x); \
  double phal_math_##name##_f64(double x);

PHAL_MATH_DECLARE_UNARY(exp)
PHAL_MATH_DECLARE_UNARY(expm1)
PHAL_MATH_DECLARE_UNARY(log)
PHAL_MATH_DECLARE_UNARY(log1p)
PHAL_MATH_DECLARE_UNARY(logistic)
PHAL_MATH_DECLARE_UNARY(tanh)
PHAL_MATH_DECLARE_UNARY(sin)
PHAL_MATH_DECLARE_UNARY(cos)
PHAL_MATH_DECLARE_UNARY(tan)
PHAL_MATH_DECLARE_UNARY(erf)
PHAL_MATH_DECLARE_UNARY(cbrt)
PHAL_MATH_DECLARE_UNARY(rsqrt)

#undef PHAL_MATH_DECLARE_UNARY

float phal_math_atan2_f32(float y, float x);
double phal_math_atan2_f64(double y, double x);
float phal_math_pow_f32(float x, float y);
double phal_math_pow_f64(double x, double y);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // POLYHAL_SDK_EMITTERS_LLVM_MATH_MATH_LIBRARY_H_
