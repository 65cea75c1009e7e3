// The GLSL 4.50 types and builtins glsl_math.glsl uses, in freestanding C++
// (no C library, no <cmath>): clang lowers each __builtin_ to an LLVM
// intrinsic that the NVPTX and AMDGPU back ends implement in hardware, and
// the host compiler to an instruction or a libm call of the same result.
// device_functions.cc includes this header, then the .glsl text inside
// namespace phal::device_math, as glsl_math_shim.h does for the host tests.
//
// `precise` (GLSL's no-contraction qualifier) expands to nothing: the file
// that includes the library is compiled with -ffp-contract=off instead.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_DEVICE_GLSL_DEVICE_SHIM_H_
#define POLYHAL_SDK_EMITTERS_LLVM_DEVICE_GLSL_DEVICE_SHIM_H_

#include "sdk/emitters/source/glsl_as_cxx.h"

namespace phal::device_math {

using uint = unsigned int;
using int16_t = __INT16_TYPE__;
using uint16_t = __UINT16_TYPE__;
using int32_t = __INT32_TYPE__;
using uint32_t = __UINT32_TYPE__;
using int64_t = __INT64_TYPE__;
using uint64_t = __UINT64_TYPE__;

inline double abs(double x) { return __builtin_fabs(x); }
inline double floor(double x) { return __builtin_floor(x); }
// Half to even: rint in the default rounding mode, the only mode kernels run
// in.
inline double roundEven(double x) { return __builtin_rint(x); }
inline double fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
// The library's phal_m_sqrt_f64 corrects an inexact builtin (AMDGPU's
// v_sqrt_f64), so any faithful square root serves here.
inline double sqrt(double x) { return __builtin_sqrt(x); }
inline bool isnan(double x) { return __builtin_isnan(x); }
inline bool isinf(double x) { return __builtin_isinf(x); }
inline double min(double a, double b) { return b < a ? b : a; }
inline int min(int a, int b) { return b < a ? b : a; }
inline double max(double a, double b) { return a < b ? b : a; }
inline int max(int a, int b) { return a < b ? b : a; }

inline uint64_t doubleBitsToUint64(double x) {
  return __builtin_bit_cast(uint64_t, x);
}
inline double uint64BitsToDouble(uint64_t bits) {
  return __builtin_bit_cast(double, bits);
}

}  // namespace phal::device_math

#endif  // POLYHAL_SDK_EMITTERS_LLVM_DEVICE_GLSL_DEVICE_SHIM_H_
