// Functions emitted kernels call for what is long or rare in IR: 16-bit
// float rounding, reduce-precision, integer power and complex functions.
// Together with the math library they are the whole runtime of a kernel: a
// JIT defines every name of RuntimeSymbols() in the kernel's library and
// needs nothing else from the process.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_RUNTIME_FUNCTIONS_H_
#define POLYHAL_SDK_EMITTERS_LLVM_RUNTIME_FUNCTIONS_H_

#include <cstdint>
#include <span>

extern "C" {

// 16-bit floats travel through kernels as f32 values holding an exactly
// representable f16 or bf16 value. These round to nearest even, once.
float phal_rt_round_f32_to_f16(float value);
float phal_rt_round_f64_to_f16(double value);
float phal_rt_round_f32_to_bf16(float value);
float phal_rt_round_f64_to_bf16(double value);
uint16_t phal_rt_f16_bits(float value);
float phal_rt_f16_from_bits(uint16_t bits);
uint16_t phal_rt_bf16_bits(float value);

// StableHLO reduce_precision on the value's own format (f16 and bf16 values
// are given as f32 holding them).
float phal_rt_reduce_precision_f16(float value, int32_t exponent_bits,
                                   int32_t mantissa_bits);
float phal_rt_reduce_precision_bf16(float value, int32_t exponent_bits,
                                    int32_t mantissa_bits);
float phal_rt_reduce_precision_f32(float value, int32_t exponent_bits,
                                   int32_t mantissa_bits);
double phal_rt_reduce_precision_f64(double value, int32_t exponent_bits,
                                    int32_t mantissa_bits);

// Integer power by squaring with wraparound; a negative exponent gives 0
// unless the base is 1 or -1. Narrower types widen, call and truncate.
int64_t phal_rt_power_s64(int64_t base, int64_t exponent);

// sqrt(x^2 + y^2) without undue overflow or underflow (C's hypot): the
// magnitude of a complex number.
double phal_rt_hypot(double x, double y);
uint64_t phal_rt_power_u64(uint64_t base, uint64_t exponent);

// Complex functions in f64 (c64 kernels widen, call and round): `out`
// receives the real and imaginary parts.
#define PHAL_RT_DECLARE_COMPLEX_UNARY(name) \
  void phal_rt_complex_##name(double real, double imag, double* out);
PHAL_RT_DECLARE_COMPLEX_UNARY(exp)
PHAL_RT_DECLARE_COMPLEX_UNARY(expm1)
PHAL_RT_DECLARE_COMPLEX_UNARY(log)
PHAL_RT_DECLARE_COMPLEX_UNARY(log1p)
PHAL_RT_DECLARE_COMPLEX_UNARY(logistic)
PHAL_RT_DECLARE_COMPLEX_UNARY(sqrt)
PHAL_RT_DECLARE_COMPLEX_UNARY(rsqrt)
PHAL_RT_DECLARE_COMPLEX_UNARY(tanh)
PHAL_RT_DECLARE_COMPLEX_UNARY(sin)
PHAL_RT_DECLARE_COMPLEX_UNARY(cos)
PHAL_RT_DECLARE_COMPLEX_UNARY(tan)
PHAL_RT_DECLARE_COMPLEX_UNARY(cbrt)
#undef PHAL_RT_DECLARE_COMPLEX_UNARY
void phal_rt_complex_divide(double a_real, double a_imag, double b_real,
                            double b_imag, double* out);
void phal_rt_complex_power(double a_real, double a_imag, double b_real,
                           double b_imag, double* out);
// atan2(y, x) = -i * log((x + i y) / sqrt(x^2 + y^2)), as the StableHLO
// interpreter defines it; a is y, b is x.
void phal_rt_complex_atan2(double a_real, double a_imag, double b_real,
                           double b_imag, double* out);

// Sorts the slices [begin, end) of a SORT kernel. `description` is
// [operand count, stable, length, inner, element bytes..., operand
// buffers..., output buffers...]: slice s starts at linear index
// (s / inner) * length * inner + s % inner and its elements are `inner`
// apart. `compare(buffers, base, inner, a, b)` is the emitted comparator,
// true when element a sorts before element b. Every operand is permuted
// alike, through a copy, so outputs may be the operands themselves.
void phal_rt_sort(void* const* buffers, int64_t begin, int64_t end,
                  const int64_t* description,
                  bool (*compare)(void* const* buffers, int64_t base,
                                  int64_t stride, int64_t a, int64_t b));

// phal_rt_sort for comparators that order by one or two keys (SortKeyKind
// below): `description` continues after the output buffers with [key
// count, then per key: operand, kind, descending]. Each element's keys
// become one unsigned integer whose ascending order is the comparator's
// (the first key in the high half), and elements sort by it, then by index:
// the stable order, what a stable sort with the comparator gives.
void phal_rt_sort_keyed(void* const* buffers, int64_t begin, int64_t end,
                        const int64_t* description);

}  // extern "C"

namespace phal::llvm_emitter {

// The key types phal_rt_sort_keyed orders by.
enum SortKeyKind : int64_t {
  kSortKeyF32TotalOrder = 1,
  kSortKeyS32 = 2,
  kSortKeyU32 = 3,
  // The total order of f32 values with every NaN taken as the positive
  // quiet NaN and -0 as +0.
  kSortKeyF32CanonicalTotalOrder = 4,
};

struct RuntimeSymbol {
  const char* name;
  void* address;
};

// Every function an emitted kernel may call: the math library, the functions
// above, and the C library functions LLVM's code generator emits calls to
// (memcpy, memset, fmod, ...).
std::span<const RuntimeSymbol> RuntimeSymbols();

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_RUNTIME_FUNCTIONS_H_
