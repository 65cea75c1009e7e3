// Every function of the GPU device library (device_functions.cc), declared
// with C linkage: the names the body emitter calls (math_library.h and
// runtime_functions.h but phal_rt_sort) and phal_rt_fmod_f32/_f64. The
// bitcode defines the plain names; the host build of the same file, which
// sits in one binary with the host math library, defines them with the
// prefix phal_device_ (PHAL_DEVICE_FUNCTIONS_FOR_HOST), and
// DeviceLibraryHostSymbols() (device_library.h) maps the plain names to
// those. Freestanding: builtin types only.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_FUNCTIONS_H_
#define POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_FUNCTIONS_H_

#ifdef PHAL_DEVICE_FUNCTIONS_FOR_HOST
#define PHAL_DEVICE(name) phal_device_##name
#else
#define PHAL_DEVICE(name) name
#endif

// X(name) for every function, in the order of the headers they mirror.
#define PHAL_DEVICE_MATH_NAMES(X, name) \
  X(phal_math_##name##_f32) X(phal_math_##name##_f64)
#define PHAL_DEVICE_FUNCTION_NAMES(X) \
  PHAL_DEVICE_MATH_NAMES(X, exp)      \
  PHAL_DEVICE_MATH_NAMES(X, expm1)    \
  PHAL_DEVICE_MATH_NAMES(X, log)      \
  PHAL_DEVICE_MATH_NAMES(X, log1p)    \
  PHAL_DEVICE_MATH_NAMES(X, logistic) \
  PHAL_DEVICE_MATH_NAMES(X, tanh)     \
  PHAL_DEVICE_MATH_NAMES(X, sin)      \
  PHAL_DEVICE_MATH_NAMES(X, cos)      \
  PHAL_DEVICE_MATH_NAMES(X, tan)      \
  PHAL_DEVICE_MATH_NAMES(X, erf)      \
  PHAL_DEVICE_MATH_NAMES(X, cbrt)     \
  PHAL_DEVICE_MATH_NAMES(X, rsqrt)    \
  PHAL_DEVICE_MATH_NAMES(X, atan2)    \
  PHAL_DEVICE_MATH_NAMES(X, pow)      \
  X(phal_rt_round_f32_to_f16)         \
  X(phal_rt_round_f64_to_f16)         \
  X(phal_rt_round_f32_to_bf16)        \
  X(phal_rt_round_f64_to_bf16)        \
  X(phal_rt_f16_bits)                 \
  X(phal_rt_f16_from_bits)            \
  X(phal_rt_bf16_bits)                \
  X(phal_rt_reduce_precision_f16)     \
  X(phal_rt_reduce_precision_bf16)    \
  X(phal_rt_reduce_precision_f32)     \
  X(phal_rt_reduce_precision_f64)     \
  X(phal_rt_power_s64)                \
  X(phal_rt_power_u64)                \
  X(phal_rt_complex_exp)              \
  X(phal_rt_complex_expm1)            \
  X(phal_rt_complex_log)              \
  X(phal_rt_complex_log1p)            \
  X(phal_rt_complex_logistic)         \
  X(phal_rt_complex_sqrt)             \
  X(phal_rt_complex_rsqrt)            \
  X(phal_rt_complex_tanh)             \
  X(phal_rt_complex_sin)              \
  X(phal_rt_complex_cos)              \
  X(phal_rt_complex_tan)              \
  X(phal_rt_complex_cbrt)             \
  X(phal_rt_complex_divide)           \
  X(phal_rt_complex_power)            \
  X(phal_rt_complex_atan2)            \
  X(phal_rt_fmod_f32)                 \
  X(phal_rt_fmod_f64)                 \
  X(phal_rt_hypot)

extern "C" {

#define PHAL_DEVICE_DECLARE_UNARY(name)               \
  float PHAL_DEVICE(phal_math_##name##_f32)(float x); \
  double PHAL_DEVICE(phal_math_##name##_f64)(double x);
PHAL_DEVICE_DECLARE_UNARY(exp)
PHAL_DEVICE_DECLARE_UNARY(expm1)
PHAL_DEVICE_DECLARE_UNARY(log)
PHAL_DEVICE_DECLARE_UNARY(log1p)
PHAL_DEVICE_DECLARE_UNARY(logistic)
PHAL_DEVICE_DECLARE_UNARY(tanh)
PHAL_DEVICE_DECLARE_UNARY(sin)
PHAL_DEVICE_DECLARE_UNARY(cos)
PHAL_DEVICE_DECLARE_UNARY(tan)
PHAL_DEVICE_DECLARE_UNARY(erf)
PHAL_DEVICE_DECLARE_UNARY(cbrt)
PHAL_DEVICE_DECLARE_UNARY(rsqrt)
#undef PHAL_DEVICE_DECLARE_UNARY
float PHAL_DEVICE(phal_math_atan2_f32)(float y, float x);
double PHAL_DEVICE(phal_math_atan2_f64)(double y, double x);
float PHAL_DEVICE(phal_math_pow_f32)(float x, float y);
double PHAL_DEVICE(phal_math_pow_f64)(double x, double y);

float PHAL_DEVICE(phal_rt_round_f32_to_f16)(float value);
float PHAL_DEVICE(phal_rt_round_f64_to_f16)(double value);
float PHAL_DEVICE(phal_rt_round_f32_to_bf16)(float value);
float PHAL_DEVICE(phal_rt_round_f64_to_bf16)(double value);
__UINT16_TYPE__ PHAL_DEVICE(phal_rt_f16_bits)(float value);
float PHAL_DEVICE(phal_rt_f16_from_bits)(__UINT16_TYPE__ bits);
__UINT16_TYPE__ PHAL_DEVICE(phal_rt_bf16_bits)(float value);

float PHAL_DEVICE(phal_rt_reduce_precision_f16)(float value,
                                                __INT32_TYPE__ exponent_bits,
                                                __INT32_TYPE__ mantissa_bits);
float PHAL_DEVICE(phal_rt_reduce_precision_bf16)(float value,
                                                 __INT32_TYPE__ exponent_bits,
                                                 __INT32_TYPE__ mantissa_bits);
float PHAL_DEVICE(phal_rt_reduce_precision_f32)(float value,
                                                __INT32_TYPE__ exponent_bits,
                                                __INT32_TYPE__ mantissa_bits);
double PHAL_DEVICE(phal_rt_reduce_precision_f64)(double value,
                                                 __INT32_TYPE__ exponent_bits,
                                                 __INT32_TYPE__ mantissa_bits);

__INT64_TYPE__ PHAL_DEVICE(phal_rt_power_s64)(__INT64_TYPE__ base,
                                              __INT64_TYPE__ exponent);
__UINT64_TYPE__ PHAL_DEVICE(phal_rt_power_u64)(__UINT64_TYPE__ base,
                                               __UINT64_TYPE__ exponent);

// `out` is a generic (flat) pointer: on AMDGPU a kernel passes its private
// result slot through an addrspacecast.
#define PHAL_DEVICE_DECLARE_COMPLEX_UNARY(name)                      \
  void PHAL_DEVICE(phal_rt_complex_##name)(double real, double imag, \
                                           double* out);
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(exp)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(expm1)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(log)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(log1p)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(logistic)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(sqrt)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(rsqrt)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(tanh)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(sin)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(cos)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(tan)
PHAL_DEVICE_DECLARE_COMPLEX_UNARY(cbrt)
#undef PHAL_DEVICE_DECLARE_COMPLEX_UNARY
void PHAL_DEVICE(phal_rt_complex_divide)(double a_real, double a_imag,
                                         double b_real, double b_imag,
                                         double* out);
void PHAL_DEVICE(phal_rt_complex_power)(double a_real, double a_imag,
                                        double b_real, double b_imag,
                                        double* out);
void PHAL_DEVICE(phal_rt_complex_atan2)(double a_real, double a_imag,
                                        double b_real, double b_imag,
                                        double* out);

// StableHLO remainder, exact as C's fmod: the SPMD emitter calls these for
// frem, which NVPTX lowers through an inexact x - trunc(x / y) * y.
float PHAL_DEVICE(phal_rt_fmod_f32)(float x, float y);
double PHAL_DEVICE(phal_rt_fmod_f64)(double x, double y);

// sqrt(x^2 + y^2) without undue overflow or underflow: the magnitude of a
// complex number.
double PHAL_DEVICE(phal_rt_hypot)(double x, double y);

}  // extern "C"

#endif  // POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_FUNCTIONS_H_
